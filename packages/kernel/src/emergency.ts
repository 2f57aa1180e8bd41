/**
 * Emergency callout "as soon as possible" (issue 19, item 2; spec: "Response time 30-60 minutes. Emergency callout
 * Monday-Friday 8am-4pm"). A customer booking now is reached 30-60 minutes from now, so the callout belongs to the
 * slot in which the earliest arrival (now + 30 minutes) falls, even when that slot has already started: at 10:30 an
 * emergency is the 10-12 AM slot, not 12-2 PM. Offered on weekdays from 8:00 until 30 minutes before closing; whether
 * the day is open (public holiday, blocks) and the slot still has a technician free is the booking service's answer.
 */
import { isWeekend, perthClock, perthDate, TIME_SLOTS, type TimeSlot } from './calendar';

/** The promised response time, in the spec's words. */
export const EMERGENCY_RESPONSE_TIME = '30-60 minutes';
export const EMERGENCY_RESPONSE_MINUTES = { min: 30, max: 60 } as const;
const OPEN = '08:00';
const CLOSE = '16:00';

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export interface EmergencySlot {
  /** Today in Perth. */
  date: string;
  slot: TimeSlot;
  /** True when the slot has already started (only an emergency callout may still book it). */
  started: boolean;
}

/** Today's slot for an emergency callout booked at `now`, or undefined outside the callout hours. */
export function emergencySlot(now: Date = new Date()): EmergencySlot | undefined {
  const date = perthDate(now);
  if (isWeekend(date)) return undefined;
  const clock = toMinutes(perthClock(now));
  if (clock < toMinutes(OPEN)) return undefined;
  const arrival = clock + EMERGENCY_RESPONSE_MINUTES.min;
  if (arrival >= toMinutes(CLOSE)) return undefined;
  const s = TIME_SLOTS.find((t) => toMinutes(t.start) <= arrival && arrival < toMinutes(t.end));
  if (!s) return undefined;
  return { date, slot: s.slot, started: toMinutes(s.start) <= clock };
}

/** True when (date, slot) is the emergency callout's slot at `now` (a started slot it may still book). */
export function isEmergencySlot(date: string, slot: string, now: Date = new Date()): boolean {
  const e = emergencySlot(now);
  return e !== undefined && e.date === date && e.slot === slot;
}
