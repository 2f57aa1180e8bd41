import { z } from 'zod';
import { defineContract } from '../envelope';
import { actorId, id, isoDateTime } from './common';

/** billing -> reporting, jobs. */
export const PurchaseInvoiceDeletedV1Data = z.object({
  purchaseInvoiceId: id,
  jobId: id.nullable(),
  invoiceNumber: z.string().min(1).max(100),
  deletedBy: actorId,
  deletedAt: isoDateTime,
});
export type PurchaseInvoiceDeletedV1Data = z.infer<typeof PurchaseInvoiceDeletedV1Data>;

export const PurchaseInvoiceDeletedV1 = defineContract({
  type: 'purchase-invoice.deleted.v1',
  name: 'PurchaseInvoiceDeleted',
  version: 1,
  schema: PurchaseInvoiceDeletedV1Data,
});
