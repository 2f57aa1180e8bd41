/**
 * Capacity per slot (issue 19): a slot holds as many jobs as technicians are rostered that day, minus those on
 * leave. A weekday nobody is rostered on has capacity 0 as soon as the business has any active technician (its
 * slots are not offered: "No technician rostered"). Only a business with no active technician at all (a one-person
 * business that never set up technician accounts) keeps one job per slot, as before rosters existed. Pure.
 */
import { dayOfWeek, isWaPublicHoliday, TIME_SLOTS, waPublicHoliday } from '@tyres/kernel';

/** The day's roster as counted by the database (active technicians working that weekday, and those on leave). */
export interface DayRoster {
  /** Active technicians on the roster, whatever their weekdays. */
  activeTechnicians: number;
  /** Active technicians working the date's weekday. */
  rostered: number;
  /** Of those, the ones on leave that date. */
  onLeave: number;
}

export function slotCapacity({ activeTechnicians, rostered, onLeave }: DayRoster): number {
  // (rostered counts active technicians too: never fewer active than rostered.)
  if (Math.max(activeTechnicians, rostered) <= 0) return 1;
  return Math.max(rostered - onLeave, 0);
}

/** A slot with `taken` live jobs and holds is bookable while taken < capacity. */
export const hasRoom = (taken: number, capacity: number) => taken < capacity;

/** ISO weekday (1 = Monday … 7 = Sunday) of a YYYY-MM-DD date. */
export const isoWeekday = (date: string) => ((dayOfWeek(date) + 6) % 7) + 1;

export const WEEKDAY_LABELS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

/** A roster's weekdays: ISO 1..7, unique, sorted. Undefined when not a valid list. */
export function normaliseWeekdays(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length > 7) return undefined;
  if (!value.every((d) => Number.isInteger(d) && d >= 1 && d <= 7)) return undefined;
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

export const NO_TECHNICIAN_REASON = 'No technician available (leave)';
export const NOBODY_ROSTERED_REASON = 'No technician rostered';

/** Why a day of capacity 0 offers no slot: nobody works that weekday, or everyone who does is on leave. */
export const noTechnicianReason = ({ rostered }: DayRoster): string =>
  rostered <= 0 ? NOBODY_ROSTERED_REASON : NO_TECHNICIAN_REASON;
export const holidayReason = (name: string) => `Public holiday (${name})`;

/** The closed WA public holiday on `date`, if it is one and no admin opened it. */
export function closedHoliday(date: string, opened: boolean): string | undefined {
  if (opened || !isWaPublicHoliday(date)) return undefined;
  return holidayReason(waPublicHoliday(date)!.name);
}

export const isSlotLabel = (slot: unknown): boolean => TIME_SLOTS.some((s) => s.slot === slot);
