import { ExpenseDeleted, ExpenseRecorded, ExpenseUpdated } from '@tyres/events';
import { dateFromDb, dateToDb, formatMoney, perthDate, splitInclusive, type Cents } from '@tyres/kernel';
import { notFound, type Identity } from '@tyres/service-kit';
import type { Db } from '../db/client';
import {
  deleteExpense,
  findExpense,
  insertExpense,
  listExpenses,
  lockExpense,
  updateExpense,
  type ExpenseFilters,
} from '../db/expenses';
import type { BusinessExpense, Prisma } from '../db/generated/client';
import type { ExpenseCategory } from '../domain/constants';
import type { IsoDate } from '../domain/dates';
import { centsOf } from '../domain/money';
import { expenseSnapshot } from '../events/builders';
import { checkAccountingDates } from './accounting-dates';
import type { EventWriter } from './outbox';
import type { Transactions } from './transactions';

export type { ExpenseFilters } from '../db/expenses';

export interface ExpenseInput {
  supplierName: string;
  invoiceNumber: string | null;
  description: string;
  /** Including GST (if any). */
  amount: Cents;
  /** The supply carried no GST (GST 0.00). */
  gstFree: boolean;
  category: ExpenseCategory;
  expenseDate: IsoDate;
  dueDate: IsoDate | null;
  isPaid: boolean;
  notes: string | null;
}

export type ExpensePatch = Partial<ExpenseInput>;

const NOT_FOUND = 'Expense not found';

/**
 * Business expenses (admin only; the routes and the gateway check it). `amount` includes GST; GST = amount ÷ 11 to
 * the cent (kernel splitInclusive), or none when the expense is marked GST-free, computed here.
 */
export class Expenses {
  constructor(
    private readonly deps: { db: Db; transactions: Transactions; events: EventWriter; clock: () => Date },
  ) {}

  private today(): IsoDate {
    return perthDate(this.deps.clock());
  }

  list(filters: ExpenseFilters): Promise<BusinessExpense[]> {
    return listExpenses(this.deps.db, filters);
  }

  async get(id: string): Promise<BusinessExpense> {
    const expense = await findExpense(this.deps.db, id);
    if (!expense) throw notFound(NOT_FOUND);
    return expense;
  }

  create(input: ExpenseInput, identity: Identity): Promise<BusinessExpense> {
    checkAccountingDates({ expenseDate: input.expenseDate, dueDate: input.dueDate }, this.today());
    const split = splitInclusive(input.amount, input.gstFree);
    const now = this.deps.clock();
    return this.deps.transactions.run(async (tx) => {
      const created = await insertExpense(tx, {
        supplierName: input.supplierName,
        invoiceNumber: input.invoiceNumber,
        description: input.description,
        amount: formatMoney(split.total),
        gstAmount: formatMoney(split.gst),
        gstFree: input.gstFree,
        category: input.category,
        expenseDate: dateToDb(input.expenseDate),
        dueDate: input.dueDate ? dateToDb(input.dueDate) : null,
        isPaid: input.isPaid,
        paidAt: input.isPaid ? now : null,
        notes: input.notes,
        createdBy: identity.id,
      });
      await this.deps.events.emit(tx, ExpenseRecorded, {
        ...expenseSnapshot(created),
        recordedAt: now.toISOString(),
      });
      return created;
    });
  }

  update(id: string, patch: ExpensePatch): Promise<BusinessExpense> {
    return this.deps.transactions.run(async (tx) => {
      const current = await lockExpense(tx, id);
      if (!current) throw notFound(NOT_FOUND);
      checkAccountingDates({ expenseDate: patch.expenseDate, dueDate: patch.dueDate }, this.today());
      const now = this.deps.clock();
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
      if (patch.expenseDate !== undefined && patch.expenseDate !== dateFromDb(current.expenseDate))
        set('expenseDate', dateToDb(patch.expenseDate));
      if (patch.dueDate !== undefined && patch.dueDate !== (current.dueDate && dateFromDb(current.dueDate)))
        set('dueDate', patch.dueDate ? dateToDb(patch.dueDate) : null);
      const amount = patch.amount ?? centsOf(current.amount);
      const gstFree = patch.gstFree ?? current.gstFree;
      if (gstFree !== current.gstFree) set('gstFree', gstFree);
      if (amount !== centsOf(current.amount) || gstFree !== current.gstFree) {
        const split = splitInclusive(amount, gstFree);
        set('amount', formatMoney(split.total));
        set('gstAmount', formatMoney(split.gst));
      }
      if (patch.isPaid !== undefined && patch.isPaid !== current.isPaid) {
        set('isPaid', patch.isPaid);
        set('paidAt', patch.isPaid ? now : null);
      }
      if (changed.length === 0) return current;
      const updated = await updateExpense(tx, id, data);
      await this.deps.events.emit(tx, ExpenseUpdated, {
        ...expenseSnapshot(updated),
        changedFields: changed,
      });
      return updated;
    });
  }

  /** Mark Paid: unpaid to paid (paidAt now). Marking a paid expense again changes nothing. */
  markPaid(id: string): Promise<BusinessExpense> {
    return this.update(id, { isPaid: true });
  }

  async remove(id: string, identity: Identity): Promise<void> {
    await this.deps.transactions.run(async (tx) => {
      const current = await lockExpense(tx, id);
      if (!current) throw notFound(NOT_FOUND);
      await deleteExpense(tx, id);
      await this.deps.events.emit(tx, ExpenseDeleted, {
        expenseId: id,
        deletedBy: identity.id,
        deletedAt: this.deps.clock().toISOString(),
      });
    });
  }
}
