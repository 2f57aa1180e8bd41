import { accountingDateProblem, accountingDateRange } from './accounting-dates';

describe('accounting dates: 1 Jan 2000 to five years after today in Perth (issue 14 item 6)', () => {
  const today = '2026-11-24';

  it('runs from 1 Jan 2000 to the same day five years on', () => {
    expect(accountingDateRange(today)).toEqual({ earliest: '2000-01-01', latest: '2031-11-24' });
    // A leap day moves to 28 Feb five years on.
    expect(accountingDateRange('2028-02-29').latest).toBe('2033-02-28');
  });

  it('accepts both ends and everything between', () => {
    for (const date of ['2000-01-01', '2026-11-24', '2031-11-24', '2019-06-30'])
      expect(accountingDateProblem({ invoiceDate: date, dueDate: date }, today)).toBeUndefined();
    expect(accountingDateProblem({}, today)).toBeUndefined();
    expect(accountingDateProblem({ dueDate: null, invoiceDate: undefined }, today)).toBeUndefined();
  });

  it('names the field and the range in the message', () => {
    expect(accountingDateProblem({ invoiceDate: '9999-12-31' }, today)).toEqual({
      field: 'invoiceDate',
      message: 'Invoice date must be between 1 Jan 2000 and 24 Nov 2031',
      earliest: '2000-01-01',
      latest: '2031-11-24',
    });
    expect(accountingDateProblem({ dueDate: '2031-11-25' }, today)?.message).toBe(
      'Due date must be between 1 Jan 2000 and 24 Nov 2031',
    );
    expect(accountingDateProblem({ expenseDate: '1999-12-31' }, today)?.message).toBe(
      'Expense date must be between 1 Jan 2000 and 24 Nov 2031',
    );
    expect(accountingDateProblem({ paidAt: '1000-01-01' }, today)?.message).toBe(
      'Paid date must be between 1 Jan 2000 and 24 Nov 2031',
    );
  });

  it('reports the first bad field in form order', () => {
    expect(accountingDateProblem({ dueDate: '9999-01-01', invoiceDate: '1900-01-01' }, today)?.field).toBe(
      'invoiceDate',
    );
  });
});
