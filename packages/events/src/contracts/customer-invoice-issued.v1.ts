import { z } from 'zod';
import { defineContract } from '../envelope';
import { customerInvoiceStatus, id, isoDate, isoDateTime, lineItemCategory, money } from './common';

export const CustomerInvoiceItemV1 = z.object({
  id,
  description: z.string().min(1).max(1000),
  category: lineItemCategory,
  quantity: z.int().min(0),
  unitPrice: money,
  totalPrice: money,
});

/**
 * The whole invoice as it stands (a snapshot), so projections can upsert it. GST reports group by `invoiceDate`
 * and `status`; the P&L groups `items` by category. `updatedAt` orders snapshots: apply only newer ones.
 */
export const CustomerInvoiceSnapshotV1 = z.object({
  invoiceId: id,
  invoiceNumber: z.string().min(1).max(50),
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  customerName: z.string().min(1).max(200),
  status: customerInvoiceStatus,
  invoiceDate: isoDate,
  dueDate: isoDate.nullable(),
  /** Sum of line items (ex GST). */
  subtotalAmount: money,
  /** 10% of the subtotal, added on top. */
  gstAmount: money,
  totalAmount: money,
  items: z.array(CustomerInvoiceItemV1),
  sentAt: isoDateTime.nullable(),
  paidAt: isoDateTime.nullable(),
  updatedAt: isoDateTime,
});

/** billing -> reporting (GST, P&L), jobs (job moves to invoiced), notify. */
export const CustomerInvoiceIssuedV1Data = CustomerInvoiceSnapshotV1.extend({
  issuedAt: isoDateTime,
});
export type CustomerInvoiceIssuedV1Data = z.infer<typeof CustomerInvoiceIssuedV1Data>;

export const CustomerInvoiceIssuedV1 = defineContract({
  type: 'customer-invoice.issued.v1',
  name: 'CustomerInvoiceIssued',
  version: 1,
  schema: CustomerInvoiceIssuedV1Data,
});
