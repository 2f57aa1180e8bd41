import { z } from 'zod';
import { isReportDate, type IsoDate, type Period } from '../domain/period';

/**
 * The query of every report route: `startDate` and `endDate`, inclusive Perth calendar dates `YYYY-MM-DD`, each
 * optional. Messages are the answers' `message` (400 validation_failed, via parseOr400).
 */
export const DATE_FORMAT_MESSAGE = (name: string) => `${name} must be a date in the format YYYY-MM-DD`;
export const ORDER_MESSAGE = 'startDate must be on or before endDate';

/** One optional query value: absent or empty means no bound; a repeated parameter (an array) is malformed. */
const dateParam = (name: string) =>
  z
    .unknown()
    .optional()
    .transform((value, ctx): IsoDate | undefined => {
      if (value === undefined || value === '') return undefined;
      if (!isReportDate(value)) {
        ctx.addIssue({ code: 'custom', message: DATE_FORMAT_MESSAGE(name) });
        return z.NEVER;
      }
      return value;
    })
    // The parser takes any value to answer its own message; what a caller should send is a Perth calendar date.
    .meta({
      override: {
        type: 'string',
        format: 'date',
        description: `Inclusive Perth calendar date (YYYY-MM-DD); absent or empty: no bound.`,
      },
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
