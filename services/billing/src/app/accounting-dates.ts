import { badRequest } from '@tyres/service-kit';
import { accountingDateProblem, type AccountingDateField } from '../domain/accounting-dates';
import type { IsoDate } from '../domain/dates';

/**
 * 400 with the first accounting date outside 1 Jan 2000 … five years after today (domain/accounting-dates.ts), e.g.
 * "Invoice date must be between 1 Jan 2000 and 24 Nov 2031"; `details` names the field and the range.
 */
export function checkAccountingDates(
  dates: Partial<Record<AccountingDateField, IsoDate | null | undefined>>,
  today: IsoDate,
): void {
  const problem = accountingDateProblem(dates, today);
  if (problem)
    throw badRequest(
      problem.message,
      { field: problem.field, earliest: problem.earliest, latest: problem.latest },
      'date_out_of_range',
    );
}
