/**
 * Business dates in Australia/Perth: "today", weekends and "Time has passed" are all judged on the Perth clock,
 * whatever the server's time zone.
 */
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import type { TimeSlot } from '@tyres/events';
import { BUSINESS_TIME_ZONE, TIME_SLOTS } from './constants';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A date-time with an explicit zone (Z or ±hh:mm), e.g. what `Date.toISOString()` produces. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
/** A date-time without a zone: read as Perth local time. */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

/** True for a real calendar date written YYYY-MM-DD (rejects 2025-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 2000 || y > 2999) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/**
 * The Perth calendar date a request means: `YYYY-MM-DD` as is, an ISO date-time with a zone (the staff form
 * sends the chosen date at the slot's start time as a date-time) converted to its Perth date, or a zone-less
 * date-time read as Perth local time. Anything else: undefined.
 */
export function toBusinessDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim();
  if (isCalendarDate(v)) return v;
  const local = LOCAL_DATE_TIME.exec(v)?.[1];
  if (local) return isCalendarDate(local) ? local : undefined;
  if (!ISO_DATE_TIME.test(v)) return undefined;
  const instant = new Date(v);
  if (Number.isNaN(instant.getTime())) return undefined;
  const date = formatInTimeZone(instant, BUSINESS_TIME_ZONE, 'yyyy-MM-dd');
  return isCalendarDate(date) ? date : undefined;
}

// Time zone conversions are the costly part of a slot list (Intl under the hood); both caches below are exact.
let todayCache: { minute: number; date: string } | undefined;

/** Today's date in Perth (cached per minute: zone offsets are whole minutes, so a minute never spans midnight). */
export function perthToday(now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (todayCache?.minute !== minute)
    todayCache = { minute, date: formatInTimeZone(now, BUSINESS_TIME_ZONE, 'yyyy-MM-dd') };
  return todayCache.date;
}

/** Next year in Perth (the vehicle year limit). */
export function perthNextYear(now: Date): number {
  return Number(perthToday(now).slice(0, 4)) + 1;
}

/** 0 = Sunday ... 6 = Saturday (a calendar date has no zone). */
export function dayOfWeek(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export const isWeekend = (date: string) => {
  const d = dayOfWeek(date);
  return d === 0 || d === 6;
};

export const isTimeSlot = (value: unknown): value is TimeSlot => TIME_SLOTS.some((s) => s.slot === value);

const startsCache = new Map<string, number>();

/** The instant a slot starts on a date, in Perth. */
export function slotStartsAt(date: string, slot: TimeSlot): Date {
  const key = `${date}|${slot}`;
  let at = startsCache.get(key);
  if (at === undefined) {
    const start = TIME_SLOTS.find((s) => s.slot === slot)?.start ?? '00:00';
    at = fromZonedTime(`${date}T${start}:00`, BUSINESS_TIME_ZONE).getTime();
    if (startsCache.size >= 5000) startsCache.clear();
    startsCache.set(key, at);
  }
  return new Date(at);
}

export const isPastDate = (date: string, now: Date) => date < perthToday(now);

/** A slot "has passed" once it has started (spec: "Slots already passed today ... 'Time has passed'"). */
export const slotHasStarted = (date: string, slot: TimeSlot, now: Date) =>
  slotStartsAt(date, slot).getTime() <= now.getTime();

/** Adds days to a calendar date. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A DATE column value (Prisma gives UTC midnight) back to YYYY-MM-DD. */
export const dateColumnToString = (value: Date) => value.toISOString().slice(0, 10);
/** YYYY-MM-DD to the value Prisma writes into a DATE column. */
export const dateToColumn = (date: string) => new Date(`${date}T00:00:00.000Z`);
