import { isCalendarDate } from '@tyres/kernel';

/** A Perth calendar date `YYYY-MM-DD` (the kernel calendar's dates: perthDate, addDays, daysBetween). */
export type IsoDate = string;

/**
 * A date a report can be asked about: a real calendar date (the kernel's rule) from year 1 on, since Postgres has no
 * year 0 and would refuse '0000-01-01' in the query.
 */
export function isReportDate(value: unknown): value is IsoDate {
  return isCalendarDate(value) && value >= '0001-01-01';
}

/**
 * A report period: inclusive Perth calendar dates, each bound optional (absent = unbounded on that side).
 * A record belongs to the period when its date d satisfies start ≤ d ≤ end.
 */
export interface Period {
  startDate?: IsoDate;
  endDate?: IsoDate;
}

/** Whether a date is inside the period (inclusive bounds). `YYYY-MM-DD` strings compare in calendar order. */
export function inPeriod(date: IsoDate, period: Period): boolean {
  if (period.startDate && date < period.startDate) return false;
  if (period.endDate && date > period.endDate) return false;
  return true;
}

/**
 * The bounds as SQL parameters: Postgres dates accept `-infinity` / `infinity`, so one `BETWEEN $1::date AND $2::date`
 * serves bounded and unbounded periods alike (and keeps the date indexes usable).
 */
export function sqlBounds(period: Period): { start: string; end: string } {
  return { start: period.startDate ?? '-infinity', end: period.endDate ?? 'infinity' };
}
