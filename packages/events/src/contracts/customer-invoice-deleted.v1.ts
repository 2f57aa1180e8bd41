import { z } from 'zod';
import { defineContract } from '../envelope';
import { actorId, id, isoDateTime } from './common';

/** billing -> reporting (drop the facts), jobs. */
export const CustomerInvoiceDeletedV1Data = z.object({
  invoiceId: id,
  invoiceNumber: z.string().min(1).max(50),
  jobId: id,
  deletedBy: actorId,
  deletedAt: isoDateTime,
});
export type CustomerInvoiceDeletedV1Data = z.infer<typeof CustomerInvoiceDeletedV1Data>;

export const CustomerInvoiceDeletedV1 = defineContract({
  type: 'customer-invoice.deleted.v1',
  name: 'CustomerInvoiceDeleted',
  version: 1,
  schema: CustomerInvoiceDeletedV1Data,
});
