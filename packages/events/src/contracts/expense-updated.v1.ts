import { z } from 'zod';
import { defineContract } from '../envelope';
import { ExpenseSnapshotV1 } from './expense-recorded.v1';

/** billing -> reporting. The full expense after the change (mark-paid included) plus the changed fields. */
export const ExpenseUpdatedV1Data = ExpenseSnapshotV1.extend({
  changedFields: z.array(z.string().min(1)).default([]),
});
export type ExpenseUpdatedV1Data = z.infer<typeof ExpenseUpdatedV1Data>;

export const ExpenseUpdatedV1 = defineContract({
  type: 'expense.updated.v1',
  name: 'ExpenseUpdated',
  version: 1,
  schema: ExpenseUpdatedV1Data,
});
