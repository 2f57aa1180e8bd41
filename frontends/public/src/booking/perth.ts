/** Business time (Australia/Perth, spec sections 1 and 9): "today" and passed slots are Perth's, not the phone's. */
import { formatInTimeZone } from 'date-fns-tz';
import { BUSINESS_TIME_ZONE } from '../site/content';

/** The four daily slots and their start times (spec section 7). */
export const TIME_SLOTS = [
  { slot: '8-10 AM', start: '08:00' },
  { slot: '10-12 AM', start: '10:00' },
  { slot: '12-2 PM', start: '12:00' },
  { slot: '2-4 PM', start: '14:00' },
] as const;

export function perthToday(now: Date = new Date()): string {
  return formatInTimeZone(now, BUSINESS_TIME_ZONE, 'yyyy-MM-dd');
}

export function perthTimeOfDay(now: Date = new Date()): string {
  return formatInTimeZone(now, BUSINESS_TIME_ZONE, 'HH:mm');
}

/** A slot of today whose start time has come (Perth time) can no longer be booked: "Time has passed". */
export function slotHasPassed(date: string, slot: string, now: Date = new Date()): boolean {
  if (date !== perthToday(now)) return date < perthToday(now);
  const start = TIME_SLOTS.find((s) => s.slot === slot)?.start;
  return start !== undefined && perthTimeOfDay(now) >= start;
}

export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The slot's start as an ISO date-time in Perth (+08:00, no daylight saving). */
export function slotStartIso(date: string, slot: string): string | null {
  const start = TIME_SLOTS.find((s) => s.slot === slot)?.start;
  return start ? `${date}T${start}:00+08:00` : null;
}
