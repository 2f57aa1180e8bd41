/**
 * The business calendar (issue 19): the technicians' roster and leave (capacity per slot), calendar blocks (a whole
 * day, a date range, a recurring slot) and WA public holidays (closed unless opened). Every change drops the cached
 * slot lists (the tables' triggers NOTIFY every replica; this replica clears at once).
 */
import { daysBetween, perthToday, TIME_SLOTS, waPublicHoliday, waPublicHolidaysBetween } from '@tyres/kernel';
import { badRequest, notFound, type Identity } from '@tyres/service-kit';
import type { Sql } from '../db/client';
import {
  blocksFrom,
  closeHoliday,
  deleteBlock,
  deleteLeave,
  freeTechnicians,
  insertBlock,
  insertLeave,
  leaveFrom,
  liveReservationsIn,
  openedHolidays,
  openHoliday,
  rosterRows,
  setWeekdays,
  type CalendarBlockRow,
  type KeptBookingRow,
  type LeaveRow,
} from '../db/calendar';
import { reservationOfJob } from '../db/reservations';
import { readSlots } from '../db/slots';
import { closedHoliday, isoWeekday, normaliseWeekdays, slotCapacity } from '../domain/capacity';
import { CALENDAR_MSG, MAX_PLAN_DAYS, MAX_RANGE_DAYS, type CalendarBlockInput } from '../domain/calendar';
import { liveAt } from '../domain/slots';

export interface RosterTechnician {
  userId: string;
  username: string;
  isActive: boolean;
  weekdays: number[];
  leave: LeaveRow[];
}

export interface HolidayView {
  date: string;
  name: string;
  substitute: boolean;
  opened: boolean;
  openedReason: string | null;
}

export interface DayCapacity {
  date: string;
  rostered: number;
  onLeave: number;
  capacity: number;
  holiday: { name: string; opened: boolean } | null;
  slots: {
    slot: string;
    capacity: number;
    taken: number;
    /** Free technicians for the slot, the suggestion first. */
    freeTechnicians: { userId: string; username: string; jobsThatDay: number }[];
  }[];
}

/** A new block's answer: the block, and the live jobs in its time it keeps (the admin contacts those customers). */
export interface AddedCalendarBlock extends CalendarBlockRow {
  keptBookings: KeptBookingRow[];
}

/** The slot labels in the day's order (kept bookings are listed by date, then slot). */
export const SLOT_ORDER: readonly string[] = TIME_SLOTS.map((s) => s.slot);

export class BusinessCalendar {
  constructor(private readonly deps: { sql: Sql; clock: () => Date; onCalendarChanged: () => void }) {}

  private today(): string {
    return perthToday(this.deps.clock());
  }

  private changed<T>(v: T): T {
    this.deps.onCalendarChanged();
    return v;
  }

  async roster(): Promise<RosterTechnician[]> {
    const [rows, leave] = await Promise.all([
      rosterRows(this.deps.sql),
      leaveFrom(this.deps.sql, this.today()),
    ]);
    return rows.map((r) => ({ ...r, leave: leave.filter((l) => l.userId === r.userId) }));
  }

  async setRosterDays(userId: string, weekdays: number[], by: Identity): Promise<RosterTechnician> {
    const days = normaliseWeekdays(weekdays);
    if (!days) throw badRequest(CALENDAR_MSG.weekdays, undefined, 'invalid_weekdays');
    if (!(await setWeekdays(this.deps.sql, userId, days, by.id)))
      throw notFound(CALENDAR_MSG.technicianNotFound);
    return this.changed(await this.technician(userId));
  }

  private async technician(userId: string): Promise<RosterTechnician> {
    const t = (await this.roster()).find((r) => r.userId === userId);
    if (!t) throw notFound(CALENDAR_MSG.technicianNotFound);
    return t;
  }

  async addLeave(
    userId: string,
    input: { startDate: string; endDate: string; reason: string },
    by: Identity,
  ): Promise<LeaveRow> {
    this.checkRange(input.startDate, input.endDate);
    await this.technician(userId);
    return this.changed(await insertLeave(this.deps.sql, { userId, ...input }, by.id));
  }

  async removeLeave(userId: string, leaveId: string): Promise<void> {
    if (!(await deleteLeave(this.deps.sql, userId, leaveId))) throw notFound(CALENDAR_MSG.leaveNotFound);
    this.changed(undefined);
  }

  blocks(): Promise<CalendarBlockRow[]> {
    return blocksFrom(this.deps.sql, this.today());
  }

  /**
   * Adds a block. Jobs already booked (or held) in its time are kept, never moved or cancelled (docs/decisions.md):
   * they are listed in `keptBookings`, read after the block is in force, so the admin can contact those customers.
   */
  async addBlock(input: CalendarBlockInput, by: Identity): Promise<AddedCalendarBlock> {
    let row: Omit<CalendarBlockRow, 'id' | 'createdAt'>;
    if (input.kind === 'day') {
      this.checkRange(input.date, input.date);
      row = {
        kind: 'day',
        startDate: input.date,
        endDate: input.date,
        weekday: null,
        timeSlot: null,
        reason: input.reason,
      };
    } else if (input.kind === 'range') {
      this.checkRange(input.startDate, input.endDate);
      row = {
        kind: 'range',
        startDate: input.startDate,
        endDate: input.endDate,
        weekday: null,
        timeSlot: input.timeSlot ?? null,
        reason: input.reason,
      };
    } else {
      const start = input.startDate ?? this.today();
      this.checkRange(start, input.endDate ?? start);
      row = {
        kind: 'recurring',
        startDate: start,
        endDate: input.endDate ?? null,
        weekday: input.weekday,
        timeSlot: input.timeSlot,
        reason: input.reason,
      };
    }
    const added = this.changed(await insertBlock(this.deps.sql, row, by.id));
    const keptBookings = await liveReservationsIn(
      this.deps.sql,
      {
        startDate: added.startDate,
        endDate: added.endDate,
        weekday: added.weekday,
        timeSlot: added.timeSlot,
      },
      this.deps.clock(),
      SLOT_ORDER,
    );
    return { ...added, keptBookings };
  }

  async removeBlock(id: string, by: Identity): Promise<void> {
    if (!(await deleteBlock(this.deps.sql, id, by.id))) throw notFound(CALENDAR_MSG.blockNotFound);
    this.changed(undefined);
  }

  /** WA public holidays from today to the end of next year (or of `year`), with whether each was opened. */
  async holidays(year?: number): Promise<HolidayView[]> {
    const today = this.today();
    const from = year ? `${year}-01-01` : today;
    const to = year ? `${year}-12-31` : `${Number(today.slice(0, 4)) + 1}-12-31`;
    const opened = await openedHolidays(this.deps.sql, from, to);
    return waPublicHolidaysBetween(from, to).map((h) => ({
      ...h,
      opened: opened.has(h.date),
      openedReason: opened.get(h.date) ?? null,
    }));
  }

  async setHolidayOpen(
    date: string,
    open: boolean,
    reason: string | undefined,
    by: Identity,
  ): Promise<HolidayView> {
    const h = waPublicHoliday(date);
    if (!h) throw badRequest(CALENDAR_MSG.notHoliday, undefined, 'not_a_holiday');
    if (open) await openHoliday(this.deps.sql, date, reason?.trim() || null, by.id);
    else await closeHoliday(this.deps.sql, date);
    this.deps.onCalendarChanged();
    return { ...h, opened: open, openedReason: open ? reason?.trim() || null : null };
  }

  /** A date's capacity per slot, with the free technicians of each slot (the first is the suggestion). */
  async capacity(date: string, exceptJobId?: string): Promise<DayCapacity> {
    const now = this.deps.clock();
    const { reservations, day } = await readSlots(this.deps.sql, date);
    const live = liveAt(reservations, now).filter((r) => r.jobId !== exceptJobId);
    const capacity = slotCapacity(day);
    const h = waPublicHoliday(date);
    const slots = await Promise.all(
      TIME_SLOTS.map(async ({ slot }) => ({
        slot,
        capacity,
        taken: live.filter((r) => r.slot === slot).length,
        freeTechnicians: await freeTechnicians(
          this.deps.sql,
          date,
          slot,
          isoWeekday(date),
          exceptJobId ?? null,
        ),
      })),
    );
    return {
      date,
      rostered: day.rostered,
      onLeave: day.onLeave,
      capacity,
      holiday: h ? { name: h.name, opened: !closedHoliday(date, day.holidayOpened) } : null,
      slots,
    };
  }

  /** The free technicians for a job's slot (the dashboard's assign selector): the first is the suggestion. */
  async suggestionForJob(jobId: string) {
    const r = await reservationOfJob(this.deps.sql, jobId);
    if (!r || r.released) throw notFound('No slot reservation for this job');
    const free = await freeTechnicians(this.deps.sql, r.date, r.timeSlot, isoWeekday(r.date), jobId);
    return {
      jobId,
      scheduledDate: r.date,
      timeSlot: r.timeSlot,
      suggestedTechnicianId: free[0]?.userId ?? null,
      freeTechnicians: free,
    };
  }

  private checkRange(start: string, end: string): void {
    const today = this.today();
    if (start < today) throw badRequest(CALENDAR_MSG.pastDate, undefined, 'invalid_date');
    if (end < start) throw badRequest(CALENDAR_MSG.endBeforeStart, undefined, 'invalid_date');
    if (daysBetween(start, end) >= MAX_RANGE_DAYS)
      throw badRequest(CALENDAR_MSG.rangeTooLong, undefined, 'invalid_date');
    if (daysBetween(today, end) > MAX_PLAN_DAYS)
      throw badRequest(CALENDAR_MSG.tooFarAhead, undefined, 'invalid_date');
  }
}
