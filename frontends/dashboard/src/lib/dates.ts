import {
  BOOKING_MESSAGES,
  BUSINESS_TIME_ZONE,
  addDays,
  daysBetween,
  isCalendarDate,
  isTimeSlot,
  perthClock12,
  perthToday,
  SLOT_START,
  slotStartIso,
  toBusinessDate,
} from '@tyres/kernel';
import { EN_ROUTE_ETA_MINUTES } from './constants';

/**
 * Dates as the dashboard shows them. Calendar dates travel as `yyyy-MM-dd` strings and are Perth dates; instants
 * travel as ISO strings and are shown in Perth time whatever the device's zone. The calendar itself (today in Perth,
 * date arithmetic, slots) is the kernel's; what is here only names it the dashboard's way and formats for display.
 */

export { isPastDate, perthToday } from '@tyres/kernel';

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

/** A `yyyy-MM-dd` string as the UTC midnight of that calendar day (for formatting only). */
function dayValue(date: string): number | null {
  return isCalendarDate(date) ? Date.parse(`${date}T00:00:00Z`) : null;
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
  return isCalendarDate(value);
}

/** A calendar date plus n days. */
export function addDaysToDate(date: string, days: number): string {
  if (!isCalendarDate(date)) throw new Error(`Invalid date: ${date}`);
  return addDays(date, days);
}

/** Whole days from Perth today to a date (negative when past; NaN for what is no date). */
export function daysFromToday(date: string, now: Date = new Date()): number {
  return isCalendarDate(date) ? daysBetween(perthToday(now), date) : Number.NaN;
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
  return perthClock12(at).toLowerCase();
}

/** "25 Nov 2026, 9:05 am" in Perth time, for timestamps such as completedAt. */
export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '—';
  const at = instant(value);
  return at ? `${tidy(perthShortDate.format(at))}, ${clock(at)}` : value;
}

/** The calendar date part of a `yyyy-MM-dd` or ISO date-time value (as a Perth date). */
export function toDateOnly(value: string | null | undefined): string | null {
  return toBusinessDate(value) ?? null;
}

/** Start time of a slot label ("8-10 AM" -> "08:00"); throws "Invalid time slot" for anything else. */
export function slotStartTime(slot: string): string {
  if (!isTimeSlot(slot)) throw new Error(BOOKING_MESSAGES.invalidSlot);
  return SLOT_START[slot];
}

/**
 * The staff booking form's scheduledDate: a date-time built from the chosen date and the slot's start, in Perth
 * time ("2026-11-25T08:00:00+08:00").
 */
export function slotDateTime(date: string, slot: string): string {
  if (!isTimeSlot(slot)) throw new Error(BOOKING_MESSAGES.invalidSlot);
  if (!isCalendarDate(date)) throw new Error(BOOKING_MESSAGES.invalidDateOrSlot);
  return slotStartIso(date, slot);
}

/** "9:35 am": the ETA the en-route SMS gives, 30 minutes from now in Perth time. */
export function enRouteEta(now: Date = new Date()): string {
  return clock(new Date(now.getTime() + EN_ROUTE_ETA_MINUTES * 60_000));
}
