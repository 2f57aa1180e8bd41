import type { Db, Tx } from './client';
import type { BusinessExpense, Prisma } from './generated/client';

/** Business expense queries; the GST split and events are src/app/expenses.ts's. */

export interface ExpenseFilters {
  category?: string;
  isPaid?: boolean;
}

/** Newest expense date first. */
export function listExpenses(db: Db, filters: ExpenseFilters): Promise<BusinessExpense[]> {
  return db.businessExpense.findMany({
    where: {
      ...(filters.category ? { category: filters.category } : {}),
      ...(filters.isPaid !== undefined ? { isPaid: filters.isPaid } : {}),
    },
    orderBy: [{ expenseDate: 'desc' }, { createdAt: 'desc' }],
  });
}

export async function findExpense(db: Db, id: string): Promise<BusinessExpense | undefined> {
  return (await db.businessExpense.findUnique({ where: { id } })) ?? undefined;
}

export function insertExpense(
  tx: Tx,
  data: Prisma.BusinessExpenseUncheckedCreateInput,
): Promise<BusinessExpense> {
  return tx.businessExpense.create({ data });
}

/** Locks the row for the rest of the transaction. */
export async function lockExpense(tx: Tx, id: string): Promise<BusinessExpense | undefined> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "billing"."business_expenses" WHERE "id" = ${id}::uuid FOR UPDATE`;
  if (rows.length === 0) return undefined;
  return (await tx.businessExpense.findUnique({ where: { id } })) ?? undefined;
}

export function updateExpense(
  tx: Tx,
  id: string,
  data: Prisma.BusinessExpenseUpdateInput,
): Promise<BusinessExpense> {
  return tx.businessExpense.update({ where: { id }, data });
}

export async function deleteExpense(tx: Tx, id: string): Promise<void> {
  await tx.businessExpense.delete({ where: { id } });
}
