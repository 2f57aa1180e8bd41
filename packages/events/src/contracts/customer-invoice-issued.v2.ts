import { z } from 'zod';
import { defineContract } from '../envelope';
import {
  customerInvoiceStatus,
  id,
  invoiceAmountType,
  isoDate,
  isoDateTime,
  lineItemCategoryV2,
  money,
} from './common';

/**
 * v2 (issue 12, "prices include GST"): an invoice says whether its line amounts include GST (`amountType`), lines
 * may be GST-free, the card surcharge has its own category, and a prepaid booking's invoice names the payment.
 * Why a new version: v1 consumers read `subtotalAmount` + 10% as the rule and know no `surcharge` category.
 */
export const CustomerInvoiceItemV2 = z.object({
  id,
  description: z.string().min(1).max(1000),
  category: lineItemCategoryV2,
  quantity: z.int().min(0),
  /** Inclusive of GST when the invoice's amountType is `inclusive`, exclusive otherwise. */
  unitPrice: money,
  totalPrice: money,
  /** The line carries no GST. */
  gstFree: z.boolean(),
});

/**
 * The whole invoice as it stands (a snapshot), so projections can upsert it. Whatever the amount type:
 * `subtotalAmount` is the ex-GST amount (total − GST), `gstAmount` the GST in it, `totalAmount` what the customer
 * pays. Tax inclusive: total = sum of lines, GST = taxable lines ÷ 11. Tax exclusive: subtotal = sum of lines,
 * GST = 10% of the taxable lines, added on top. `updatedAt` orders snapshots: apply only newer ones.
 */
export const CustomerInvoiceSnapshotV2 = z.object({
  invoiceId: id,
  invoiceNumber: z.string().min(1).max(50),
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  customerName: z.string().min(1).max(200),
  status: customerInvoiceStatus,
  amountType: invoiceAmountType,
  invoiceDate: isoDate,
  dueDate: isoDate.nullable(),
  subtotalAmount: money,
  gstAmount: money,
  totalAmount: money,
  items: z.array(CustomerInvoiceItemV2),
  /** The Stripe payment that paid this invoice at booking (prepaid bookings), if any. */
  paymentIntentId: z.string().min(1).max(255).nullable(),
  sentAt: isoDateTime.nullable(),
  paidAt: isoDateTime.nullable(),
  updatedAt: isoDateTime,
});
export type CustomerInvoiceSnapshotV2 = z.infer<typeof CustomerInvoiceSnapshotV2>;

/** billing -> reporting (GST, P&L), jobs (job moves to invoiced), notify. */
export const CustomerInvoiceIssuedV2Data = CustomerInvoiceSnapshotV2.extend({
  issuedAt: isoDateTime,
});
export type CustomerInvoiceIssuedV2Data = z.infer<typeof CustomerInvoiceIssuedV2Data>;

export const CustomerInvoiceIssuedV2 = defineContract({
  type: 'customer-invoice.issued.v2',
  name: 'CustomerInvoiceIssued',
  version: 2,
  schema: CustomerInvoiceIssuedV2Data,
});
