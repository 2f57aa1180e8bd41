import { schemas } from '@tyres/events';
import { MAX_TYRE_QUANTITY } from '@tyres/kernel';

/**
 * Business constants of the spec (section 9). The price list (GST-inclusive, integer cents) is the kernel's
 * PRICE_LIST (issue 13), the one the booking service quotes from; GST, the card surcharge and rounding are
 * @tyres/kernel's rules too.
 */
/** A job is for 1 to 4 tyres (booking's rule); a generated invoice never prices more. */
export const MAX_TYRES_PER_JOB = MAX_TYRE_QUANTITY;
/** Default customer invoice due date: 30 days after the invoice date. */
export const INVOICE_DUE_DAYS = 30;
/** Largest line-item quantity (a whole number; keeps quantity × unit price and the Int column in range). */
export const MAX_LINE_QUANTITY = 10_000;

// The vocabularies are the event contracts' (packages/events), so what billing stores is what its events may carry.
export const CUSTOMER_INVOICE_STATUSES = schemas.customerInvoiceStatus.options;
export type CustomerInvoiceStatus = (typeof CUSTOMER_INVOICE_STATUSES)[number];

/** What staff may choose for a line (the spec's five). */
export const STAFF_LINE_ITEM_CATEGORIES = schemas.lineItemCategory.options;
/** Line categories as stored: plus the card surcharge line, which billing makes itself with a card payment. */
export const LINE_ITEM_CATEGORIES = schemas.lineItemCategoryV2.options;
export type LineItemCategory = (typeof LINE_ITEM_CATEGORIES)[number];
export const DEFAULT_LINE_ITEM_CATEGORY: LineItemCategory = 'labour';

/** Storage list of expense categories; purchase invoices use the same list (always cost-of-goods-sold on create). */
export const EXPENSE_CATEGORIES = schemas.expenseCategory.options;
export type ExpenseCategory = (typeof EXPENSE_CATEGORIES)[number];
/** What the dashboard's expense form offers (all but cost-of-goods-sold) and its default. */
export const EXPENSE_FORM_CATEGORIES = EXPENSE_CATEGORIES.filter((c) => c !== 'cost-of-goods-sold');
export const DEFAULT_EXPENSE_CATEGORY: ExpenseCategory = 'admin';
export const PURCHASE_INVOICE_CATEGORY: ExpenseCategory = 'cost-of-goods-sold';

/** Accepted payment methods (landing page footer), printed on every invoice. */
export const ACCEPTED_PAYMENT_METHODS = [
  'Visa',
  'Mastercard',
  'Amex',
  'EFTPOS',
  'PayID',
  'Cash',
  'Zip',
  'Klarna',
] as const;
export const PAYMENT_METHODS_NOTE = 'Pay in 4 with Zip and Klarna.';
