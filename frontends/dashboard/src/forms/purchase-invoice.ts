import { z } from 'zod';
import { totalIncGstField } from './money-field';

/** Add/edit purchase invoice dialog (job detail). Category is always cost-of-goods-sold on create. */
export const purchaseInvoiceSchema = z.object({
  invoiceNumber: z.string().trim().min(1, 'Invoice number is required'),
  supplierName: z.string().trim().min(1, 'Supplier name is required'),
  invoiceDate: z.string().min(1, 'Invoice date is required'),
  totalIncGst: totalIncGstField,
  /** A purchase with no GST in it (e.g. from a supplier not registered for GST). */
  gstFree: z.boolean(),
});
export type PurchaseInvoiceValues = z.infer<typeof purchaseInvoiceSchema>;
