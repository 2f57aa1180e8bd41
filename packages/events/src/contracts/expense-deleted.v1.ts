import { z } from 'zod';
import { defineContract } from '../envelope';
import { actorId, id, isoDateTime } from './common';

/** billing -> reporting. */
export const ExpenseDeletedV1Data = z.object({
  expenseId: id,
  deletedBy: actorId,
  deletedAt: isoDateTime,
});
export type ExpenseDeletedV1Data = z.infer<typeof ExpenseDeletedV1Data>;

export const ExpenseDeletedV1 = defineContract({
  type: 'expense.deleted.v1',
  name: 'ExpenseDeleted',
  version: 1,
  schema: ExpenseDeletedV1Data,
});
