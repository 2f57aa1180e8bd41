/**
 * How customer messages write Perth times. The calendar itself (slots, Perth dates, clocks, slot start instants) is
 * @tyres/kernel's; these only add notify's wording: lower-case "am/pm", the email's long and short dates, the SMS
 * ETA. Dates are formatted by Intl (en-AU) on the Perth calendar date the kernel gives, so the words are the
 * same whatever zone the server runs in.
 */
import { dateToDb, perthClock, perthClock12, perthDate } from '@tyres/kernel';

// A calendar date as UTC midnight, formatted in UTC: Intl's words for that very date.
const longDate = new Intl.DateTimeFormat('en-AU', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

const shortDate = new Intl.DateTimeFormat('en-AU', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

function parts(format: Intl.DateTimeFormat, date: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of format.formatToParts(dateToDb(date))) out[p.type] = p.value;
  return out;
}

/** "hh:mm" on the 24-hour clock in Perth, e.g. 14:35. */
export const formatPerthClock = (instant: Date): string => perthClock(instant);

/** "2:35 pm" in Perth (the kernel's "2:35 PM", as the emails write it). */
export const formatPerthTime12 = (instant: Date): string => perthClock12(instant).toLowerCase();

/** The instant `minutes` after `now` (default 30: the technician's ETA when work starts, spec section 4). */
export function etaFrom(now: Date, minutes = 30): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

/** "ETA hh:mm" text of the technician-en-route SMS: the Perth clock time 30 minutes from `now`. */
export function formatEta(now: Date, minutes = 30): string {
  return formatPerthClock(etaFrom(now, minutes));
}

/** "Monday 24 November 2026" for a Perth calendar date. */
export function formatLongDate(scheduledDate: string): string {
  const p = parts(longDate, scheduledDate);
  return `${p.weekday} ${p.day} ${p.month} ${p.year}`;
}

/** "Sun 23 Nov, 8:00 am" for an instant, in Perth. */
export function formatShortDateTime(instant: Date): string {
  const p = parts(shortDate, perthDate(instant));
  return `${p.weekday} ${p.day} ${p.month}, ${formatPerthTime12(instant)}`;
}
