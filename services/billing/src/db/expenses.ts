import { ExpenseDeleted, ExpenseRecorded, ExpenseUpdated } from '@tyres/events';
import { notFound, type Identity } from '@tyres/service-kit';
import type { ExpenseCategory } from '../domain/constants';
import { fromDbDateOrNull, toDbDate, type IsoDate } from '../domain/dates';
import { gstInclusive, type Decimal } from '../domain/money';
import type { EventWriter } from '../events/emit';
import { expenseSnapshot } from '../events/snapshots';
import { TX_OPTIONS, type Db, type Tx } from './client';
import type { BusinessExpense, Prisma } from './generated/client';

export interface ExpenseInput {
  supplierName: string;
  invoiceNumber: string | null;
  description: string;
  amount: Decimal;
  category: ExpenseCategory;
  expenseDate: IsoDate;
  dueDate: IsoDate | null;
  isPaid: boolean;
  notes: string | null;
}

export type ExpensePatch = Partial<ExpenseInput>;

export interface ExpenseFilters {
  category?: ExpenseCategory;
  isPaid?: boolean;
}

/** Business expenses (admin only). `amount` includes GST; GST = amount / 11 to the cent, computed here. */
export class ExpenseRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventWriter,
    private readonly afterCommit: () => void,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.db.$transaction(fn, TX_OPTIONS);
    this.afterCommit();
    return result;
  }

  list(filters: ExpenseFilters): Promise<BusinessExpense[]> {
    return this.db.businessExpense.findMany({
      where: {
        ...(filters.category ? { category: filters.category } : {}),
        ...(filters.isPaid !== undefined ? { isPaid: filters.isPaid } : {}),
      },
      orderBy: [{ expenseDate: 'desc' }, { createdAt: 'desc' }],
    });
  }

  get(id: string): Promise<BusinessExpense | null> {
    return this.db.businessExpense.findUnique({ where: { id } });
  }

  async create(input: ExpenseInput, identity: Identity): Promise<BusinessExpense> {
    const split = gstInclusive(input.amount);
    const now = this.clock();
    return this.transaction(async (tx) => {
      const created = await tx.businessExpense.create({
        data: {
          supplierName: input.supplierName,
          invoiceNumber: input.invoiceNumber,
          description: input.description,
          amount: split.totalAmount,
          gstAmount: split.gstAmount,
          category: input.category,
          expenseDate: toDbDate(input.expenseDate),
          dueDate: input.dueDate ? toDbDate(input.dueDate) : null,
          isPaid: input.isPaid,
          paidAt: input.isPaid ? now : null,
          notes: input.notes,
          createdBy: identity.id,
        },
      });
      await this.events.emit(tx, ExpenseRecorded, {
        ...expenseSnapshot(created),
        recordedAt: now.toISOString(),
      });
      return created;
    });
  }

  private async lock(tx: Tx, id: string): Promise<BusinessExpense | undefined> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "billing"."business_expenses" WHERE "id" = ${id}::uuid FOR UPDATE`;
    if (rows.length === 0) return undefined;
    return (await tx.businessExpense.findUnique({ where: { id } })) ?? undefined;
  }

  async update(id: string, patch: ExpensePatch): Promise<BusinessExpense> {
    return this.transaction(async (tx) => {
      const current = await this.lock(tx, id);
      if (!current) throw notFound('Expense not found');
      const now = this.clock();
      const data: Prisma.BusinessExpenseUpdateInput = {};
      const changed: string[] = [];
      const set = <K extends keyof Prisma.BusinessExpenseUpdateInput>(
        field: K,
        value: Prisma.BusinessExpenseUpdateInput[K],
      ) => {
        data[field] = value;
        changed.push(field);
      };
      if (patch.supplierName !== undefined && patch.supplierName !== current.supplierName)
        set('supplierName', patch.supplierName);
      if (patch.invoiceNumber !== undefined && patch.invoiceNumber !== current.invoiceNumber)
        set('invoiceNumber', patch.invoiceNumber);
      if (patch.description !== undefined && patch.description !== current.description)
        set('description', patch.description);
      if (patch.category !== undefined && patch.category !== current.category)
        set('category', patch.category);
      if (patch.notes !== undefined && patch.notes !== current.notes) set('notes', patch.notes);
      if (patch.expenseDate !== undefined && patch.expenseDate !== fromDbDateOrNull(current.expenseDate))
        set('expenseDate', toDbDate(patch.expenseDate));
      if (patch.dueDate !== undefined && patch.dueDate !== fromDbDateOrNull(current.dueDate))
        set('dueDate', patch.dueDate ? toDbDate(patch.dueDate) : null);
      if (patch.amount !== undefined && !patch.amount.eq(current.amount)) {
        const split = gstInclusive(patch.amount);
        set('amount', split.totalAmount);
        set('gstAmount', split.gstAmount);
      }
      if (patch.isPaid !== undefined && patch.isPaid !== current.isPaid) {
        set('isPaid', patch.isPaid);
        set('paidAt', patch.isPaid ? now : null);
      }
      if (changed.length === 0) return current;
      const updated = await tx.businessExpense.update({ where: { id }, data });
      await this.events.emit(tx, ExpenseUpdated, { ...expenseSnapshot(updated), changedFields: changed });
      return updated;
    });
  }

  /** Mark Paid: unpaid to paid (paidAt now). Marking a paid expense again changes nothing. */
  markPaid(id: string): Promise<BusinessExpense> {
    return this.update(id, { isPaid: true });
  }

  async remove(id: string, identity: Identity): Promise<void> {
    await this.transaction(async (tx) => {
      const current = await this.lock(tx, id);
      if (!current) throw notFound('Expense not found');
      await tx.businessExpense.delete({ where: { id } });
      await this.events.emit(tx, ExpenseDeleted, {
        expenseId: id,
        deletedBy: identity.id,
        deletedAt: this.clock().toISOString(),
      });
    });
  }
}
