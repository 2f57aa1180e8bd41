/** Business constants of the spec (section 9). Money as decimal strings: never floats. */
export const GST_RATE = '0.10';
/** Card surcharge on online payments: 1.7%. */
export const CARD_SURCHARGE_RATE = '0.017';
export const CALLOUT_FEE = '89.80';
export const PUNCTURE_REPAIR_FEE = '40.00';
export const PREPAYMENT_DISCOUNT = '30.00';
export const FITTING_FEE_PER_TYRE = '25.00';
export const BALANCING_FEE_PER_TYRE = '15.00';
export const BATTERY_SERVICE_PRICE = '0.00';
/** Default customer invoice due date: 30 days after the invoice date. */
export const INVOICE_DUE_DAYS = 30;
export const BUSINESS_TIME_ZONE = 'Australia/Perth';
/** Largest value a Decimal(10,2) column holds. */
export const MAX_MONEY = '99999999.99';
/** Largest line-item quantity (a whole number; keeps quantity × unit price and the Int column in range). */
export const MAX_LINE_QUANTITY = 10_000;

export const CUSTOMER_INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue', 'cancelled'] as const;
export type CustomerInvoiceStatus = (typeof CUSTOMER_INVOICE_STATUSES)[number];

export const LINE_ITEM_CATEGORIES = ['callout', 'tyre', 'labour', 'battery', 'note'] as const;
export type LineItemCategory = (typeof LINE_ITEM_CATEGORIES)[number];
export const DEFAULT_LINE_ITEM_CATEGORY: LineItemCategory = 'labour';

/** Storage list of expense categories; purchase invoices use the same list (always cost-of-goods-sold on create). */
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
