import { BUSINESS_TIME_ZONE, EN_ROUTE_ETA_MINUTES, TIME_SLOTS } from './constants';

/**
 * Dates. Calendar dates travel as `yyyy-MM-dd` strings and are Perth dates (the business time zone, no daylight
 * saving); instants travel as ISO strings and are shown in Perth time whatever the device's zone.
 *
 * Built on the browser's own Intl time zone data rather than a date library: these few helpers are all the
 * dashboard needs, and they keep the jobs tab's script small (see README, "Script budget").
 */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

const perthParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const longDate = new Intl.DateTimeFormat('en-AU', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const shortDate = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const perthLongDate = new Intl.DateTimeFormat('en-AU', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: BUSINESS_TIME_ZONE,
});
const perthShortDate = new Intl.DateTimeFormat('en-AU', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: BUSINESS_TIME_ZONE,
});
const perthTime = new Intl.DateTimeFormat('en-AU', {
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
  timeZone: BUSINESS_TIME_ZONE,
});

/** A `yyyy-MM-dd` string as the UTC midnight of that calendar day (for arithmetic and formatting only). */
function dayValue(date: string): number | null {
  const m = DATE_RE.exec(date);
  if (!m) return null;
  const value = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const check = new Date(value);
  return check.getUTCDate() === Number(m[3]) && check.getUTCMonth() === Number(m[2]) - 1 ? value : null;
}

function fromDayValue(value: number): string {
  return new Date(value).toISOString().slice(0, 10);
}

function instant(value: string): Date | null {
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** One style whatever the ICU version: "Sat 5 Sep 2026" (no commas or dots; "Sept", "June", "July" shortened). */
const tidy = (s: string) =>
  s
    .replace(/,/g, '')
    .replace(/\./g, '')
    .replace(/\b(Sep|Jun|Jul)[a-z]+\b/, '$1');

export function isDateString(value: unknown): value is string {
  return typeof value === 'string' && dayValue(value) !== null;
}

/** Today's date in Perth. */
export function perthToday(now: Date = new Date()): string {
  return perthParts.format(now);
}

/** A calendar date plus n days. */
export function addDaysToDate(date: string, days: number): string {
  const value = dayValue(date);
  if (value === null) throw new Error(`Invalid date: ${date}`);
  return fromDayValue(value + days * DAY_MS);
}

/** Whole days from Perth today to a date (negative when past). */
export function daysFromToday(date: string, now: Date = new Date()): number {
  const target = dayValue(date);
  const today = dayValue(perthToday(now));
  if (target === null || today === null) return Number.NaN;
  return Math.round((target - today) / DAY_MS);
}

/** True when a calendar date is before Perth today. */
export function isPastDate(date: string, now: Date = new Date()): boolean {
  return date < perthToday(now);
}

/** "Wed 25 Nov 2026" for a calendar date (or an ISO date-time, read as its Perth date). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const day = dayValue(value);
  if (day !== null) return tidy(longDate.format(day));
  const at = instant(value);
  return at ? tidy(perthLongDate.format(at)) : value;
}

/** "25 Nov 2026" (compact, for tables and cards). */
export function formatShortDate(value: string | null | undefined): string {
  if (!value) return '—';
  const day = dayValue(value);
  if (day !== null) return tidy(shortDate.format(day));
  const at = instant(value);
  return at ? tidy(perthShortDate.format(at)) : value;
}

/** "9:05 am" in Perth time. */
function clock(at: Date): string {
  return perthTime
    .format(at)
    .replace(/\u202f|\s/g, ' ')
    .replace(/\b(AM|PM)\b/i, (m) => m.toLowerCase());
}

/** "25 Nov 2026, 9:05 am" in Perth time, for timestamps such as completedAt. */
export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '—';
  const at = instant(value);
  return at ? `${tidy(perthShortDate.format(at))}, ${clock(at)}` : value;
}

/** The calendar date part of a `yyyy-MM-dd` or ISO date-time value (as a Perth date). */
export function toDateOnly(value: string | null | undefined): string | null {
  if (!value) return null;
  if (dayValue(value) !== null) return value;
  const at = instant(value);
  return at ? perthToday(at) : null;
}

/** Start time of a slot label ("8-10 AM" -> "08:00"); throws "Invalid time slot" for anything else. */
export function slotStartTime(slot: string): string {
  const found = TIME_SLOTS.find((s) => s.slot === slot);
  if (!found) throw new Error('Invalid time slot');
  return found.start;
}

/**
 * The staff booking form's scheduledDate: a date-time built from the chosen date and the slot's start, in Perth
 * time ("2026-11-25T08:00:00+08:00"; Perth has no daylight saving).
 */
export function slotDateTime(date: string, slot: string): string {
  const start = slotStartTime(slot);
  if (!isDateString(date)) throw new Error('Invalid date or time slot selected');
  return `${date}T${start}:00+08:00`;
}

/** "9:35 am": the ETA the en-route SMS gives, 30 minutes from now in Perth time. */
export function enRouteEta(now: Date = new Date()): string {
  return clock(new Date(now.getTime() + EN_ROUTE_ETA_MINUTES * 60_000));
}
