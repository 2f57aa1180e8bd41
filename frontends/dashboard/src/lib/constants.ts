/**
 * Business constants and limits the dashboard uses (product spec section 9). One place, so a reader can
 * check them against the spec line by line.
 */

// --- prices ------------------------------------------------------------------------------------------------
// The price list and the quote arithmetic are the kernel's (@tyres/kernel PRICE_LIST and priceQuote, issue 13): the
// same the booking service quotes and billing invoices from. See ./estimate.

// The calendar (time slots, Perth dates), the services, payment methods and tyre quantities are the kernel's
// (@tyres/kernel: the booking contract and calendar the booking service uses).

// --- jobs -------------------------------------------------------------------------------------------------
export const JOB_STATUSES = ['new', 'in-progress', 'completed', 'invoiced', 'paid'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number] | 'cancelled';
/** Statuses from which the jobs tab offers "Create Invoice". */
export const INVOICEABLE_STATUSES: readonly JobStatus[] = ['completed', 'invoiced', 'paid'];
/** The schedule screen's own vocabulary and its filter. */
export const SCHEDULE_FILTER_STATUSES = ['pending', 'confirmed', 'in_progress', 'completed'] as const;
export type ScheduleStatus = (typeof SCHEDULE_FILTER_STATUSES)[number] | 'cancelled';
/** Addresses in lists: cut at 30 characters on phones, 20 in the desktop table. */
export const ADDRESS_MAX_MOBILE = 30;
export const ADDRESS_MAX_DESKTOP = 20;
/** The SMS offered when work starts gives an ETA this many minutes from now. */
export const EN_ROUTE_ETA_MINUTES = 30;
/** Page size of the jobs and schedule lists (the jobs service allows up to 100). */
export const JOBS_PAGE_SIZE = 25;

// --- invoices ---------------------------------------------------------------------------------------------
export const CUSTOMER_INVOICE_STATUSES = ['draft', 'sent', 'paid', 'overdue', 'cancelled'] as const;
export type CustomerInvoiceStatus = (typeof CUSTOMER_INVOICE_STATUSES)[number];
/** The categories staff choose from for a line. */
export const LINE_ITEM_CATEGORIES = ['callout', 'tyre', 'labour', 'battery', 'note'] as const;
export type LineItemCategory = (typeof LINE_ITEM_CATEGORIES)[number];
/** The card surcharge line billing adds to a prepaid booking's invoice: shown, never chosen or edited. */
export const SURCHARGE_CATEGORY = 'surcharge';
export type InvoiceLineCategory = LineItemCategory | typeof SURCHARGE_CATEGORY;
export const DEFAULT_LINE_ITEM_CATEGORY: LineItemCategory = 'labour';
export const DEFAULT_INVOICE_STATUS: CustomerInvoiceStatus = 'draft';
export const INVOICE_DUE_DAYS = 30;
/** Due-date badges: 7 days or fewer red, 14 or fewer yellow. */
export const DUE_SOON_RED_DAYS = 7;
export const DUE_SOON_YELLOW_DAYS = 14;
/** The invoice list refetches every 30 s. */
export const INVOICE_LIST_REFRESH_MS = 30_000;
export const INVOICES_PAGE_SIZE = 50;

// --- expenses ---------------------------------------------------------------------------------------------
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
/** The expense form offers every category but cost-of-goods-sold (that is for purchase invoices). */
export const EXPENSE_FORM_CATEGORIES = EXPENSE_CATEGORIES.filter((c) => c !== 'cost-of-goods-sold');
export const DEFAULT_EXPENSE_CATEGORY: ExpenseCategory = 'admin';
export const PURCHASE_INVOICE_CATEGORY: ExpenseCategory = 'cost-of-goods-sold';

// --- address suggestions ------------------------------------------------------------------------------------
export const ADDRESS_MIN_CHARS = 3;
export const ADDRESS_DEBOUNCE_MS = 300;
export const ADDRESS_MAX_SUGGESTIONS = 5;

// --- live notifications ---------------------------------------------------------------------------------------
export const NOTIFICATIONS_MAX = 10;
export const NOTIFICATIONS_VISIBLE = 3;
export const NOTIFICATION_AUTO_DISMISS_MS = 10_000;
export const NOTIFICATION_PING_MS = 30_000;
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;
export const RECONNECT_MAX_ATTEMPTS = 5;
