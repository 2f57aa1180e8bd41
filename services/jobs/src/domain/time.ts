import { formatInTimeZone } from 'date-fns-tz';

/** Business time zone (spec sections 1 and 9). Perth has no daylight saving, but never assume: use the tz data. */
export const BUSINESS_TIME_ZONE = 'Australia/Perth';

export const TIME_SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'] as const;
export type TimeSlot = (typeof TIME_SLOTS)[number];

/** Slot start times (spec section 7): '8-10 AM' (08:00), '10-12 AM' (10:00), '12-2 PM' (12:00), '2-4 PM' (14:00). */
export const SLOT_START: Readonly<Record<TimeSlot, string>> = Object.freeze({
  '8-10 AM': '08:00',
  '10-12 AM': '10:00',
  '12-2 PM': '12:00',
  '2-4 PM': '14:00',
});

export function isTimeSlot(value: unknown): value is TimeSlot {
  return typeof value === 'string' && (TIME_SLOTS as readonly string[]).includes(value);
}

/** Today's calendar date in Perth, `YYYY-MM-DD`. */
export function perthToday(now: Date = new Date()): string {
  return formatInTimeZone(now, BUSINESS_TIME_ZONE, 'yyyy-MM-dd');
}

/** The Perth wall-clock time, `HH:mm`. */
export function perthClock(now: Date = new Date()): string {
  return formatInTimeZone(now, BUSINESS_TIME_ZONE, 'HH:mm');
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (rejects 2025-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * A scheduled date from the dashboard: `YYYY-MM-DD`, or an ISO date-time (the staff form sends the slot's start
 * as a date-time), which is read in Perth time. Returns undefined when it is neither.
 */
export function toPerthDate(value: string): string | undefined {
  const trimmed = value.trim();
  if (ISO_DATE.test(trimmed)) return isCalendarDate(trimmed) ? trimmed : undefined;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) return undefined;
  const ms = Date.parse(trimmed);
  if (!Number.isFinite(ms)) return undefined;
  return perthToday(new Date(ms));
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Weekday of a calendar date (jobs.scheduledDay), e.g. "Monday". */
export function weekdayOf(date: string): string {
  const m = ISO_DATE.exec(date);
  if (!m) throw new RangeError(`Not a YYYY-MM-DD date: ${date}`);
  return WEEKDAYS[new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay()] as string;
}

/** A date before today in Perth. */
export function isPastDate(date: string, now: Date = new Date()): boolean {
  return date < perthToday(now);
}

/** The slot has started already (today in Perth, start time reached) or its day is over. */
export function isSlotPast(date: string, slot: TimeSlot, now: Date = new Date()): boolean {
  const today = perthToday(now);
  if (date !== today) return date < today;
  return SLOT_START[slot] <= perthClock(now);
}

/** "2:35 PM": the customer's ETA, `minutes` from `now`, in Perth time. */
export function etaText(now: Date = new Date(), minutes = 30): string {
  return formatInTimeZone(new Date(now.getTime() + minutes * 60_000), BUSINESS_TIME_ZONE, 'h:mm a');
}

/** `Date` (Postgres DATE, read by Prisma as UTC midnight) → `YYYY-MM-DD`. */
export function dateOnly(value: Date): string {
  return value.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` → the `Date` Prisma writes to a DATE column. */
export function toDbDate(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}
