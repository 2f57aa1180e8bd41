import { z } from 'zod';
import { defineContract } from '../envelope';
import { CustomerInvoiceSnapshotV1 } from './customer-invoice-issued.v1';

/**
 * billing -> reporting, jobs (status paid -> job paid). Carries the full invoice after the change (fields,
 * status, line items) plus which top-level fields changed.
 */
export const CustomerInvoiceUpdatedV1Data = CustomerInvoiceSnapshotV1.extend({
  changedFields: z.array(z.string().min(1)).default([]),
});
export type CustomerInvoiceUpdatedV1Data = z.infer<typeof CustomerInvoiceUpdatedV1Data>;

export const CustomerInvoiceUpdatedV1 = defineContract({
  type: 'customer-invoice.updated.v1',
  name: 'CustomerInvoiceUpdated',
  version: 1,
  schema: CustomerInvoiceUpdatedV1Data,
});
