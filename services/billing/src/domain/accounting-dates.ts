import { addYears } from '@tyres/kernel';
import { formatLongDate, type IsoDate } from './dates';

/**
 * The dates an accounting record may carry (issue 14 item 6): invoice, due, expense and purchase invoice dates and
 * a bill's paid date. Anything from 1 Jan 2000 (older than any record this business keeps) to five years after today
 * in Perth (a due date set far ahead still fits); 9999-12-31 is a typo, not a date, and would sit at the top of
 * every report.
 */
export const EARLIEST_ACCOUNTING_DATE: IsoDate = '2000-01-01';
export const ACCOUNTING_YEARS_AHEAD = 5;

export const ACCOUNTING_DATE_FIELDS = {
  invoiceDate: 'Invoice date',
  dueDate: 'Due date',
  expenseDate: 'Expense date',
  paidAt: 'Paid date',
} as const;
export type AccountingDateField = keyof typeof ACCOUNTING_DATE_FIELDS;

export interface AccountingDateRange {
  earliest: IsoDate;
  latest: IsoDate;
}

/** The accepted range on a given Perth day. */
export function accountingDateRange(today: IsoDate): AccountingDateRange {
  return { earliest: EARLIEST_ACCOUNTING_DATE, latest: addYears(today, ACCOUNTING_YEARS_AHEAD) };
}

export interface AccountingDateProblem {
  field: AccountingDateField;
  message: string;
  earliest: IsoDate;
  latest: IsoDate;
}

/**
 * The first date outside the range, with the message staff see ("Invoice date must be between 1 Jan 2000 and
 * 24 Nov 2031"), or undefined when all are inside. Absent and null dates are not checked.
 */
export function accountingDateProblem(
  dates: Partial<Record<AccountingDateField, IsoDate | null | undefined>>,
  today: IsoDate,
): AccountingDateProblem | undefined {
  const { earliest, latest } = accountingDateRange(today);
  for (const field of Object.keys(ACCOUNTING_DATE_FIELDS) as AccountingDateField[]) {
    const date = dates[field];
    if (date === undefined || date === null) continue;
    if (date >= earliest && date <= latest) continue;
    return {
      field,
      message: `${ACCOUNTING_DATE_FIELDS[field]} must be between ${formatLongDate(earliest)} and ${formatLongDate(latest)}`,
      earliest,
      latest,
    };
  }
  return undefined;
}
