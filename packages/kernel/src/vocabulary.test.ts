import {
  CUSTOMER_INVOICE_STATUSES,
  EXPENSE_CATEGORIES,
  INVOICE_LINE_CATEGORIES,
  JOB_STATUSES,
  LINE_ITEM_CATEGORIES,
} from './vocabulary';

// The event contracts are built from these lists: values and order are a published contract.
describe('vocabulary', () => {
  it('lists job statuses in the jobs service order', () => {
    expect(JOB_STATUSES).toEqual(['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled']);
  });

  it('lists customer invoice statuses', () => {
    expect(CUSTOMER_INVOICE_STATUSES).toEqual(['draft', 'sent', 'paid', 'overdue', 'cancelled']);
  });

  it('lists the staff line categories, and the surcharge after them for invoice lines', () => {
    expect(LINE_ITEM_CATEGORIES).toEqual(['callout', 'tyre', 'labour', 'battery', 'note']);
    expect(INVOICE_LINE_CATEGORIES).toEqual(['callout', 'tyre', 'labour', 'battery', 'note', 'surcharge']);
  });

  it('lists the expense categories', () => {
    expect(EXPENSE_CATEGORIES).toEqual([
      'cost-of-goods-sold',
      'fuel',
      'rent',
      'utilities',
      'marketing',
      'insurance',
      'subscriptions',
      'admin',
      'tools',
      'vehicle',
      'misc',
    ]);
  });
});
