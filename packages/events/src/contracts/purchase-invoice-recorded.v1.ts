import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDate, isoDateTime, money, purchaseCategory } from './common';

/**
 * A supplier invoice as it stands (snapshot). Amounts: `totalAmount` includes GST, `gstAmount` = total / 11,
 * `subtotal` = total - GST. Payables reports use `dueDate`, `isPaid`, `paidAt`; `updatedAt` orders snapshots.
 */
export const PurchaseInvoiceSnapshotV1 = z.object({
  purchaseInvoiceId: id,
  /** The job the parts were bought for; null for stock purchases. */
  jobId: id.nullable(),
  invoiceNumber: z.string().min(1).max(100),
  supplierName: z.string().min(1).max(200),
  invoiceDate: isoDate,
  dueDate: isoDate.nullable(),
  subtotal: money,
  gstAmount: money,
  totalAmount: money,
  category: purchaseCategory,
  isPaid: z.boolean(),
  paidAt: isoDateTime.nullable(),
  updatedAt: isoDateTime,
});

/** billing -> reporting (GST paid, payables, P&L costs), jobs (purchase cost and profit on the job). */
export const PurchaseInvoiceRecordedV1Data = PurchaseInvoiceSnapshotV1.extend({
  recordedAt: isoDateTime,
});
export type PurchaseInvoiceRecordedV1Data = z.infer<typeof PurchaseInvoiceRecordedV1Data>;

export const PurchaseInvoiceRecordedV1 = defineContract({
  type: 'purchase-invoice.recorded.v1',
  name: 'PurchaseInvoiceRecorded',
  version: 1,
  schema: PurchaseInvoiceRecordedV1Data,
});
