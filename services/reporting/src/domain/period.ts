import { z } from 'zod';
import { isIsoDate, type IsoDate } from './dates';

/**
 * A report period: inclusive Perth calendar dates, each bound optional (absent = unbounded on that side).
 * A record belongs to the period when its date d satisfies start ≤ d ≤ end.
 */
export interface Period {
  startDate?: IsoDate;
  endDate?: IsoDate;
}

export const DATE_FORMAT_MESSAGE = (name: string) => `${name} must be a date in the format YYYY-MM-DD`;
export const ORDER_MESSAGE = 'startDate must be on or before endDate';

/** One optional query value: absent or empty means no bound; a repeated parameter (an array) is malformed. */
const dateParam = (name: string) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx): IsoDate | undefined => {
      if (value === undefined || value === '') return undefined;
      if (typeof value !== 'string' || !isIsoDate(value)) {
        ctx.addIssue({ code: 'custom', message: DATE_FORMAT_MESSAGE(name) });
        return z.NEVER;
      }
      return value;
    });

/** The query of every report route (`?startDate=YYYY-MM-DD&endDate=YYYY-MM-DD`); other parameters are ignored. */
export const periodQuery = z
  .object({ startDate: dateParam('startDate'), endDate: dateParam('endDate') })
  .superRefine((q, ctx) => {
    if (q.startDate && q.endDate && q.startDate > q.endDate)
      ctx.addIssue({ code: 'custom', path: ['startDate'], message: ORDER_MESSAGE });
  })
  .transform((q): Period => ({
    ...(q.startDate ? { startDate: q.startDate } : {}),
    ...(q.endDate ? { endDate: q.endDate } : {}),
  }));

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
