import { z } from 'zod';
import { defineContract } from '../envelope';
import { expenseCategory, id, isoDate, isoDateTime, money } from './common';

/** A business expense as it stands (snapshot). `amount` includes GST; `gstAmount` = amount / 11. */
export const ExpenseSnapshotV1 = z.object({
  expenseId: id,
  expenseDate: isoDate,
  supplierName: z.string().min(1).max(200),
  invoiceNumber: z.string().max(100).nullable(),
  description: z.string().min(1).max(1000),
  amount: money,
  gstAmount: money,
  category: expenseCategory,
  dueDate: isoDate.nullable(),
  isPaid: z.boolean(),
  paidAt: isoDateTime.nullable(),
  updatedAt: isoDateTime,
});

/** billing -> reporting (GST paid, payables, P&L business expenses). */
export const ExpenseRecordedV1Data = ExpenseSnapshotV1.extend({
  recordedAt: isoDateTime,
});
export type ExpenseRecordedV1Data = z.infer<typeof ExpenseRecordedV1Data>;

export const ExpenseRecordedV1 = defineContract({
  type: 'expense.recorded.v1',
  name: 'ExpenseRecorded',
  version: 1,
  schema: ExpenseRecordedV1Data,
});
