import { z } from 'zod';
import { EXPENSE_CATEGORIES } from '../lib/constants';
import { totalIncGstField } from './money-field';

/** Add/edit business expense dialog (spec section 5 "Invoices and expenses"). */
export const expenseSchema = z.object({
  supplierName: z.string().trim().min(1, 'Supplier name is required'),
  invoiceNumber: z.string().trim(),
  description: z.string().trim().min(1, 'Description is required'),
  category: z
    .string()
    .min(1, 'Category is required')
    .refine((c) => (EXPENSE_CATEGORIES as readonly string[]).includes(c), 'Category is required'),
  expenseDate: z
    .string()
    .nullable()
    .refine((v) => Boolean(v), 'Expense date is required'),
  totalIncGst: totalIncGstField,
  dueDate: z.string().nullable(),
  isPaid: z.boolean(),
  notes: z.string(),
  /** An expense with no GST in it (e.g. bank fees, insurance stamp duty). */
  gstFree: z.boolean(),
});
export type ExpenseValues = z.infer<typeof expenseSchema>;
