/**
 * Building blocks shared by the event payloads. Values follow the product spec (sections 3, 4, 7 and 9).
 * Ids are UUIDs (every service generates UUID primary keys), dates are `YYYY-MM-DD` in business time
 * (Australia/Perth), instants are ISO-8601 date-times and money is a 2-decimal string (see `money`).
 */
import { z } from 'zod';
import {
  CUSTOMER_INVOICE_STATUSES,
  EXPENSE_CATEGORIES,
  INVOICE_LINE_CATEGORIES,
  JOB_STATUSES,
  LINE_ITEM_CATEGORIES,
  SERVICE_TYPES,
  TIME_SLOT_LABELS,
  type ServiceType,
  type TimeSlot,
} from '@tyres/kernel';

export { money } from '../money';

export const id = z.uuid();
/** A calendar date, `YYYY-MM-DD` (business time zone Australia/Perth). */
export const isoDate = z.iso.date();
/** An instant, ISO-8601 with `Z` or an offset (e.g. `new Date().toISOString()`). */
export const isoDateTime = z.iso.datetime({ offset: true });

// The business's services and slots are the kernel's (written once); a change there is a contract change here.
export const serviceType = z.enum(SERVICE_TYPES as unknown as [ServiceType, ...ServiceType[]]);
export type { ServiceType, TimeSlot };

export const timeSlot = z.enum(TIME_SLOT_LABELS as [TimeSlot, ...TimeSlot[]]);

export const paymentMethod = z.enum(['onsite', 'prepaid']);
export type PaymentMethod = z.infer<typeof paymentMethod>;

export const paymentStatus = z.enum(['pending', 'paid', 'failed', 'refunded']);
export type PaymentStatus = z.infer<typeof paymentStatus>;

/**
 * Job status as stored by the jobs service (the dashboard vocabulary) plus `cancelled` (a cancelled job frees
 * its slot). The schedule view's labels (pending, confirmed, in_progress...) are a presentation mapping.
 */
export const jobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatus>;

export const userRole = z.enum(['admin', 'technician']);
export type UserRole = z.infer<typeof userRole>;

// The statuses and categories below are the kernel's lists (written once): a change there is a contract change here.
export const customerInvoiceStatus = z.enum(CUSTOMER_INVOICE_STATUSES);
export type CustomerInvoiceStatus = z.infer<typeof customerInvoiceStatus>;

export const lineItemCategory = z.enum(LINE_ITEM_CATEGORIES);
export type LineItemCategory = z.infer<typeof lineItemCategory>;

export const expenseCategory = z.enum(EXPENSE_CATEGORIES);
export type ExpenseCategory = z.infer<typeof expenseCategory>;

/** Purchase invoices use the expense categories (always cost-of-goods-sold when created from a job). */
export const purchaseCategory = expenseCategory;

export const customer = z.object({
  name: z.string().min(1).max(200),
  email: z.email(),
  phone: z.string().min(1).max(50),
});
export type Customer = z.infer<typeof customer>;

export const vehicle = z.object({
  make: z.string().min(1).max(100),
  model: z.string().min(1).max(100),
  year: z.int().min(1900).max(2100),
  color: z.string().max(50).nullable().optional(),
  registration: z.string().min(1).max(20),
});
export type Vehicle = z.infer<typeof vehicle>;

/** A (date, time slot) pair: what a reservation holds. */
export const slot = z.object({ scheduledDate: isoDate, timeSlot });
export type Slot = z.infer<typeof slot>;

/** The user who made a change, or null for system/customer actions. */
export const actorId = id.nullable();

/** Line item categories of a customer invoice from contract v2 on: the spec's five plus the card surcharge. */
export const lineItemCategoryV2 = z.enum(INVOICE_LINE_CATEGORIES);
export type LineItemCategoryV2 = z.infer<typeof lineItemCategoryV2>;

/** How an invoice's line amounts relate to GST (Xero/MYOB "tax inclusive" / "tax exclusive"). */
export const invoiceAmountType = z.enum(['inclusive', 'exclusive']);
export type InvoiceAmountType = z.infer<typeof invoiceAmountType>;
