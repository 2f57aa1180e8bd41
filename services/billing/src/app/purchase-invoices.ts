import { PurchaseInvoiceDeleted, PurchaseInvoiceRecorded, PurchaseInvoiceUpdated } from '@tyres/events';
import {
  dateFromDb,
  dateToDb,
  formatMoney,
  perthDate,
  splitInclusive,
  type Cents,
  type InclusiveSplit,
} from '@tyres/kernel';
import { notFound, type Identity } from '@tyres/service-kit';
import type { Db, Tx } from '../db/client';
import type { Prisma, PurchaseInvoice } from '../db/generated/client';
import { findJob } from '../db/jobs';
import {
  deletePurchaseInvoice,
  insertPurchaseInvoice,
  lockPurchaseInvoice,
  purchaseInvoicesOfJob,
  updatePurchaseInvoice,
} from '../db/purchase-invoices';
import { canSeeJob } from '../domain/access';
import { PURCHASE_INVOICE_CATEGORY } from '../domain/constants';
import type { IsoDate } from '../domain/dates';
import { centsOf } from '../domain/money';
import { purchaseSnapshot } from '../events/builders';
import { checkAccountingDates } from './accounting-dates';
import type { EventWriter } from './outbox';
import type { Transactions } from './transactions';

export interface CreatePurchaseInput {
  jobId: string;
  invoiceNumber: string;
  supplierName: string;
  invoiceDate: IsoDate | null;
  totalAmount: Cents;
  /** The supply carried no GST (GST 0.00, ex-GST = total). */
  gstFree: boolean;
  dueDate: IsoDate | null;
  isPaid: boolean;
  paidAt: Date | null;
  notes: string | null;
}

export interface UpdatePurchaseInput {
  invoiceNumber?: string;
  supplierName?: string;
  invoiceDate?: IsoDate;
  totalAmount?: Cents;
  gstFree?: boolean;
  dueDate?: IsoDate | null;
  isPaid?: boolean;
  paidAt?: Date | null;
  notes?: string | null;
}

const JOB_NOT_FOUND = 'Job not found';
const NOT_FOUND = 'Purchase invoice not found';

/** The amount columns of a supplier bill (kernel splitInclusive: GST = total ÷ 11, none when GST-free). */
const amountColumns = (split: InclusiveSplit) => ({
  totalAmount: formatMoney(split.total),
  gstAmount: formatMoney(split.gst),
  subtotal: formatMoney(split.exGst),
});

/**
 * Supplier invoices recorded against a job (job detail dialog). Admins: every job; technicians: the jobs assigned to
 * them. Category is always cost-of-goods-sold; GST is the GST-inclusive total / 11 (0 when marked GST-free) and the
 * subtotal total − GST, computed here whatever the client sent.
 */
export class PurchaseInvoices {
  constructor(
    private readonly deps: { db: Db; transactions: Transactions; events: EventWriter; clock: () => Date },
  ) {}

  private today(): IsoDate {
    return perthDate(this.deps.clock());
  }

  async listForJob(jobId: string, identity: Identity): Promise<PurchaseInvoice[]> {
    const job = await findJob(this.deps.db, jobId);
    if (!job || !canSeeJob(identity, job)) throw notFound(JOB_NOT_FOUND);
    return purchaseInvoicesOfJob(this.deps.db, jobId);
  }

  create(input: CreatePurchaseInput, identity: Identity): Promise<PurchaseInvoice> {
    const now = this.deps.clock();
    return this.deps.transactions.run(async (tx) => {
      const job = await findJob(tx, input.jobId);
      if (!job || !canSeeJob(identity, job) || job.deletedAt) throw notFound(JOB_NOT_FOUND);
      checkAccountingDates(
        {
          invoiceDate: input.invoiceDate,
          dueDate: input.dueDate,
          paidAt: input.isPaid && input.paidAt ? perthDate(input.paidAt) : undefined,
        },
        this.today(),
      );
      const split = splitInclusive(input.totalAmount, input.gstFree);
      const created = await insertPurchaseInvoice(tx, {
        jobId: input.jobId,
        invoiceNumber: input.invoiceNumber,
        supplierName: input.supplierName,
        invoiceDate: dateToDb(input.invoiceDate ?? perthDate(now)),
        ...amountColumns(split),
        gstFree: input.gstFree,
        category: PURCHASE_INVOICE_CATEGORY,
        dueDate: input.dueDate ? dateToDb(input.dueDate) : null,
        isPaid: input.isPaid,
        paidAt: input.isPaid ? (input.paidAt ?? now) : null,
        notes: input.notes,
        createdBy: identity.id,
      });
      await this.deps.events.emit(tx, PurchaseInvoiceRecorded, {
        ...purchaseSnapshot(created),
        recordedAt: now.toISOString(),
      });
      return created;
    });
  }

  /** Locks the purchase invoice if the identity may see it (an admin every one, a technician their jobs'). */
  private async lockVisible(tx: Tx, id: string, identity: Identity): Promise<PurchaseInvoice | undefined> {
    const invoice = await lockPurchaseInvoice(tx, id);
    if (!invoice) return undefined;
    if (identity.role === 'admin') return invoice;
    const job = invoice.jobId ? await findJob(tx, invoice.jobId) : undefined;
    return job && canSeeJob(identity, job) ? invoice : undefined;
  }

  update(id: string, patch: UpdatePurchaseInput, identity: Identity): Promise<PurchaseInvoice> {
    return this.deps.transactions.run(async (tx) => {
      const current = await this.lockVisible(tx, id, identity);
      if (!current) throw notFound(NOT_FOUND);
      checkAccountingDates(
        {
          invoiceDate: patch.invoiceDate,
          dueDate: patch.dueDate,
          paidAt: patch.paidAt ? perthDate(patch.paidAt) : undefined,
        },
        this.today(),
      );
      const now = this.deps.clock();
      const data: Prisma.PurchaseInvoiceUpdateInput = {};
      const changed: string[] = [];
      const set = <K extends keyof Prisma.PurchaseInvoiceUpdateInput>(
        field: K,
        value: Prisma.PurchaseInvoiceUpdateInput[K],
      ) => {
        data[field] = value;
        changed.push(field);
      };
      if (patch.invoiceNumber !== undefined && patch.invoiceNumber !== current.invoiceNumber)
        set('invoiceNumber', patch.invoiceNumber);
      if (patch.supplierName !== undefined && patch.supplierName !== current.supplierName)
        set('supplierName', patch.supplierName);
      if (patch.invoiceDate !== undefined && patch.invoiceDate !== dateFromDb(current.invoiceDate))
        set('invoiceDate', dateToDb(patch.invoiceDate));
      if (patch.dueDate !== undefined && patch.dueDate !== (current.dueDate && dateFromDb(current.dueDate)))
        set('dueDate', patch.dueDate ? dateToDb(patch.dueDate) : null);
      if (patch.notes !== undefined && patch.notes !== current.notes) set('notes', patch.notes);
      const total = patch.totalAmount ?? centsOf(current.totalAmount);
      const gstFree = patch.gstFree ?? current.gstFree;
      if (gstFree !== current.gstFree) set('gstFree', gstFree);
      if (total !== centsOf(current.totalAmount) || gstFree !== current.gstFree) {
        const columns = amountColumns(splitInclusive(total, gstFree));
        set('totalAmount', columns.totalAmount);
        set('gstAmount', columns.gstAmount);
        set('subtotal', columns.subtotal);
      }
      // Toggling paid sets paidAt to now (or the given paidAt), or back to null.
      if (patch.isPaid !== undefined && patch.isPaid !== current.isPaid) {
        set('isPaid', patch.isPaid);
        set('paidAt', patch.isPaid ? (patch.paidAt ?? now) : null);
      } else if (
        patch.paidAt !== undefined &&
        (patch.isPaid ?? current.isPaid) &&
        patch.paidAt?.getTime() !== current.paidAt?.getTime()
      ) {
        set('paidAt', patch.paidAt ?? now);
      }
      if (changed.length === 0) return current;
      const updated = await updatePurchaseInvoice(tx, id, data);
      await this.deps.events.emit(tx, PurchaseInvoiceUpdated, {
        ...purchaseSnapshot(updated),
        changedFields: changed,
      });
      return updated;
    });
  }

  async remove(id: string, identity: Identity): Promise<void> {
    await this.deps.transactions.run(async (tx) => {
      const current = await this.lockVisible(tx, id, identity);
      if (!current) throw notFound(NOT_FOUND);
      await deletePurchaseInvoice(tx, id);
      await this.deps.events.emit(tx, PurchaseInvoiceDeleted, {
        purchaseInvoiceId: current.id,
        jobId: current.jobId,
        invoiceNumber: current.invoiceNumber,
        deletedBy: identity.id,
        deletedAt: this.deps.clock().toISOString(),
      });
    });
  }
}
