/**
 * The business calendar, written once (issue 13): the four daily time slots, Perth dates and clock times, and
 * calendar-date arithmetic. Pure TypeScript on the platform's Intl time zone data (Node and every browser), so the
 * services and both front ends judge "today", "Time has passed" and slot start instants the same way, whatever
 * zone the server or the phone is in.
 *
 * A calendar date is a `YYYY-MM-DD` string (no zone); an instant is a `Date`.
 */

/** Business time zone (spec sections 1 and 9). */
export const BUSINESS_TIME_ZONE = 'Australia/Perth';

/** The four daily slots, in order, with their start time in Perth (spec section 7). */
export const TIME_SLOTS = [
  { slot: '8-10 AM', start: '08:00', end: '10:00' },
  { slot: '10-12 AM', start: '10:00', end: '12:00' },
  { slot: '12-2 PM', start: '12:00', end: '14:00' },
  { slot: '2-4 PM', start: '14:00', end: '16:00' },
] as const;
export type TimeSlot = (typeof TIME_SLOTS)[number]['slot'];
/** The slot labels in order: ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM']. */
export const TIME_SLOT_LABELS: readonly TimeSlot[] = TIME_SLOTS.map((s) => s.slot);
/** Start of each slot, `HH:mm` in Perth. */
export const SLOT_START: Readonly<Record<TimeSlot, string>> = Object.freeze(
  Object.fromEntries(TIME_SLOTS.map((s) => [s.slot, s.start])) as Record<TimeSlot, string>,
);

export function isTimeSlot(value: unknown): value is TimeSlot {
  return typeof value === 'string' && TIME_SLOTS.some((s) => s.slot === value);
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (rejects 2025-02-30 and 2025-2-3). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Year 0000 does not exist in the calendar (1 BC is followed by AD 1) and Postgres refuses it.
  if (y < 1) return false;
  const date = new Date(utcDate(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Date.UTC without its 1900 shift for years 0-99. */
function utcDate(year: number, monthIndex: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d.getTime();
}

function utcMidnight(date: string): number {
  const m = ISO_DATE.exec(date);
  if (!m || !isCalendarDate(date)) throw new RangeError(`Not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return utcDate(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

function fromUtcMidnight(ms: number): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const yyyy = y < 0 ? `-${String(-y).padStart(6, '0')}` : String(y).padStart(4, '0');
  return `${yyyy}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

const DAY_MS = 86_400_000;

/** `date` moved by `days` calendar days (negative goes back). */
export function addDays(date: string, days: number): string {
  return fromUtcMidnight(utcMidnight(date) + days * DAY_MS);
}

/**
 * `date` moved by `months` calendar months (negative goes back), the day kept where the month has it and otherwise
 * the month's last day: 31 Jan + 1 month = 28 (or 29) Feb, 29 Feb 2028 + 12 months = 28 Feb 2029.
 */
export function addMonths(date: string, months: number): string {
  const start = new Date(utcMidnight(date));
  const index = start.getUTCFullYear() * 12 + start.getUTCMonth() + Math.trunc(months);
  const year = Math.floor(index / 12);
  const month = index - year * 12;
  const lastDay = new Date(utcDate(year, month + 1, 0)).getUTCDate();
  return fromUtcMidnight(utcDate(year, month, Math.min(start.getUTCDate(), lastDay)));
}

/** `date` moved by whole years (29 Feb becomes 28 Feb in a common year). */
export function addYears(date: string, years: number): string {
  return addMonths(date, Math.trunc(years) * 12);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  return new Date(utcMidnight(date)).getUTCDay();
}

export const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** "Monday" for a calendar date (jobs.scheduledDay). */
export function weekdayName(date: string): string {
  return WEEKDAY_NAMES[dayOfWeek(date)] as string;
}

export function isWeekend(date: string): boolean {
  const d = dayOfWeek(date);
  return d === 0 || d === 6;
}

// Intl formatters are costly to build and cheap to reuse.
const perthParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

interface WallClock {
  date: string;
  hour: number;
  minute: number;
  second: number;
}

/**
 * Wall clocks already read, by epoch second. formatToParts costs ~10 µs, and a slot list asks "is this slot past?"
 * for every slot of every request with the same `now` (6% of booking's CPU in `bench:booking`); a second's wall
 * clock never changes, so the cache is exact. Bounded: cleared when full.
 */
const wallClocks = new Map<number, Readonly<WallClock>>();
const WALL_CLOCK_CACHE_SIZE = 256;

function perthWallClock(instant: Date): Readonly<WallClock> {
  const second = Math.floor(instant.getTime() / 1000);
  const cached = wallClocks.get(second);
  if (cached) return cached;
  const clock = Object.freeze(readPerthWallClock(instant));
  if (Number.isFinite(second)) {
    if (wallClocks.size >= WALL_CLOCK_CACHE_SIZE) wallClocks.clear();
    wallClocks.set(second, clock);
  }
  return clock;
}

function readPerthWallClock(instant: Date): WallClock {
  const p: Record<string, string> = {};
  for (const part of perthParts.formatToParts(instant)) p[part.type] = part.value;
  // Intl writes years before 1000 without leading zeros ("999"); a calendar date always has four digits.
  return {
    date: `${(p.year ?? '').padStart(4, '0')}-${p.month}-${p.day}`,
    hour: Number(p.hour),
    minute: Number(p.minute),
    second: Number(p.second),
  };
}

/** The Perth calendar date of an instant (default: now): "today" for the business. */
export function perthDate(instant: Date = new Date()): string {
  return perthWallClock(instant).date;
}

/** Alias that reads better where "today" is meant. */
export const perthToday = (now: Date = new Date()): string => perthDate(now);

/** The Perth wall-clock time of an instant, `HH:mm` (24-hour). */
export function perthClock(instant: Date = new Date()): string {
  const w = perthWallClock(instant);
  return `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
}

/** The Perth time of an instant on the 12-hour clock, as customers read it: "2:35 PM", "12:05 AM". */
export function perthClock12(instant: Date = new Date()): string {
  const w = perthWallClock(instant);
  const hour = w.hour % 12 === 0 ? 12 : w.hour % 12;
  return `${hour}:${String(w.minute).padStart(2, '0')} ${w.hour < 12 ? 'AM' : 'PM'}`;
}

/** Minutes Perth is ahead of UTC at an instant (480 since 2009; read from the tz data, never assumed). */
function perthOffsetMinutes(instant: Date): number {
  const w = perthWallClock(instant);
  const asUtc = utcMidnight(w.date) + ((w.hour * 60 + w.minute) * 60 + w.second) * 1000;
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant of a Perth wall-clock time (`HH:mm`) on a calendar date. */
export function perthInstant(date: string, clock: string): Date {
  const m = /^(\d{2}):(\d{2})$/.exec(clock);
  if (!m) throw new RangeError(`Not an HH:mm time: ${JSON.stringify(clock)}`);
  const wallAsUtc = utcMidnight(date) + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
  const first = wallAsUtc - perthOffsetMinutes(new Date(wallAsUtc)) * 60_000;
  return new Date(wallAsUtc - perthOffsetMinutes(new Date(first)) * 60_000);
}

/** The instant a slot starts on a Perth calendar date. */
export function slotStartsAt(date: string, slot: TimeSlot): Date {
  return perthInstant(date, SLOT_START[slot]);
}

/** The slot's start as an ISO date-time with Perth's offset ("2026-11-24T08:00:00+08:00"). */
export function slotStartIso(date: string, slot: TimeSlot): string {
  const at = slotStartsAt(date, slot);
  const offset = perthOffsetMinutes(at);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${date}T${SLOT_START[slot]}:00${sign}${hhmm}`;
}

/** A date before today in Perth. */
export function isPastDate(date: string, now: Date = new Date()): boolean {
  return date < perthDate(now);
}

/** The slot has started (today in Perth, start time reached) or its day is over: "Time has passed". */
export function isSlotPast(date: string, slot: TimeSlot, now: Date = new Date()): boolean {
  const today = perthDate(now);
  if (date !== today) return date < today;
  return SLOT_START[slot] <= perthClock(now);
}

/** A date-time with an explicit zone (Z or ±hh:mm), e.g. what `Date.toISOString()` produces. */
const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
/** A date-time without a zone: read as Perth local time. */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

/**
 * The Perth calendar date a request means: `YYYY-MM-DD` as is; an ISO date-time with a zone (the staff form sends
 * the chosen date at the slot's start) converted to its Perth date; a zone-less date-time read as Perth local time.
 * Anything else: undefined.
 */
export function toBusinessDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  if (isCalendarDate(v)) return v;
  const local = LOCAL_DATE_TIME.exec(v)?.[1];
  if (local) return isCalendarDate(local) ? local : undefined;
  if (!ZONED_DATE_TIME.test(v)) return undefined;
  const instant = new Date(v);
  if (Number.isNaN(instant.getTime())) return undefined;
  return perthDate(instant);
}

/** A Postgres DATE as Prisma reads it (UTC midnight) → `YYYY-MM-DD`. */
export function dateFromDb(value: Date): string {
  return fromUtcMidnight(utcDate(value.getUTCFullYear(), value.getUTCMonth(), value.getUTCDate()));
}

/** `YYYY-MM-DD` → the `Date` Prisma writes to a DATE column (UTC midnight). */
export function dateToDb(date: string): Date {
  return new Date(utcMidnight(date));
}
