/**
 * Slot availability rules (issue 3, spec sections 5 and 7). Pure: the caller loads blocks and live reservations.
 */
import { isPastDate, isSlotPast, isTimeSlot, isWeekend, TIME_SLOTS, type TimeSlot } from '@tyres/kernel';
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

export type SlotUnavailability = 'weekend' | 'time-passed' | 'not-open' | 'blocked' | 'booked' | null;

export interface SlotState {
  slot: TimeSlot;
  isAvailable: boolean;
  blockedReason: string | null;
  /** Why it is unavailable (admin view). */
  state: SlotUnavailability;
  isBlocked: boolean;
  reservation: LiveReservation | null;
}

/**
 * Availability of the four slots of a date. Precedence of the reason shown: weekend, time passed, past the booking
 * horizon (when one is given: the customer's and staff form's lists; the admin's slot management plans blocks
 * further ahead), admin block (its reason), booked (no reason: the site shows "Unavailable").
 */
export function slotStates(
  date: string,
  now: Date,
  blocks: SlotBlock[],
  reservations: LiveReservation[],
  horizon?: BookingHorizon,
): SlotState[] {
  const weekend = isWeekend(date);
  const live = liveAt(reservations, now);
  return TIME_SLOTS.map(({ slot }) => {
    const block = blocks.find((b) => b.slot === slot);
    const reservation = live.find((r) => r.slot === slot) ?? null;
    let state: SlotUnavailability = null;
    let blockedReason: string | null = null;
    if (weekend) {
      state = 'weekend';
      blockedReason = WEEKEND_REASON;
    } else if (isSlotPast(date, slot, now)) {
      state = 'time-passed';
      blockedReason = TIME_PASSED_REASON;
    } else if (horizon && isBeyondHorizon(date, horizon)) {
      state = 'not-open';
      blockedReason = horizonSlotReason(horizon);
    } else if (block) {
      state = 'blocked';
      blockedReason = block.reason?.trim() || 'Unavailable';
    } else if (reservation) {
      state = 'booked';
    }
    return {
      slot,
      isAvailable: state === null,
      blockedReason,
      state,
      isBlocked: Boolean(block),
      reservation,
    };
  });
}

/**
 * Checks that a (date, slot) can be booked or moved to, apart from it being taken or blocked (which need the
 * database). Returns the 400 message, or undefined when fine.
 */
export function bookableProblem(date: string, slot: unknown, now: Date): string | undefined {
  if (!isTimeSlot(slot)) return MSG.invalidSlot;
  if (isPastDate(date, now) || isWeekend(date) || isSlotPast(date, slot, now)) return MSG.invalidDateOrSlot;
  return undefined;
}
