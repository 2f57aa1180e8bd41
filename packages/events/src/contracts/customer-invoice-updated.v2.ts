import { z } from 'zod';
import { defineContract } from '../envelope';
import { CustomerInvoiceSnapshotV2 } from './customer-invoice-issued.v2';

/**
 * billing -> reporting, jobs (status paid -> job paid). The full invoice after the change (v2 snapshot: amount
 * type, GST-free lines, surcharge category) plus which top-level fields changed.
 */
export const CustomerInvoiceUpdatedV2Data = CustomerInvoiceSnapshotV2.extend({
  changedFields: z.array(z.string().min(1)).default([]),
});
export type CustomerInvoiceUpdatedV2Data = z.infer<typeof CustomerInvoiceUpdatedV2Data>;

export const CustomerInvoiceUpdatedV2 = defineContract({
  type: 'customer-invoice.updated.v2',
  name: 'CustomerInvoiceUpdated',
  version: 2,
  schema: CustomerInvoiceUpdatedV2Data,
});
