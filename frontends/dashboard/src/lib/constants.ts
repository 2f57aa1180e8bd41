/**
 * Business constants and limits the dashboard uses (product spec section 9). One place, so a reader can
 * check them against the spec line by line.
 */
import {
  CUSTOMER_INVOICE_STATUSES,
  EXPENSE_CATEGORIES,
  JOB_STATUSES as ALL_JOB_STATUSES,
  LINE_ITEM_CATEGORIES,
  SURCHARGE_CATEGORY,
  type CustomerInvoiceStatus,
  type ExpenseCategory,
  type InvoiceLineCategory,
  type JobStatus,
  type LineItemCategory,
} from '@tyres/kernel';

// The statuses and categories are the kernel's lists (@tyres/kernel vocabulary, issue 13): the same the services
// validate with and the event contracts carry.
export { CUSTOMER_INVOICE_STATUSES, EXPENSE_CATEGORIES, LINE_ITEM_CATEGORIES, SURCHARGE_CATEGORY };
export type { CustomerInvoiceStatus, ExpenseCategory, InvoiceLineCategory, JobStatus, LineItemCategory };

// --- prices ------------------------------------------------------------------------------------------------
// The price list and the quote arithmetic are the kernel's (@tyres/kernel PRICE_LIST and priceQuote, issue 13): the
// same the booking service quotes and billing invoices from. See ./estimate.

// The calendar (time slots, Perth dates), the services, payment methods and tyre quantities are the kernel's
// (@tyres/kernel: the booking contract and calendar the booking service uses).

// --- jobs -------------------------------------------------------------------------------------------------
/** The jobs tab's status filter: the spec's five statuses, every stored one but cancelled. */
export const JOB_STATUSES = ALL_JOB_STATUSES.filter(
  (s): s is Exclude<JobStatus, 'cancelled'> => s !== 'cancelled',
);
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
