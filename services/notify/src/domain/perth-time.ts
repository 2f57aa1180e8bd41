/**
 * Business time (Australia/Perth). Formatting goes through Intl with the IANA zone; Perth has had no daylight
 * saving since 2009, so turning a Perth wall-clock time into an instant uses the fixed +08:00 offset.
 */
import type { TimeSlot } from '@tyres/events';

export const BUSINESS_TIME_ZONE = 'Australia/Perth';
const PERTH_OFFSET = '+08:00';

/** Start of each time slot (spec section 7). */
export const SLOT_START: Record<TimeSlot, string> = {
  '8-10 AM': '08:00',
  '10-12 AM': '10:00',
  '12-2 PM': '12:00',
  '2-4 PM': '14:00',
};

const clock24 = new Intl.DateTimeFormat('en-AU', {
  timeZone: BUSINESS_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const clock12 = new Intl.DateTimeFormat('en-AU', {
  timeZone: BUSINESS_TIME_ZONE,
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});

const longDate = new Intl.DateTimeFormat('en-AU', {
  timeZone: BUSINESS_TIME_ZONE,
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

const shortDate = new Intl.DateTimeFormat('en-AU', {
  timeZone: BUSINESS_TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

function parts(format: Intl.DateTimeFormat, instant: Date): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of format.formatToParts(instant)) out[p.type] = p.value;
  return out;
}

/** "hh:mm" on the 24-hour clock in Perth, e.g. 14:35. */
export function formatPerthClock(instant: Date): string {
  const p = parts(clock24, instant);
  return `${p.hour}:${p.minute}`;
}

/** "2:35 pm" in Perth. */
export function formatPerthTime12(instant: Date): string {
  const p = parts(clock12, instant);
  return `${p.hour}:${p.minute} ${(p.dayPeriod ?? '').toLowerCase()}`.trim();
}

/** The instant `minutes` after `now` (default 30: the technician's ETA when work starts, spec section 4). */
export function etaFrom(now: Date, minutes = 30): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

/** "ETA hh:mm" text of the technician-en-route SMS: the Perth clock time 30 minutes from `now`. */
export function formatEta(now: Date, minutes = 30): string {
  return formatPerthClock(etaFrom(now, minutes));
}

/** The Perth calendar date (YYYY-MM-DD) of an instant. */
export function perthDate(instant: Date): string {
  return new Date(instant.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);
}

/** The instant a slot starts on a Perth calendar date (YYYY-MM-DD). */
export function slotStartsAt(scheduledDate: string, timeSlot: TimeSlot): Date {
  return new Date(`${scheduledDate}T${SLOT_START[timeSlot]}:00${PERTH_OFFSET}`);
}

/** "Monday 24 November 2026" for a Perth calendar date. */
export function formatLongDate(scheduledDate: string): string {
  // Noon Perth time, so the calendar date is the same whatever the formatting zone.
  const p = parts(longDate, new Date(`${scheduledDate}T12:00:00${PERTH_OFFSET}`));
  return `${p.weekday} ${p.day} ${p.month} ${p.year}`;
}

/** "Sun 23 Nov, 8:00 am" for an instant, in Perth. */
export function formatShortDateTime(instant: Date): string {
  const p = parts(shortDate, instant);
  return `${p.weekday} ${p.day} ${p.month}, ${formatPerthTime12(instant)}`;
}
