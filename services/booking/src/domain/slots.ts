/**
 * Slot availability rules (issue 3, spec sections 5 and 7). Pure: the caller loads blocks and live reservations.
 */
import {
  isEmergencySlot,
  isPastDate,
  isSlotPast,
  isTimeSlot,
  isWeekend,
  TIME_SLOTS,
  type TimeSlot,
} from '@tyres/kernel';
import { closedHoliday, hasRoom, noTechnicianReason, slotCapacity, type DayRoster } from './capacity';
import { horizonSlotReason, isBeyondHorizon, type BookingHorizon } from './horizon';
import { MSG } from './messages';

export const WEEKEND_REASON = 'Closed on weekends (we work Monday to Friday, 8am-4pm)';
export const TIME_PASSED_REASON = 'Time has passed';

export interface SlotBlock {
  slot: string;
  reason: string | null;
}

export interface LiveReservation {
  slot: string;
  jobId: string;
  jobNumber: string;
  kind: 'hold' | 'booking';
  /** A hold's end (epoch ms); a hold past it no longer counts, even before the sweeper releases it. */
  expiresAt: number | null;
}

/** Bookings, and holds not yet expired at `now`. */
export const liveAt = (reservations: LiveReservation[], now: Date) =>
  reservations.filter((r) => r.kind === 'booking' || (r.expiresAt ?? 0) > now.getTime());

export type SlotUnavailability =
  'weekend' | 'time-passed' | 'not-open' | 'holiday' | 'blocked' | 'no-technician' | 'booked' | null;

/**
 * A date's business calendar (issue 19): its roster counts, whether an admin opened it (when it is a WA public
 * holiday), and its calendar blocks (whole day when slot is null: a day, a range, a recurring slot).
 */
export interface DayFacts extends DayRoster {
  holidayOpened: boolean;
  calendarBlocks: CalendarBlockOn[];
}

/** A calendar block in force on a date: one slot, or the whole day (slot null). */
export interface CalendarBlockOn {
  slot: string | null;
  reason: string | null;
}

/** Before any roster or calendar: one job per slot, nothing closed. */
export const NO_CALENDAR: DayFacts = {
  activeTechnicians: 0,
  rostered: 0,
  onLeave: 0,
  holidayOpened: false,
  calendarBlocks: [],
};

export interface SlotState {
  slot: TimeSlot;
  isAvailable: boolean;
  blockedReason: string | null;
  /** Why it is unavailable (admin view). */
  state: SlotUnavailability;
  isBlocked: boolean;
  /** The first live reservation (bookings and unexpired holds), if any. */
  reservation: LiveReservation | null;
  /** Every live reservation of the slot. */
  reservations: LiveReservation[];
  /** Jobs the slot holds that day (technicians rostered minus leave; 1 with no active technician at all). */
  capacity: number;
}

/**
 * Availability of the four slots of a date. Precedence of the reason shown: weekend, time passed, past the booking
 * horizon (when one is given: the customer's and staff form's lists; the admin's slot management plans blocks
 * further ahead), a WA public holiday not opened, a calendar block (its reason), a slot block (its reason), no
 * technician (nobody rostered that weekday, or all on leave), full (live jobs and holds = capacity; no reason: the site shows "Unavailable").
 */
export function slotStates(
  date: string,
  now: Date,
  blocks: SlotBlock[],
  reservations: LiveReservation[],
  horizon?: BookingHorizon,
  day: DayFacts = NO_CALENDAR,
): SlotState[] {
  const weekend = isWeekend(date);
  const live = liveAt(reservations, now);
  const capacity = slotCapacity(day);
  const holiday = closedHoliday(date, day.holidayOpened);
  return TIME_SLOTS.map(({ slot }) => {
    const block = blocks.find((b) => b.slot === slot);
    const calendarBlock = day.calendarBlocks.find((b) => b.slot === null || b.slot === slot);
    const held = live.filter((r) => r.slot === slot);
    const reservation = held[0] ?? null;
    let state: SlotUnavailability = null;
    let blockedReason: string | null = null;
    if (weekend) {
      state = 'weekend';
      blockedReason = WEEKEND_REASON;
    } else if (isSlotPast(date, slot, now) && !isEmergencySlot(date, slot, now)) {
      // (Today's slot an emergency callout booked now falls in stays bookable although started: issue 19.)
      state = 'time-passed';
      blockedReason = TIME_PASSED_REASON;
    } else if (horizon && isBeyondHorizon(date, horizon)) {
      state = 'not-open';
      blockedReason = horizonSlotReason(horizon);
    } else if (holiday) {
      state = 'holiday';
      blockedReason = holiday;
    } else if (calendarBlock) {
      state = 'blocked';
      blockedReason = calendarBlock.reason?.trim() || 'Unavailable';
    } else if (block) {
      state = 'blocked';
      blockedReason = block.reason?.trim() || 'Unavailable';
    } else if (capacity === 0) {
      state = 'no-technician';
      blockedReason = noTechnicianReason(day);
    } else if (!hasRoom(held.length, capacity)) {
      state = 'booked';
    }
    return {
      slot,
      isAvailable: state === null,
      blockedReason,
      state,
      isBlocked: Boolean(block),
      reservation,
      reservations: held,
      capacity,
    };
  });
}

/**
 * Checks that a (date, slot) can be booked or moved to, apart from it being taken or blocked (which need the
 * database). Returns the 400 message, or undefined when fine.
 */
export function bookableProblem(date: string, slot: unknown, now: Date): string | undefined {
  if (!isTimeSlot(slot)) return MSG.invalidSlot;
  if (isPastDate(date, now) || isWeekend(date)) return MSG.invalidDateOrSlot;
  // A started slot only as an emergency callout "as soon as possible" (the kernel's emergencySlot).
  if (isSlotPast(date, slot, now) && !isEmergencySlot(date, slot, now)) return MSG.invalidDateOrSlot;
  return undefined;
}
