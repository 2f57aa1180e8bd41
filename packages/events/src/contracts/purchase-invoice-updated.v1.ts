import { z } from 'zod';
import { defineContract } from '../envelope';
import { PurchaseInvoiceSnapshotV1 } from './purchase-invoice-recorded.v1';

/** billing -> reporting, jobs. The full invoice after the change plus the changed top-level fields. */
export const PurchaseInvoiceUpdatedV1Data = PurchaseInvoiceSnapshotV1.extend({
  changedFields: z.array(z.string().min(1)).default([]),
});
export type PurchaseInvoiceUpdatedV1Data = z.infer<typeof PurchaseInvoiceUpdatedV1Data>;

export const PurchaseInvoiceUpdatedV1 = defineContract({
  type: 'purchase-invoice.updated.v1',
  name: 'PurchaseInvoiceUpdated',
  version: 1,
  schema: PurchaseInvoiceUpdatedV1Data,
});
