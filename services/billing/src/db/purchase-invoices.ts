import { PurchaseInvoiceDeleted, PurchaseInvoiceRecorded, PurchaseInvoiceUpdated } from '@tyres/events';
import { notFound, type Identity } from '@tyres/service-kit';
import { PURCHASE_INVOICE_CATEGORY } from '../domain/constants';
import { fromDbDateOrNull, perthDate, toDbDate, type IsoDate } from '../domain/dates';
import { gstInclusive, type Decimal } from '../domain/money';
import type { EventWriter } from '../events/emit';
import { purchaseSnapshot } from '../events/snapshots';
import { TX_OPTIONS, type Db, type Tx } from './client';
import type { Prisma, PurchaseInvoice } from './generated/client';
import { canSeeJob, findVisibleJob } from './jobs';

export interface CreatePurchaseInput {
  jobId: string;
  invoiceNumber: string;
  supplierName: string;
  invoiceDate: IsoDate | null;
  totalAmount: Decimal;
  dueDate: IsoDate | null;
  isPaid: boolean;
  paidAt: Date | null;
  notes: string | null;
}

export interface UpdatePurchaseInput {
  invoiceNumber?: string;
  supplierName?: string;
  invoiceDate?: IsoDate;
  totalAmount?: Decimal;
  dueDate?: IsoDate | null;
  isPaid?: boolean;
  paidAt?: Date | null;
  notes?: string | null;
}

/**
 * Supplier invoices recorded against a job (job detail dialog). Category is always cost-of-goods-sold; GST is the
 * GST-inclusive total / 11 and the subtotal total − GST, computed here whatever the client sent.
 */
export class PurchaseInvoiceRepository {
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

  async listForJob(jobId: string, identity: Identity): Promise<PurchaseInvoice[] | undefined> {
    const job = await findVisibleJob(this.db, jobId, identity);
    if (!job) return undefined;
    return this.db.purchaseInvoice.findMany({
      where: { jobId },
      orderBy: [{ invoiceDate: 'desc' }, { createdAt: 'desc' }],
    });
  }

  async create(input: CreatePurchaseInput, identity: Identity): Promise<PurchaseInvoice> {
    const job = await findVisibleJob(this.db, input.jobId, identity);
    if (!job || job.deletedAt) throw notFound('Job not found');
    const split = gstInclusive(input.totalAmount);
    const now = this.clock();
    return this.transaction(async (tx) => {
      const created = await tx.purchaseInvoice.create({
        data: {
          jobId: input.jobId,
          invoiceNumber: input.invoiceNumber,
          supplierName: input.supplierName,
          invoiceDate: toDbDate(input.invoiceDate ?? perthDate(now)),
          totalAmount: split.totalAmount,
          gstAmount: split.gstAmount,
          subtotal: split.exGstAmount,
          category: PURCHASE_INVOICE_CATEGORY,
          dueDate: input.dueDate ? toDbDate(input.dueDate) : null,
          isPaid: input.isPaid,
          paidAt: input.isPaid ? (input.paidAt ?? now) : null,
          notes: input.notes,
          createdBy: identity.id,
        },
      });
      await this.events.emit(tx, PurchaseInvoiceRecorded, {
        ...purchaseSnapshot(created),
        recordedAt: now.toISOString(),
      });
      return created;
    });
  }

  private async lockVisible(tx: Tx, id: string, identity: Identity): Promise<PurchaseInvoice | undefined> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "billing"."purchase_invoices" WHERE "id" = ${id}::uuid FOR UPDATE`;
    if (rows.length === 0) return undefined;
    const invoice = await tx.purchaseInvoice.findUnique({ where: { id } });
    if (!invoice) return undefined;
    if (identity.role === 'admin') return invoice;
    const job = invoice.jobId ? await tx.jobSnapshot.findUnique({ where: { jobId: invoice.jobId } }) : null;
    return job && canSeeJob(identity, job) ? invoice : undefined;
  }

  async update(id: string, patch: UpdatePurchaseInput, identity: Identity): Promise<PurchaseInvoice> {
    return this.transaction(async (tx) => {
      const current = await this.lockVisible(tx, id, identity);
      if (!current) throw notFound('Purchase invoice not found');
      const now = this.clock();
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
      if (patch.invoiceDate !== undefined && patch.invoiceDate !== fromDbDateOrNull(current.invoiceDate))
        set('invoiceDate', toDbDate(patch.invoiceDate));
      if (patch.dueDate !== undefined && patch.dueDate !== fromDbDateOrNull(current.dueDate))
        set('dueDate', patch.dueDate ? toDbDate(patch.dueDate) : null);
      if (patch.notes !== undefined && patch.notes !== current.notes) set('notes', patch.notes);
      if (patch.totalAmount !== undefined && !patch.totalAmount.eq(current.totalAmount)) {
        const split = gstInclusive(patch.totalAmount);
        set('totalAmount', split.totalAmount);
        set('gstAmount', split.gstAmount);
        set('subtotal', split.exGstAmount);
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
      const updated = await tx.purchaseInvoice.update({ where: { id }, data });
      await this.events.emit(tx, PurchaseInvoiceUpdated, {
        ...purchaseSnapshot(updated),
        changedFields: changed,
      });
      return updated;
    });
  }

  async remove(id: string, identity: Identity): Promise<void> {
    await this.transaction(async (tx) => {
      const current = await this.lockVisible(tx, id, identity);
      if (!current) throw notFound('Purchase invoice not found');
      await tx.purchaseInvoice.delete({ where: { id } });
      await this.events.emit(tx, PurchaseInvoiceDeleted, {
        purchaseInvoiceId: current.id,
        jobId: current.jobId,
        invoiceNumber: current.invoiceNumber,
        deletedBy: identity.id,
        deletedAt: this.clock().toISOString(),
      });
    });
  }
}
