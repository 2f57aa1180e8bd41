/**
 * The business's reference lists (product spec sections 4, 7 and 9), written once: the event contracts build their
 * enums from them, the services validate with them and the dashboard offers them. Order matters: it is the order
 * staff see, and a change here is a change to the event contracts (issue 13).
 */

/** A job's status as the jobs service stores it; `cancelled` frees the job's slot. */
export const JOB_STATUSES = ['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const CUSTOMER_INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue', 'cancelled'] as const;
export type CustomerInvoiceStatus = (typeof CUSTOMER_INVOICE_STATUSES)[number];

/** The categories staff choose from for an invoice or job line. */
export const LINE_ITEM_CATEGORIES = ['callout', 'tyre', 'labour', 'battery', 'note'] as const;
export type LineItemCategory = (typeof LINE_ITEM_CATEGORIES)[number];

/** The card surcharge line billing adds to a prepaid booking's invoice: shown, never chosen by staff. */
export const SURCHARGE_CATEGORY = 'surcharge';
/** Every category an invoice line can carry: the staff's five, then the surcharge. */
export const INVOICE_LINE_CATEGORIES = [...LINE_ITEM_CATEGORIES, SURCHARGE_CATEGORY] as const;
export type InvoiceLineCategory = (typeof INVOICE_LINE_CATEGORIES)[number];

/** Expense (and purchase invoice) categories; purchase invoices are cost-of-goods-sold. */
export const EXPENSE_CATEGORIES = [
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
] as const;
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number];
