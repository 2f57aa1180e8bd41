import type {
  BusinessExpense,
  CustomerInvoice,
  CustomerInvoiceItem,
  EmailDelivery,
  JobSnapshot,
  PurchaseInvoice,
  Refund,
} from '../db/generated/client';
import {
  CUSTOMER_INVOICE_STATUSES,
  EXPENSE_CATEGORIES,
  LINE_ITEM_CATEGORIES,
  type CustomerInvoiceStatus,
} from '../domain/constants';
import { AMOUNT_TYPES, dateFromDb, daysBetween, JOB_STATUSES, MONEY_PATTERN } from '@tyres/kernel';
import { z } from 'zod';
import type { IsoDate } from '../domain/dates';
import { effectiveStatus } from '../domain/invoice-status';
import { moneyString } from '../domain/money';

/** Shapes on the wire (spec section 3 "Shapes used by screens"): money as 2-decimal strings, dates YYYY-MM-DD. */

export function jobSummary(job: JobSnapshot) {
  return {
    id: job.jobId,
    jobNumber: job.jobNumber,
    status: job.status,
    serviceType: job.serviceType,
    scheduledDate: dateFromDb(job.scheduledDate),
    timeSlot: job.timeSlot,
    address: job.address,
    suburb: job.suburb,
    postcode: job.postcode,
    customerValue: moneyString(job.customerValue),
    assignedTechnicianId: job.assignedTechnicianId,
    customer: { name: job.customerName, email: job.customerEmail, phone: job.customerPhone },
    vehicle: {
      make: job.vehicleMake,
      model: job.vehicleModel,
      year: job.vehicleYear,
      color: job.vehicleColor,
      registration: job.vehicleRegistration,
    },
  };
}

export function itemDto(item: CustomerInvoiceItem) {
  return {
    id: item.id,
    customerInvoiceId: item.customerInvoiceId,
    description: item.description,
    category: item.category,
    quantity: item.quantity,
    unitPrice: moneyString(item.unitPrice),
    totalPrice: moneyString(item.totalPrice),
    gstFree: item.gstFree,
  };
}

export function invoiceDto(
  invoice: CustomerInvoice & { job: JobSnapshot; items?: CustomerInvoiceItem[] },
  today: IsoDate,
  options: { items?: boolean } = {},
) {
  const dueDate = invoice.dueDate && dateFromDb(invoice.dueDate);
  const status = effectiveStatus(invoice.status as CustomerInvoiceStatus, dueDate, today);
  return {
    id: invoice.id,
    jobId: invoice.jobId,
    invoiceNumber: invoice.invoiceNumber,
    status,
    isOverdue: status === 'overdue',
    daysUntilDue: dueDate ? daysBetween(today, dueDate) : null,
    invoiceDate: dateFromDb(invoice.invoiceDate),
    dueDate,
    subtotalAmount: moneyString(invoice.subtotalAmount),
    gstAmount: moneyString(invoice.gstAmount),
    totalAmount: moneyString(invoice.totalAmount),
    amountType: invoice.amountType,
    paymentIntentId: invoice.paymentIntentId,
    pdfPath: invoice.pdfPath,
    sentAt: invoice.sentAt?.toISOString() ?? null,
    paidAt: invoice.paidAt?.toISOString() ?? null,
    createdAt: invoice.createdAt.toISOString(),
    updatedAt: invoice.updatedAt.toISOString(),
    jobNumber: invoice.job.jobNumber,
    customerName: invoice.job.customerName,
    job: jobSummary(invoice.job),
    ...(options.items ? { items: (invoice.items ?? []).map(itemDto) } : {}),
  };
}

export function purchaseDto(p: PurchaseInvoice) {
  return {
    id: p.id,
    jobId: p.jobId,
    invoiceNumber: p.invoiceNumber,
    supplierName: p.supplierName,
    invoiceDate: dateFromDb(p.invoiceDate),
    totalAmount: moneyString(p.totalAmount),
    gstAmount: moneyString(p.gstAmount),
    subtotal: moneyString(p.subtotal),
    gstFree: p.gstFree,
    category: p.category,
    dueDate: p.dueDate && dateFromDb(p.dueDate),
    isPaid: p.isPaid,
    paidAt: p.paidAt?.toISOString() ?? null,
    notes: p.notes,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function expenseDto(e: BusinessExpense) {
  return {
    id: e.id,
    supplierName: e.supplierName,
    invoiceNumber: e.invoiceNumber,
    description: e.description,
    amount: moneyString(e.amount),
    gstAmount: moneyString(e.gstAmount),
    gstFree: e.gstFree,
    category: e.category,
    expenseDate: dateFromDb(e.expenseDate),
    dueDate: e.dueDate && dateFromDb(e.dueDate),
    isPaid: e.isPaid,
    paidAt: e.paidAt?.toISOString() ?? null,
    notes: e.notes,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function emailDeliveryDto(d: EmailDelivery) {
  return {
    id: d.id,
    customerInvoiceId: d.customerInvoiceId,
    invoiceNumber: d.invoiceNumber,
    to: d.to,
    subject: d.subject,
    transport: d.transport,
    /** The local transport records the message instead of delivering it. */
    delivered: d.transport === 'smtp' && d.status === 'sent',
    status: d.status,
    messageId: d.messageId,
    error: d.error,
    attachments: d.attachments,
    createdAt: d.createdAt.toISOString(),
    sentAt: d.sentAt?.toISOString() ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The shapes above as zod, for the OpenAPI document (./openapi.ts) and the integration suites' response check.

/** Money on the wire: a decimal string with exactly two places (moneyString), e.g. "139.00". */
export const MoneySchema = z.string().regex(MONEY_PATTERN).meta({
  id: 'Money',
  description: 'A decimal amount in AUD with exactly two places, e.g. "139.00".',
  example: '139.00',
});

/** Postgres uuids; `guid` (any 8-4-4-4-12 hex) so ids minted by other services' tests are not refused. */
const Id = z.guid();
const Instant = z.iso.datetime().meta({ description: 'An instant, ISO-8601 UTC with milliseconds.' });
const PerthDate = z.iso.date().meta({ description: 'A Perth calendar date, YYYY-MM-DD.' });

export const InvoiceJobSchema = z
  .strictObject({
    id: Id,
    jobNumber: z.string(),
    status: z.enum(JOB_STATUSES),
    serviceType: z.string(),
    scheduledDate: PerthDate,
    timeSlot: z.string(),
    address: z.string(),
    suburb: z.string(),
    postcode: z.string(),
    customerValue: MoneySchema,
    assignedTechnicianId: Id.nullable(),
    customer: z.strictObject({ name: z.string(), email: z.string(), phone: z.string() }),
    vehicle: z.strictObject({
      make: z.string(),
      model: z.string(),
      year: z.number().int(),
      color: z.string().nullable(),
      registration: z.string(),
    }),
  })
  .meta({ id: 'InvoiceJob', description: "The invoice's job as billing knows it (jobSummary)." });

export const InvoiceItemSchema = z
  .strictObject({
    id: Id,
    customerInvoiceId: Id,
    description: z.string(),
    category: z.enum(LINE_ITEM_CATEGORIES),
    quantity: z.number().int(),
    unitPrice: MoneySchema,
    totalPrice: MoneySchema,
    gstFree: z.boolean(),
  })
  .meta({ id: 'CustomerInvoiceItem' });

const invoiceFields = {
  id: Id,
  jobId: Id,
  invoiceNumber: z.string().meta({ example: 'INV-000123' }),
  status: z
    .enum(CUSTOMER_INVOICE_STATUSES)
    .meta({ description: 'overdue is derived when read: a draft or sent invoice due before today (Perth).' }),
  isOverdue: z.boolean(),
  daysUntilDue: z.number().int().nullable(),
  invoiceDate: PerthDate,
  dueDate: PerthDate.nullable(),
  subtotalAmount: MoneySchema.meta({ description: 'Ex-GST (total − GST).' }),
  gstAmount: MoneySchema,
  totalAmount: MoneySchema.meta({ description: 'What the customer pays.' }),
  amountType: z.enum(AMOUNT_TYPES as ['inclusive', 'exclusive']),
  paymentIntentId: z.string().nullable(),
  pdfPath: z.string().nullable(),
  sentAt: Instant.nullable(),
  paidAt: Instant.nullable(),
  createdAt: Instant,
  updatedAt: Instant,
  jobNumber: z.string(),
  customerName: z.string(),
  job: InvoiceJobSchema,
};

/** The invoices list (built by Postgres in the same shape, without items). */
export const InvoiceSummarySchema = z
  .strictObject(invoiceFields)
  .meta({ id: 'CustomerInvoiceSummary', description: 'A customer invoice without its items (the list).' });

export const InvoiceSchema = z
  .strictObject({ ...invoiceFields, items: z.array(InvoiceItemSchema) })
  .meta({ id: 'CustomerInvoice', description: 'A customer invoice with its items.' });

export const PurchaseInvoiceSchema = z
  .strictObject({
    id: Id,
    jobId: Id.nullable().meta({
      description:
        'The job. Every purchase invoice made through this API has one, but the column allows none.',
    }),
    invoiceNumber: z.string(),
    supplierName: z.string(),
    invoiceDate: PerthDate,
    totalAmount: MoneySchema,
    gstAmount: MoneySchema,
    subtotal: MoneySchema,
    gstFree: z.boolean(),
    category: z.enum(EXPENSE_CATEGORIES).meta({ description: 'Always cost-of-goods-sold.' }),
    dueDate: PerthDate.nullable(),
    isPaid: z.boolean(),
    paidAt: Instant.nullable(),
    notes: z.string().nullable(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .meta({ id: 'PurchaseInvoice' });

export const ExpenseSchema = z
  .strictObject({
    id: Id,
    supplierName: z.string(),
    invoiceNumber: z.string().nullable(),
    description: z.string(),
    amount: MoneySchema.meta({ description: 'Including GST.' }),
    gstAmount: MoneySchema,
    gstFree: z.boolean(),
    category: z.enum(EXPENSE_CATEGORIES),
    expenseDate: PerthDate,
    dueDate: PerthDate.nullable(),
    isPaid: z.boolean(),
    paidAt: Instant.nullable(),
    notes: z.string().nullable(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .meta({ id: 'BusinessExpense' });

export const EmailDeliverySchema = z
  .strictObject({
    id: Id,
    customerInvoiceId: Id.nullable(),
    invoiceNumber: z.string(),
    to: z.string(),
    subject: z.string(),
    transport: z.enum(['smtp', 'local']),
    delivered: z
      .boolean()
      .meta({ description: 'False for the local transport, which records instead of sending.' }),
    status: z.enum(['sending', 'sent', 'failed']),
    messageId: z.string().nullable(),
    error: z.string().nullable(),
    attachments: z.array(
      z.strictObject({ filename: z.string(), contentType: z.string(), size: z.number().int() }),
    ),
    createdAt: Instant,
    sentAt: Instant.nullable(),
  })
  .meta({ id: 'EmailDelivery' });

/** A refund of a cancelled prepaid booking, as staff see it (issue 18). */
export function refundDto(r: Refund) {
  return {
    id: r.id,
    jobId: r.jobId,
    jobNumber: r.jobNumber,
    paymentIntentId: r.providerIntentId,
    amount: moneyString(r.amount),
    refundPercent: r.refundPercent,
    currency: r.currency,
    mode: r.mode as 'live' | 'test',
    status: r.status as 'requested' | 'pending' | 'succeeded' | 'failed',
    providerRefundId: r.providerRefundId,
    attempts: r.attempts,
    lastError: r.lastError,
    requestedAt: r.requestedAt.toISOString(),
    succeededAt: r.succeededAt?.toISOString() ?? null,
    failedAt: r.failedAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export const RefundSchema = z
  .strictObject({
    id: Id,
    jobId: Id,
    jobNumber: z.string(),
    paymentIntentId: z.string().meta({ description: 'The Stripe PaymentIntent refunded.' }),
    amount: MoneySchema.meta({ description: "What goes back to the card (the cancellation's final terms)." }),
    refundPercent: z.number().int().min(1).max(100),
    currency: z.string(),
    mode: z.enum(['live', 'test']).meta({ description: 'test: the labelled test mode, no money moves.' }),
    status: z.enum(['requested', 'pending', 'succeeded', 'failed']).meta({
      description:
        'requested: recorded, not yet accepted by Stripe; pending: Stripe accepted it; succeeded / failed: settled (failed after the last attempt or as Stripe reported; staff can retry).',
    }),
    providerRefundId: z.string().nullable(),
    attempts: z.number().int().min(0),
    lastError: z.string().nullable(),
    requestedAt: Instant,
    succeededAt: Instant.nullable(),
    failedAt: Instant.nullable(),
    updatedAt: Instant,
  })
  .meta({ id: 'Refund' });
