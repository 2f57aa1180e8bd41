import { CustomerInvoiceDeleted, CustomerInvoiceIssued, CustomerInvoiceUpdated } from '@tyres/events';
import {
  badRequest,
  conflict,
  forbidden,
  isUniqueViolation,
  notFound,
  violatedConstraint,
  type Identity,
} from '@tyres/service-kit';
import { INVOICE_DUE_DAYS, type CustomerInvoiceStatus, type LineItemCategory } from '../domain/constants';
import { addDays, fromDbDateOrNull, perthDate, toDbDate, type IsoDate } from '../domain/dates';
import { buildInvoiceLines, type ServiceType } from '../domain/invoice-lines';
import { formatInvoiceNumber } from '../domain/invoice-number';
import { statusTimestamps } from '../domain/invoice-status';
import {
  Decimal,
  fitsMoneyColumn,
  gstOnTop,
  invoiceTotals,
  lineTotal,
  totalsFit,
  type InvoiceTotals,
} from '../domain/money';
import type { EventWriter } from '../events/emit';
import { invoiceSnapshot, type InvoiceWithJobAndItems } from '../events/snapshots';
import { TX_OPTIONS, type Db, type Tx } from './client';
import type { Prisma } from './generated/client';
import { canSeeJob, findVisibleJob } from './jobs';

export const INVOICE_NUMBER_SERIES = 'customer_invoice';
const ACTIVE_JOB_INDEX = 'customer_invoices_active_job_key';
const WITH_JOB_AND_ITEMS = {
  job: true,
  items: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] },
} satisfies Prisma.CustomerInvoiceInclude;

export interface InvoiceListFilters {
  status?: CustomerInvoiceStatus;
  search?: string;
  jobId?: string;
  limit: number;
  offset: number;
}

export interface CreateInvoiceInput {
  jobId: string;
  status: CustomerInvoiceStatus;
  invoiceDate: IsoDate | null;
  dueDate: IsoDate;
  subtotalAmount?: Decimal;
}

export interface UpdateInvoiceInput {
  status?: CustomerInvoiceStatus;
  invoiceDate?: IsoDate;
  dueDate?: IsoDate;
  subtotalAmount?: Decimal;
}

export interface ItemInput {
  description: string;
  category: LineItemCategory;
  quantity: number;
  unitPrice: Decimal;
}

type Causation = { id: string; correlationId: string };

/** Shown when a line total or the invoice total (GST on top) would not fit a Decimal(10,2) column. */
export const AMOUNT_TOO_LARGE = 'Amount is too large';

function assertTotalsFit(totals: InvoiceTotals): InvoiceTotals {
  if (!totalsFit(totals)) throw badRequest(AMOUNT_TOO_LARGE, undefined, 'amount_too_large');
  return totals;
}

function checkedLineTotal(quantity: number, unitPrice: Decimal): Decimal {
  const total = lineTotal(quantity, unitPrice);
  if (!fitsMoneyColumn(total)) throw badRequest(AMOUNT_TOO_LARGE, undefined, 'amount_too_large');
  return total;
}

/** Item changes a technician may make: on their own job's invoice while it is still a draft. */
function assertItemsEditable(identity: Identity, invoice: { status: string }): void {
  if (identity.role !== 'admin' && invoice.status !== 'draft') {
    throw forbidden('Only an admin can change the line items of an invoice that is no longer a draft');
  }
}

/**
 * Customer invoices: numbering, totals and the events, each change in one transaction with its outbox row.
 * Reads and writes are scoped: admins see every invoice, technicians the invoices of jobs assigned to them.
 */
export class CustomerInvoiceRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventWriter,
    /** Nudges the outbox relay once a transaction that wrote events has committed. */
    private readonly afterCommit: () => void,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.db.$transaction(fn, TX_OPTIONS);
    this.afterCommit();
    return result;
  }

  /** The next number of the gap-free series; the row stays locked until the caller's transaction ends. */
  private async nextInvoiceNumber(tx: Tx): Promise<string> {
    const rows = await tx.$queryRaw<{ last_value: bigint }[]>`
      UPDATE "billing"."number_series" SET "last_value" = "last_value" + 1
      WHERE "name" = ${INVOICE_NUMBER_SERIES} RETURNING "last_value"`;
    const value = rows[0]?.last_value;
    if (value === undefined)
      throw new Error(`number series ${INVOICE_NUMBER_SERIES} is missing (migrations not applied?)`);
    return formatInvoiceNumber(value);
  }

  private async activeInvoiceConflict(jobId: string): Promise<never | void> {
    const existing = await this.db.customerInvoice.findFirst({
      where: { jobId, status: { not: 'cancelled' } },
      select: { id: true, invoiceNumber: true },
    });
    if (existing) throw this.duplicateFor(existing);
  }

  private duplicateFor(existing?: { id: string; invoiceNumber: string }) {
    return conflict(
      existing
        ? `An invoice (${existing.invoiceNumber}) already exists for this job`
        : 'An invoice already exists for this job',
      existing ? { invoiceId: existing.id, invoiceNumber: existing.invoiceNumber } : undefined,
      'invoice_exists',
    );
  }

  private async onActiveJobRace(err: unknown, jobId: string): Promise<never> {
    const constraint = violatedConstraint(err);
    if (
      isUniqueViolation(err) &&
      (constraint === undefined || constraint.includes(ACTIVE_JOB_INDEX) || constraint.includes('job_id'))
    ) {
      const existing = await this.db.customerInvoice.findFirst({
        where: { jobId, status: { not: 'cancelled' } },
        select: { id: true, invoiceNumber: true },
      });
      throw this.duplicateFor(existing ?? undefined);
    }
    throw err;
  }

  // --- reads -------------------------------------------------------------------------------------------------

  /**
   * The invoice management list: one page (newest first) of invoices with their job, as the JSON array the API
   * answers, plus the number of matches. Built by Postgres in one round trip (json_build_object, same fields and
   * rules as `invoiceDto`; a test keeps the two identical): the list is polled every 30 s by every open dashboard,
   * and mapping 100 rows × 50 columns through the ORM costs several times the CPU.
   */
  async list(filters: InvoiceListFilters): Promise<{ json: string; total: number }> {
    const params: unknown[] = [perthDate(this.clock())];
    const today = '$1::date';
    const param = (value: unknown, cast = '') => {
      params.push(value);
      return `$${params.length}${cast}`;
    };
    const overdue = `(i."status" = 'overdue' OR (i."status" IN ('draft', 'sent') AND i."due_date" < ${today}))`;
    const where: string[] = [];
    if (filters.jobId) where.push(`i."job_id" = ${param(filters.jobId, '::uuid')}`);
    if (filters.status === 'overdue') where.push(overdue);
    else if (filters.status) where.push(`i."status" = ${param(filters.status)} AND NOT ${overdue}`);
    const search = filters.search?.trim();
    let matches = '';
    if (search) {
      // Invoice number, job number or customer name contains the text (case-insensitive, wildcards literal). Written
      // as a union of per-table matches so each side uses its trigram index (pg_trgm GIN, migration
      // invoice_search_trigram_indexes): an OR across the join scans and joins every invoice. Computed once (CTE)
      // for the count and the page.
      const like = param(`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      matches = `WITH "matches" AS (
        SELECT s."id" FROM "billing"."customer_invoices" s WHERE s."invoice_number" ILIKE ${like}
        UNION
        SELECT s."id" FROM "billing"."job_snapshots" sj JOIN "billing"."customer_invoices" s ON s."job_id" = sj."job_id"
        WHERE sj."job_number" ILIKE ${like} OR sj."customer_name" ILIKE ${like})`;
      where.push(`i."id" IN (SELECT "id" FROM "matches")`);
    }
    const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const from = `FROM "billing"."customer_invoices" i JOIN "billing"."job_snapshots" j ON j."job_id" = i."job_id" ${whereSql}`;
    // Every invoice has its job (foreign key): the count does not need the join.
    const countFrom = `FROM "billing"."customer_invoices" i ${whereSql}`;
    const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    const sql = `${matches}
      SELECT (SELECT count(*)::int ${countFrom}) AS "total",
             (SELECT coalesce(json_agg(p."dto" ORDER BY p."created_at" DESC, p."id" DESC), '[]'::json)::text FROM (
                SELECT i."created_at", i."id", json_build_object(
                  'id', i."id", 'jobId', i."job_id", 'invoiceNumber', i."invoice_number",
                  'status', CASE WHEN ${overdue} THEN 'overdue' ELSE i."status" END,
                  'isOverdue', ${overdue},
                  'daysUntilDue', i."due_date" - ${today},
                  'invoiceDate', to_char(i."invoice_date", 'YYYY-MM-DD'),
                  'dueDate', to_char(i."due_date", 'YYYY-MM-DD'),
                  'subtotalAmount', i."subtotal_amount"::text, 'gstAmount', i."gst_amount"::text,
                  'totalAmount', i."total_amount"::text, 'pdfPath', i."pdf_path",
                  'sentAt', ${iso('i."sent_at"')}, 'paidAt', ${iso('i."paid_at"')},
                  'createdAt', ${iso('i."created_at"')}, 'updatedAt', ${iso('i."updated_at"')},
                  'jobNumber', j."job_number", 'customerName', j."customer_name",
                  'job', json_build_object(
                    'id', j."job_id", 'jobNumber', j."job_number", 'status', j."status", 'serviceType', j."service_type",
                    'scheduledDate', to_char(j."scheduled_date", 'YYYY-MM-DD'), 'timeSlot', j."time_slot",
                    'address', j."address", 'suburb', j."suburb", 'postcode', j."postcode",
                    'customerValue', j."customer_value"::text, 'assignedTechnicianId', j."assigned_technician_id",
                    'customer', json_build_object('name', j."customer_name", 'email', j."customer_email", 'phone', j."customer_phone"),
                    'vehicle', json_build_object('make', j."vehicle_make", 'model', j."vehicle_model", 'year', j."vehicle_year",
                                                 'color', j."vehicle_color", 'registration', j."vehicle_registration"))
                ) AS "dto"
                ${from}
                ORDER BY i."created_at" DESC, i."id" DESC
                LIMIT ${param(filters.limit, '::int')} OFFSET ${param(filters.offset, '::int')}
             ) p) AS "json"`;
    const [row] = await this.db.$queryRawUnsafe<{ total: number; json: string }[]>(sql, ...params);
    return { json: row?.json ?? '[]', total: Number(row?.total ?? 0) };
  }

  /** The invoice if the identity may see it. */
  async get(id: string, identity: Identity): Promise<InvoiceWithJobAndItems | undefined> {
    const invoice = await this.db.customerInvoice.findUnique({ where: { id }, include: WITH_JOB_AND_ITEMS });
    return invoice && canSeeJob(identity, invoice.job) ? invoice : undefined;
  }

  /** The invoices of a job (newest first), or undefined when the job is unknown or not the identity's. */
  async listForJob(jobId: string, identity: Identity): Promise<InvoiceWithJobAndItems[] | undefined> {
    const job = await findVisibleJob(this.db, jobId, identity);
    if (!job) return undefined;
    return this.db.customerInvoice.findMany({
      where: { jobId },
      include: WITH_JOB_AND_ITEMS,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  // --- creation ----------------------------------------------------------------------------------------------

  /** "Generate Invoice": the invoice built from the job, numbered, draft, due in 30 days. */
  async generate(jobId: string, identity: Identity): Promise<InvoiceWithJobAndItems> {
    const job = await findVisibleJob(this.db, jobId, identity);
    if (!job || job.deletedAt) throw notFound('Job not found');
    if (job.status === 'cancelled')
      throw conflict('A cancelled job cannot be invoiced', undefined, 'job_cancelled');
    await this.activeInvoiceConflict(jobId);

    const lines = buildInvoiceLines({
      serviceType: job.serviceType as ServiceType,
      tyreSize: job.tyreSize,
      tyreQuantity: job.tyreQuantity,
      tyreBrand: job.tyreBrand,
      customerValue: job.customerValue,
      paymentMethod: job.paymentMethod,
      paymentStatus: job.paymentStatus,
    });
    const totals = invoiceTotals(lines.map((l) => l.totalPrice));
    const now = this.clock();
    const invoiceDate = perthDate(now);
    try {
      return await this.transaction(async (tx) => {
        const invoiceNumber = await this.nextInvoiceNumber(tx);
        const invoice = await tx.customerInvoice.create({
          data: {
            jobId,
            invoiceNumber,
            invoiceDate: toDbDate(invoiceDate),
            dueDate: toDbDate(addDays(invoiceDate, INVOICE_DUE_DAYS)),
            status: 'draft',
            ...totals,
            createdBy: identity.id,
            items: {
              create: lines.map((l, position) => ({
                description: l.description,
                category: l.category,
                quantity: l.quantity,
                unitPrice: l.unitPrice,
                totalPrice: l.totalPrice,
                position,
              })),
            },
          },
          include: WITH_JOB_AND_ITEMS,
        });
        await this.events.emit(tx, CustomerInvoiceIssued, {
          ...invoiceSnapshot(invoice, now),
          issuedAt: now.toISOString(),
        });
        return invoice;
      });
    } catch (err) {
      return this.onActiveJobRace(err, jobId);
    }
  }

  /** The new-invoice page: an invoice for a job with the page's totals; its line items follow one call each. */
  async create(input: CreateInvoiceInput, identity: Identity): Promise<InvoiceWithJobAndItems> {
    const job = await findVisibleJob(this.db, input.jobId, identity);
    if (!job || job.deletedAt) throw notFound('Job not found');
    if (input.status !== 'cancelled') await this.activeInvoiceConflict(input.jobId);
    const now = this.clock();
    const totals = assertTotalsFit(gstOnTop(input.subtotalAmount ?? 0));
    const stamps = statusTimestamps({ status: 'draft', paidAt: null, sentAt: null }, input.status, now);
    try {
      return await this.transaction(async (tx) => {
        const invoiceNumber = await this.nextInvoiceNumber(tx);
        const invoice = await tx.customerInvoice.create({
          data: {
            jobId: input.jobId,
            invoiceNumber,
            invoiceDate: toDbDate(input.invoiceDate ?? perthDate(now)),
            dueDate: toDbDate(input.dueDate),
            status: input.status,
            ...totals,
            ...stamps,
            createdBy: identity.id,
          },
          include: WITH_JOB_AND_ITEMS,
        });
        await this.events.emit(tx, CustomerInvoiceIssued, {
          ...invoiceSnapshot(invoice, now),
          issuedAt: now.toISOString(),
        });
        return invoice;
      });
    } catch (err) {
      return this.onActiveJobRace(err, input.jobId);
    }
  }

  // --- changes -----------------------------------------------------------------------------------------------

  /** Locks the invoice row for the rest of the transaction (item changes and totals never interleave). */
  private async lockVisible(
    tx: Tx,
    id: string,
    identity: Identity,
  ): Promise<InvoiceWithJobAndItems | undefined> {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "billing"."customer_invoices" WHERE "id" = ${id}::uuid FOR UPDATE`;
    if (locked.length === 0) return undefined;
    const invoice = await tx.customerInvoice.findUnique({ where: { id }, include: WITH_JOB_AND_ITEMS });
    return invoice && canSeeJob(identity, invoice.job) ? invoice : undefined;
  }

  private async saveAndEmit(
    tx: Tx,
    id: string,
    data: Prisma.CustomerInvoiceUpdateInput,
    changedFields: string[],
    causation?: Causation,
  ): Promise<InvoiceWithJobAndItems> {
    const updated = await tx.customerInvoice.update({
      where: { id },
      data: { ...data, revision: { increment: 1 } },
      include: WITH_JOB_AND_ITEMS,
    });
    await this.events.emit(
      tx,
      CustomerInvoiceUpdated,
      { ...invoiceSnapshot(updated, this.clock()), changedFields },
      causation,
    );
    return updated;
  }

  /** Field edits (edit dialog) or `{status}` (bulk). Totals follow the line items when the invoice has any. */
  async update(id: string, patch: UpdateInvoiceInput, identity: Identity): Promise<InvoiceWithJobAndItems> {
    try {
      return await this.transaction(async (tx) => {
        const invoice = await this.lockVisible(tx, id, identity);
        if (!invoice) throw notFound('Invoice not found');
        const now = this.clock();
        const data: Prisma.CustomerInvoiceUpdateInput = {};
        const changed: string[] = [];
        if (patch.status !== undefined && patch.status !== invoice.status) {
          const stamps = statusTimestamps(
            invoice as { status: CustomerInvoiceStatus; paidAt: Date | null; sentAt: Date | null },
            patch.status,
            now,
          );
          data.status = patch.status;
          changed.push('status');
          if (stamps.paidAt?.getTime() !== invoice.paidAt?.getTime()) {
            data.paidAt = stamps.paidAt;
            changed.push('paidAt');
          }
          if (stamps.sentAt?.getTime() !== invoice.sentAt?.getTime()) {
            data.sentAt = stamps.sentAt;
            changed.push('sentAt');
          }
        }
        if (patch.dueDate !== undefined && patch.dueDate !== fromDbDateOrNull(invoice.dueDate)) {
          data.dueDate = toDbDate(patch.dueDate);
          changed.push('dueDate');
        }
        if (patch.invoiceDate !== undefined && patch.invoiceDate !== fromDbDateOrNull(invoice.invoiceDate)) {
          data.invoiceDate = toDbDate(patch.invoiceDate);
          changed.push('invoiceDate');
        }
        // With line items the totals are theirs (recomputed on every item change); without, the page's subtotal
        // is taken and GST/total derived from it on the server.
        if (patch.subtotalAmount !== undefined && invoice.items.length === 0) {
          const totals = assertTotalsFit(gstOnTop(patch.subtotalAmount));
          if (
            !totals.totalAmount.eq(invoice.totalAmount) ||
            !totals.subtotalAmount.eq(invoice.subtotalAmount)
          ) {
            Object.assign(data, totals);
            changed.push('subtotalAmount', 'gstAmount', 'totalAmount');
          }
        }
        if (changed.length === 0) return invoice;
        return this.saveAndEmit(tx, id, data, changed);
      });
    } catch (err) {
      if (
        isUniqueViolation(err, ACTIVE_JOB_INDEX) ||
        (isUniqueViolation(err) && violatedConstraint(err) === undefined)
      ) {
        throw conflict('Another active invoice exists for this job', undefined, 'invoice_exists');
      }
      throw err;
    }
  }

  async remove(id: string, identity: Identity): Promise<void> {
    await this.transaction(async (tx) => {
      const invoice = await this.lockVisible(tx, id, identity);
      if (!invoice) throw notFound('Invoice not found');
      await tx.customerInvoice.delete({ where: { id } });
      await this.events.emit(tx, CustomerInvoiceDeleted, {
        invoiceId: invoice.id,
        invoiceNumber: invoice.invoiceNumber,
        jobId: invoice.jobId,
        deletedBy: identity.id,
        deletedAt: this.clock().toISOString(),
      });
    });
  }

  // --- line items (totals recomputed on the server after every change) ---------------------------------------

  private async refreshTotals(tx: Tx, invoiceId: string): Promise<InvoiceWithJobAndItems> {
    const items = await tx.customerInvoiceItem.findMany({
      where: { customerInvoiceId: invoiceId },
      select: { totalPrice: true },
    });
    const totals = assertTotalsFit(invoiceTotals(items.map((i) => i.totalPrice)));
    return this.saveAndEmit(tx, invoiceId, totals, ['items', 'subtotalAmount', 'gstAmount', 'totalAmount']);
  }

  async addItem(invoiceId: string, input: ItemInput, identity: Identity) {
    return this.transaction(async (tx) => {
      const invoice = await this.lockVisible(tx, invoiceId, identity);
      if (!invoice) throw notFound('Invoice must be saved first');
      assertItemsEditable(identity, invoice);
      const position = invoice.items.reduce((max, i) => Math.max(max, i.position + 1), 0);
      const item = await tx.customerInvoiceItem.create({
        data: {
          customerInvoiceId: invoiceId,
          description: input.description,
          category: input.category,
          quantity: input.quantity,
          unitPrice: input.unitPrice,
          totalPrice: checkedLineTotal(input.quantity, input.unitPrice),
          position,
        },
      });
      return { item, invoice: await this.refreshTotals(tx, invoiceId) };
    });
  }

  async updateItem(invoiceId: string, itemId: string, patch: Partial<ItemInput>, identity: Identity) {
    return this.transaction(async (tx) => {
      const invoice = await this.lockVisible(tx, invoiceId, identity);
      if (!invoice) throw notFound('Invoice not found');
      const current = invoice.items.find((i) => i.id === itemId);
      if (!current) throw notFound('Line item not found');
      assertItemsEditable(identity, invoice);
      const quantity = patch.quantity ?? current.quantity;
      const unitPrice = patch.unitPrice ?? new Decimal(current.unitPrice);
      const item = await tx.customerInvoiceItem.update({
        where: { id: itemId },
        data: {
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.category !== undefined ? { category: patch.category } : {}),
          quantity,
          unitPrice,
          totalPrice: checkedLineTotal(quantity, unitPrice),
        },
      });
      return { item, invoice: await this.refreshTotals(tx, invoiceId) };
    });
  }

  async removeItem(invoiceId: string, itemId: string, identity: Identity) {
    return this.transaction(async (tx) => {
      const invoice = await this.lockVisible(tx, invoiceId, identity);
      if (!invoice) throw notFound('Invoice not found');
      if (!invoice.items.some((i) => i.id === itemId)) throw notFound('Line item not found');
      assertItemsEditable(identity, invoice);
      await tx.customerInvoiceItem.delete({ where: { id: itemId } });
      return { invoice: await this.refreshTotals(tx, invoiceId) };
    });
  }

  // --- changes driven by workers and events ------------------------------------------------------------------

  /** The email worker delivered the invoice: sentAt now, and status sent unless it is already paid/cancelled. */
  async markSent(invoiceId: string, at: Date): Promise<InvoiceWithJobAndItems | undefined> {
    return this.transaction(async (tx) => {
      const invoice = await this.lockVisible(tx, invoiceId, {
        id: 'system',
        username: 'system',
        role: 'admin',
      });
      if (!invoice) return undefined;
      const data: Prisma.CustomerInvoiceUpdateInput = { sentAt: at };
      const changed = ['sentAt'];
      if (invoice.status === 'draft' || invoice.status === 'overdue') {
        data.status = 'sent';
        changed.push('status');
      }
      return this.saveAndEmit(tx, invoiceId, data, changed);
    });
  }

  /** The job was marked paid in the jobs service: its open invoice becomes paid (inside the handler's transaction). */
  async markPaidForJob(tx: Tx, jobId: string, at: Date, causation: Causation): Promise<boolean> {
    const open = await tx.customerInvoice.findFirst({
      where: { jobId, status: { in: ['draft', 'sent', 'overdue'] } },
      select: { id: true },
    });
    if (!open) return false;
    await tx.$queryRaw`SELECT "id" FROM "billing"."customer_invoices" WHERE "id" = ${open.id}::uuid FOR UPDATE`;
    await this.saveAndEmit(tx, open.id, { status: 'paid', paidAt: at }, ['status', 'paidAt'], causation);
    return true;
  }
}
