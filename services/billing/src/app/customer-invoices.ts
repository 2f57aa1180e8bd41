import {
  CustomerInvoiceDeleted,
  CustomerInvoiceIssued,
  CustomerInvoiceUpdated,
  type Logger,
} from '@tyres/events';
import {
  addDays,
  cardSurchargeLine,
  dateFromDb,
  DEFAULT_CARD_SURCHARGE_BP,
  dateToDb,
  formatMoney,
  invoiceTotals,
  lineAmount,
  perthDate,
  type AmountType,
  type Cents,
  type InvoiceTotals,
  type SurchargeRate,
  type TaxLine,
} from '@tyres/kernel';
import { badRequest, conflict, forbidden, notFound, type Identity } from '@tyres/service-kit';
import type { Db, Tx } from '../db/client';
import {
  deleteInvoice,
  deleteItem,
  findActiveInvoice,
  findInvoice,
  findInvoiceOfPayment,
  insertInvoice,
  provisionalInvoiceNumber,
  setInvoiceNumber,
  insertItem,
  invoiceListPage,
  invoiceOfPayment,
  invoicesOfJob,
  itemAmounts,
  lockInvoice,
  lockJob,
  nextSeriesValue,
  openInvoiceIds,
  updateInvoice,
  updateItem,
  type InvoiceListFilters,
  type InvoiceWithJobAndItems,
} from '../db/customer-invoices';
import type { CustomerInvoiceItem, JobSnapshot, Prisma } from '../db/generated/client';
import { findJob } from '../db/jobs';
import { findPayment } from '../db/payments';
import { canSeeJob, mayEditItems, maySetInvoiceStatus } from '../domain/access';
import { checkAccountingDates } from './accounting-dates';
import { INVOICE_DUE_DAYS, type CustomerInvoiceStatus, type LineItemCategory } from '../domain/constants';
import type { IsoDate } from '../domain/dates';
import {
  buildInvoiceLines,
  parseJobQuote,
  prepaidInvoiceLines,
  type GeneratedLine,
  type JobForInvoice,
  type ServiceType,
} from '../domain/invoice-lines';
import type { CancellationInvoicePlan } from '../domain/cancellation';
import { formatInvoiceNumber } from '../domain/invoice-number';
import { invoiceFollowsEdit, linesDiffer } from '../domain/job-price-follow';
import { invoicePayment, rateOfPayment } from '../domain/pay-invoice';
import { allowsExtraInvoice, statusTimestamps } from '../domain/invoice-status';
import { centsOf, fitsMoneyColumn, totalsColumns, totalsFit } from '../domain/money';
import { invoiceSnapshot } from '../events/builders';
import type { EventWriter } from './outbox';
import type { Replied, Reply, Transactions } from './transactions';

export type { InvoiceWithJobAndItems } from '../db/customer-invoices';

export interface CreateInvoiceInput {
  jobId: string;
  status: CustomerInvoiceStatus;
  invoiceDate: IsoDate | null;
  dueDate: IsoDate;
  amountType: AmountType;
  /** Ex-GST amount of an invoice without line items yet (the page's subtotal). */
  subtotalAmount?: Cents;
}

export interface UpdateInvoiceInput {
  /** Sent back by the edit dialog: must stay the invoice's own job. */
  jobId?: string;
  status?: CustomerInvoiceStatus;
  invoiceDate?: IsoDate;
  dueDate?: IsoDate;
  amountType?: AmountType;
  subtotalAmount?: Cents;
}

export interface ItemInput {
  description: string;
  category: LineItemCategory;
  quantity: number;
  unitPrice: Cents;
  gstFree: boolean;
}

type Causation = { id: string; correlationId: string };

export const INVOICE_NOT_FOUND = 'Invoice not found';
export const JOB_NOT_FOUND = 'Job not found';
export const SAVE_INVOICE_FIRST = 'Invoice must be saved first';
/** Shown when a line total or an invoice amount (GST on top included) would not fit a Decimal(10,2) column. */
export const AMOUNT_TOO_LARGE = 'Amount is too large';

/** What Generate (and any second active invoice before the work is done) answers: the dashboard opens that invoice. */
export const alreadyInvoiced = (jobNumber: string, invoiceNumber: string) =>
  `Job ${jobNumber} already has invoice ${invoiceNumber}`;

const alreadyInvoicedError = (job: JobSnapshot, existing: { id: string; invoiceNumber: string }) =>
  conflict(
    alreadyInvoiced(job.jobNumber, existing.invoiceNumber),
    { invoiceId: existing.id, invoiceNumber: existing.invoiceNumber },
    'invoice_exists',
  );

function assertTotalsFit(totals: InvoiceTotals): InvoiceTotals {
  if (!totalsFit(totals)) throw badRequest(AMOUNT_TOO_LARGE, undefined, 'amount_too_large');
  return totals;
}

function checkedLineTotal(quantity: number, unitPrice: Cents): Cents {
  const total = lineAmount(quantity, unitPrice);
  if (!fitsMoneyColumn(total)) throw badRequest(AMOUNT_TOO_LARGE, undefined, 'amount_too_large');
  return total;
}

/**
 * An invoice's totals (kernel invoiceTotals) from its stored lines, in its amount type. An invoice without lines yet
 * (the new-invoice page saves the invoice, then its lines) takes the page's ex-GST subtotal and GST at 10% of it,
 * whatever its type: for a tax inclusive invoice that is the same figure as total ÷ 11.
 */
function totalsOf(
  items: readonly { totalPrice: Prisma.Decimal | string; gstFree: boolean }[],
  amountType: AmountType,
  itemlessSubtotal: Cents,
): InvoiceTotals {
  if (items.length === 0) return invoiceTotals([{ amount: itemlessSubtotal }], 'exclusive');
  return invoiceTotals(
    items.map((i) => ({ amount: centsOf(i.totalPrice), gstFree: i.gstFree })),
    amountType,
  );
}

function assertItemsEditable(identity: Identity, invoice: { status: string }): void {
  if (!mayEditItems(identity, invoice))
    throw forbidden('Only an admin can change the line items of an invoice that is no longer a draft');
}

function jobForInvoice(job: JobSnapshot): JobForInvoice {
  return {
    serviceType: job.serviceType as ServiceType,
    tyreSize: job.tyreSize,
    tyreQuantity: job.tyreQuantity,
    tyreBrand: job.tyreBrand,
    customerValue: centsOf(job.customerValue),
    paymentMethod: job.paymentMethod,
    paymentStatus: job.paymentStatus,
    quote: parseJobQuote(job.quoteLines),
  };
}

const taxLine = (l: GeneratedLine): TaxLine => ({ amount: l.totalPrice, gstFree: l.gstFree });

function itemRows(lines: readonly GeneratedLine[]) {
  return lines.map((l, position) => ({
    description: l.description,
    category: l.category,
    quantity: l.quantity,
    unitPrice: formatMoney(l.unitPrice),
    totalPrice: formatMoney(l.totalPrice),
    gstFree: l.gstFree,
    position,
  }));
}

/** Outcome of a prepaid booking's invoice attempt (logged by the caller). */
export type PrepaidInvoiceOutcome =
  | { kind: 'created'; invoice: InvoiceWithJobAndItems }
  | { kind: 'exists'; invoiceNumber: string }
  /** The payment has not succeeded yet, or billing does not know the job yet (BookingCreated still to come). */
  | { kind: 'waiting' }
  /** The job already had another active invoice (made before the payment): no second one is made. */
  | { kind: 'conflict'; invoiceNumber: string }
  /** The job's price lines would not add up to the card total (data changed by hand?): no invoice is made. */
  | { kind: 'mismatch'; linesTotal: Cents };

/** What became of a prepaid booking's invoice, in the log: made (info), or not made and staff must look (error). */
export function logPrepaidInvoiceOutcome(
  logger: Pick<Logger, 'info' | 'error'>,
  outcome: PrepaidInvoiceOutcome,
  context: { paymentId: string; jobId: string | null },
): void {
  if (outcome.kind === 'created')
    logger.info(
      { ...context, invoiceNumber: outcome.invoice.invoiceNumber },
      'prepaid booking: paid invoice made',
    );
  else if (outcome.kind === 'conflict')
    logger.error(
      { ...context, invoiceNumber: outcome.invoiceNumber },
      'prepaid booking paid, but its job already had an invoice: no second invoice made; staff to reconcile',
    );
  else if (outcome.kind === 'mismatch')
    logger.error(
      { ...context, linesTotal: formatMoney(outcome.linesTotal) },
      "prepaid booking paid, but the job's price lines do not add up to the card total: no invoice made; staff to invoice it",
    );
}

/** What a cancellation did to the job's invoices (logged by the caller). */
export interface CancellationInvoiceOutcome {
  cancelled: string[];
  issued: { invoiceNumber: string; status: string; total: string } | null;
  /** A prepaid booking whose paid invoice billing does not have (e.g. its lines did not add up): staff to check. */
  missingPaidInvoice: boolean;
}

export interface CustomerInvoiceDeps {
  db: Db;
  transactions: Transactions;
  events: EventWriter;
  clock: () => Date;
}

/**
 * Customer invoices: numbering, totals, access and the events, each change in one transaction with its outbox row.
 * Admins see every invoice, technicians the invoices of jobs assigned to them (anything else is "not found").
 * Invoice creation for a job is serialised by locking the job's row in job_snapshots (Generate, Create, the prepaid
 * invoice, un-cancelling): the rule "one active invoice until the work is done" cannot be a unique index, since it
 * depends on the job's status.
 */
export class CustomerInvoices {
  private readonly db: Db;
  private readonly transactions: Transactions;
  private readonly events: EventWriter;
  private readonly clock: () => Date;

  constructor(deps: CustomerInvoiceDeps) {
    this.db = deps.db;
    this.transactions = deps.transactions;
    this.events = deps.events;
    this.clock = deps.clock;
  }

  /** Today in Perth: what "overdue" and the accounting-date range are judged against. */
  today(): IsoDate {
    return perthDate(this.clock());
  }

  // --- reads -------------------------------------------------------------------------------------------------

  /** The invoice management list page as the API's JSON, and the number of matches. */
  list(filters: InvoiceListFilters): Promise<{ json: string; total: number }> {
    return invoiceListPage(this.db, filters, this.today());
  }

  /** The invoice if the identity may see it. */
  async find(id: string, identity: Identity): Promise<InvoiceWithJobAndItems | undefined> {
    const invoice = await findInvoice(this.db, id);
    return invoice && canSeeJob(identity, invoice.job) ? invoice : undefined;
  }

  /** The invoice, or 404 when it does not exist or is not the identity's to see. */
  async get(id: string, identity: Identity): Promise<InvoiceWithJobAndItems> {
    const invoice = await this.find(id, identity);
    if (!invoice) throw notFound(INVOICE_NOT_FOUND);
    return invoice;
  }

  /** The invoices of a job (newest first); 404 when the job is unknown or not the identity's. */
  async listForJob(jobId: string, identity: Identity): Promise<InvoiceWithJobAndItems[]> {
    const job = await findJob(this.db, jobId);
    if (!job || !canSeeJob(identity, job)) throw notFound(JOB_NOT_FOUND);
    return invoicesOfJob(this.db, jobId);
  }

  // --- creation ----------------------------------------------------------------------------------------------

  /** The job, locked for invoice creation, if the identity may invoice it (not deleted); otherwise 404. */
  private async lockJobToInvoice(tx: Tx, jobId: string, identity: Identity): Promise<JobSnapshot> {
    const job = await lockJob(tx, jobId);
    if (!job || !canSeeJob(identity, job) || job.deletedAt) throw notFound(JOB_NOT_FOUND);
    return job;
  }

  private async nextInvoiceNumber(tx: Tx): Promise<string> {
    return formatInvoiceNumber(await nextSeriesValue(tx));
  }

  /**
   * "Generate Invoice": the invoice built from the job, tax inclusive (its total is the job's GST-inclusive price,
   * its GST one eleventh of it), numbered, draft, due in 30 days. A job that already has an active invoice (e.g. a
   * prepaid booking's, paid at booking) answers 409 "Job … already has invoice …": never a second, higher draft.
   * Accepts an Idempotency-Key.
   */
  generate(jobId: string, identity: Identity, reply: Reply<InvoiceWithJobAndItems>): Promise<Replied> {
    return this.transactions.reply(reply, async (tx) => {
      const job = await this.lockJobToInvoice(tx, jobId, identity);
      if (job.status === 'cancelled')
        throw conflict('A cancelled job cannot be invoiced', undefined, 'job_cancelled');
      const existing = await findActiveInvoice(tx, jobId);
      if (existing) throw alreadyInvoicedError(job, existing);
      const lines = buildInvoiceLines(jobForInvoice(job));
      const totals = assertTotalsFit(invoiceTotals(lines.map(taxLine), 'inclusive'));
      const now = this.clock();
      const invoiceDate = perthDate(now);
      return this.insert(tx, {
        data: {
          jobId,
          invoiceDate: dateToDb(invoiceDate),
          dueDate: dateToDb(addDays(invoiceDate, INVOICE_DUE_DAYS)),
          status: 'draft',
          amountType: 'inclusive',
          ...totalsColumns(totals),
          createdBy: identity.id,
          items: { create: itemRows(lines) },
        },
        now,
      });
    });
  }

  /**
   * The new-invoice page: an invoice for a job (tax inclusive unless the page says exclusive); its line items follow
   * one call each. Before the work is done a job has one active invoice at most (409); once it is completed,
   * invoiced or paid staff may add more, e.g. for extra work. A technician makes drafts only. Accepts an
   * Idempotency-Key.
   */
  create(
    input: CreateInvoiceInput,
    identity: Identity,
    reply: Reply<InvoiceWithJobAndItems>,
  ): Promise<Replied> {
    return this.transactions.reply(reply, async (tx) => {
      if (!maySetInvoiceStatus(identity, input.status))
        throw forbidden('Only an admin can set the status of an invoice');
      checkAccountingDates({ invoiceDate: input.invoiceDate, dueDate: input.dueDate }, this.today());
      const job = await this.lockJobToInvoice(tx, input.jobId, identity);
      const totals = assertTotalsFit(totalsOf([], input.amountType, input.subtotalAmount ?? 0n));
      if (input.status !== 'cancelled' && !allowsExtraInvoice(job.status)) {
        const existing = await findActiveInvoice(tx, input.jobId);
        if (existing) throw alreadyInvoicedError(job, existing);
      }
      const now = this.clock();
      const stamps = statusTimestamps({ status: 'draft', paidAt: null, sentAt: null }, input.status, now);
      return this.insert(tx, {
        data: {
          jobId: input.jobId,
          invoiceDate: dateToDb(input.invoiceDate ?? perthDate(now)),
          dueDate: dateToDb(input.dueDate),
          status: input.status,
          amountType: input.amountType,
          ...totalsColumns(totals),
          ...stamps,
          createdBy: identity.id,
        },
        now,
      });
    });
  }

  /**
   * A prepaid booking's invoice, made by billing once it knows both the succeeded card payment and the job
   * (BookingCreated): paid at the payment's time, tax inclusive, the discounted job price plus the "Card surcharge
   * 1.7%" line, total exactly what the card was charged, linked to the PaymentIntent. Called in the transaction of
   * whichever of the two arrives second (and of the first too: it then waits); both lock the payment row first,
   * then the job's, so they run one after the other, and the unique payment_intent_id leaves no room for a second.
   */
  async ensurePrepaidInvoice(
    tx: Tx,
    paymentId: string,
    causation?: Causation,
  ): Promise<PrepaidInvoiceOutcome> {
    const payment = await findPayment(tx, paymentId);
    if (!payment?.jobId || payment.status !== 'succeeded' || !payment.succeededAt) return { kind: 'waiting' };
    const job = await lockJob(tx, payment.jobId);
    if (!job) return { kind: 'waiting' };
    const made = await findInvoiceOfPayment(tx, payment.providerIntentId);
    if (made) return { kind: 'exists', invoiceNumber: made.invoiceNumber };
    const other = await findActiveInvoice(tx, job.jobId);
    if (other) return { kind: 'conflict', invoiceNumber: other.invoiceNumber };

    const lines = prepaidInvoiceLines(jobForInvoice(job), {
      originalAmount: centsOf(payment.originalAmount),
      surchargeAmount: centsOf(payment.surchargeAmount),
      surchargeRate: rateOfPayment(payment),
    });
    const totals = invoiceTotals(lines.map(taxLine), 'inclusive');
    // Never an invoice that differs from what the card was charged; and never a failed payment confirmation for it
    // (this runs in that transaction): the caller logs it for staff.
    if (totals.total !== centsOf(payment.totalAmount)) return { kind: 'mismatch', linesTotal: totals.total };
    const paidOn = perthDate(payment.succeededAt);
    const invoice = await this.insert(
      tx,
      {
        data: {
          jobId: job.jobId,
          invoiceDate: dateToDb(paidOn),
          dueDate: dateToDb(paidOn),
          status: 'paid',
          paidAt: payment.succeededAt,
          amountType: 'inclusive',
          paymentIntentId: payment.providerIntentId,
          ...totalsColumns(totals),
          items: { create: itemRows(lines) },
        },
        now: this.clock(),
      },
      causation,
    );
    return { kind: 'created', invoice };
  }

  /**
   * A cancelled booking's invoices (issue 18), in the cancellation handler's transaction, following the plan of
   * domain/cancellation.ts: the prepaid booking's paid invoice cancelled (whole refund) or replaced by a paid "Cancellation
   * fee (N%)" invoice for the part kept; pay on site, a draft "Cancellation fee" invoice and the job's unpaid invoices
   * for the work cancelled (the work will not be done). Every change is a CustomerInvoiceIssued/Updated v2 event, so
   * reporting's GST and P&L follow. The job's row is locked first, as every invoice creation does.
   */
  async applyCancellation(
    tx: Tx,
    input: {
      jobId: string;
      paymentIntentId: string | null;
      cancelledAt: Date;
      plan: CancellationInvoicePlan;
    },
    causation: Causation,
  ): Promise<CancellationInvoiceOutcome> {
    const outcome: CancellationInvoiceOutcome = { cancelled: [], issued: null, missingPaidInvoice: false };
    const { plan } = input;
    if (plan.kind === 'nothing' || plan.kind === 'keep-paid-invoice') return outcome;
    const job = await lockJob(tx, input.jobId);
    if (!job) throw new Error(`job ${input.jobId} unknown to billing`);
    const now = this.clock();
    const cancel = async (id: string) => {
      const invoice = await lockInvoice(tx, id);
      if (!invoice || invoice.status === 'cancelled') return;
      await this.saveAndEmit(tx, id, { status: 'cancelled' }, ['status'], causation);
      outcome.cancelled.push(invoice.invoiceNumber);
    };
    if (plan.kind === 'cancel-paid-invoice' || plan.kind === 'replace-with-fee-invoice') {
      const paid = input.paymentIntentId ? await invoiceOfPayment(tx, input.paymentIntentId) : undefined;
      if (paid) await cancel(paid.id);
      else outcome.missingPaidInvoice = true;
    } else {
      for (const id of await openInvoiceIds(tx, input.jobId)) await cancel(id);
    }
    if (plan.kind === 'cancel-paid-invoice') return outcome;

    const line: GeneratedLine = {
      description: plan.description,
      // The fee stands in for the booked call-out: the closest of the spec's categories.
      category: 'callout',
      quantity: 1,
      unitPrice: plan.fee,
      totalPrice: plan.fee,
      gstFree: false,
    };
    const totals = assertTotalsFit(invoiceTotals([taxLine(line)], 'inclusive'));
    const kept = plan.kind === 'replace-with-fee-invoice';
    const on = perthDate(kept ? input.cancelledAt : now);
    const invoice = await this.insert(
      tx,
      {
        data: {
          jobId: input.jobId,
          invoiceDate: dateToDb(on),
          dueDate: dateToDb(kept ? on : addDays(on, INVOICE_DUE_DAYS)),
          // The kept part was paid with the booking's charge; an on-site fee is owed and sent for payment.
          status: kept ? 'paid' : 'draft',
          ...(kept ? { paidAt: input.cancelledAt } : {}),
          amountType: 'inclusive',
          ...totalsColumns(totals),
          items: { create: itemRows([line]) },
        },
        now,
      },
      causation,
    );
    outcome.issued = {
      invoiceNumber: invoice.invoiceNumber,
      status: invoice.status,
      total: formatMoney(totals.total),
    };
    return outcome;
  }

  /**
   * Inserts an invoice and gives it the next number of the gap-free series. The number is taken LAST, after the
   * invoice and its lines are written: the series row stays locked until commit, so every concurrent invoice queues
   * only for the few statements left (the number, the event, the idempotency record), not for the whole insert
   * (issue 16: with the number taken first, bench:scale saw 14 billing sessions waiting on that row and the
   * consumers starved of connections). A rolled-back invoice still gives its number back.
   */
  private async insert(
    tx: Tx,
    args: { data: Omit<Prisma.CustomerInvoiceUncheckedCreateInput, 'invoiceNumber'>; now: Date },
    causation?: Causation,
  ): Promise<InvoiceWithJobAndItems> {
    const inserted = await insertInvoice(tx, { ...args.data, invoiceNumber: provisionalInvoiceNumber() });
    const invoiceNumber = await this.nextInvoiceNumber(tx);
    await setInvoiceNumber(tx, inserted.id, invoiceNumber);
    const invoice = { ...inserted, invoiceNumber };
    await this.events.emit(
      tx,
      CustomerInvoiceIssued,
      { ...invoiceSnapshot(invoice, args.now), issuedAt: args.now.toISOString() },
      causation,
    );
    return invoice;
  }

  // --- changes -----------------------------------------------------------------------------------------------

  /** Locks the invoice for the rest of the transaction if the identity may see it. */
  private async lockVisible(
    tx: Tx,
    id: string,
    identity: Identity,
  ): Promise<InvoiceWithJobAndItems | undefined> {
    const invoice = await lockInvoice(tx, id);
    return invoice && canSeeJob(identity, invoice.job) ? invoice : undefined;
  }

  private async saveAndEmit(
    tx: Tx,
    id: string,
    data: Prisma.CustomerInvoiceUpdateInput,
    changedFields: string[],
    causation?: Causation,
  ): Promise<InvoiceWithJobAndItems> {
    const updated = await updateInvoice(tx, id, data);
    await this.events.emit(
      tx,
      CustomerInvoiceUpdated,
      { ...invoiceSnapshot(updated, this.clock()), changedFields },
      causation,
    );
    return updated;
  }

  /**
   * Field edits (edit dialog) or `{status}` (bulk). Totals follow the line items when the invoice has any; switching
   * the amount type keeps the line amounts as entered and recomputes GST and totals.
   */
  update(id: string, patch: UpdateInvoiceInput, identity: Identity): Promise<InvoiceWithJobAndItems> {
    return this.transactions.run(async (tx) => {
      const invoice = await this.lockVisible(tx, id, identity);
      if (!invoice) throw notFound(INVOICE_NOT_FOUND);
      if (patch.jobId !== undefined && patch.jobId !== invoice.jobId)
        throw badRequest('An invoice cannot be moved to another job');
      checkAccountingDates({ invoiceDate: patch.invoiceDate, dueDate: patch.dueDate }, this.today());
      const now = this.clock();
      const data: Prisma.CustomerInvoiceUpdateInput = {};
      const changed: string[] = [];
      if (patch.status !== undefined && patch.status !== invoice.status) {
        if (invoice.status === 'cancelled') await this.assertMayReactivate(tx, invoice);
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
      if (patch.dueDate !== undefined && patch.dueDate !== (invoice.dueDate && dateFromDb(invoice.dueDate))) {
        data.dueDate = dateToDb(patch.dueDate);
        changed.push('dueDate');
      }
      if (patch.invoiceDate !== undefined && patch.invoiceDate !== dateFromDb(invoice.invoiceDate)) {
        data.invoiceDate = dateToDb(patch.invoiceDate);
        changed.push('invoiceDate');
      }
      const amountType = patch.amountType ?? (invoice.amountType as AmountType);
      if (amountType !== invoice.amountType) {
        data.amountType = amountType;
        changed.push('amountType');
      }
      // With line items the totals are theirs; without, the page's ex-GST subtotal is taken (a client's GST and
      // total are never trusted).
      const itemless =
        invoice.items.length === 0 && patch.subtotalAmount !== undefined
          ? patch.subtotalAmount
          : centsOf(invoice.subtotalAmount);
      // Stored totals are recomputed only when something they depend on changes: nothing is rewritten silently.
      if (
        changed.includes('amountType') ||
        (invoice.items.length === 0 && patch.subtotalAmount !== undefined)
      ) {
        const totals = assertTotalsFit(totalsOf(invoice.items, amountType, itemless));
        const columns = totalsColumns(totals);
        if (
          columns.subtotalAmount !== invoice.subtotalAmount.toFixed(2) ||
          columns.gstAmount !== invoice.gstAmount.toFixed(2) ||
          columns.totalAmount !== invoice.totalAmount.toFixed(2)
        ) {
          Object.assign(data, columns);
          changed.push('subtotalAmount', 'gstAmount', 'totalAmount');
        }
      }
      if (changed.length === 0) return invoice;
      return this.saveAndEmit(tx, id, data, changed);
    });
  }

  /** A cancelled invoice comes back only where a second active one is allowed (or there is none). */
  private async assertMayReactivate(tx: Tx, invoice: InvoiceWithJobAndItems): Promise<void> {
    const job = (await lockJob(tx, invoice.jobId)) as JobSnapshot;
    if (allowsExtraInvoice(job.status)) return;
    const other = await findActiveInvoice(tx, invoice.jobId, invoice.id);
    if (other)
      throw conflict(
        `Another active invoice exists for this job (${other.invoiceNumber})`,
        { invoiceId: other.id, invoiceNumber: other.invoiceNumber },
        'invoice_exists',
      );
  }

  async remove(id: string, identity: Identity): Promise<void> {
    await this.transactions.run(async (tx) => {
      const invoice = await this.lockVisible(tx, id, identity);
      if (!invoice) throw notFound(INVOICE_NOT_FOUND);
      await deleteInvoice(tx, id);
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

  private async refreshTotals(tx: Tx, invoice: InvoiceWithJobAndItems): Promise<InvoiceWithJobAndItems> {
    const items = await itemAmounts(tx, invoice.id);
    // Once an invoice has had lines its amounts are theirs: no lines left is 0.00.
    const totals = assertTotalsFit(totalsOf(items, invoice.amountType as AmountType, 0n));
    return this.saveAndEmit(tx, invoice.id, totalsColumns(totals), [
      'items',
      'subtotalAmount',
      'gstAmount',
      'totalAmount',
    ]);
  }

  addItem(
    invoiceId: string,
    input: ItemInput,
    identity: Identity,
  ): Promise<{ item: CustomerInvoiceItem; invoice: InvoiceWithJobAndItems }> {
    return this.transactions.run(async (tx) => {
      const invoice = await this.lockVisible(tx, invoiceId, identity);
      if (!invoice) throw notFound(SAVE_INVOICE_FIRST);
      assertItemsEditable(identity, invoice);
      const position = invoice.items.reduce((max, i) => Math.max(max, i.position + 1), 0);
      const item = await insertItem(tx, {
        customerInvoiceId: invoiceId,
        description: input.description,
        category: input.category,
        quantity: input.quantity,
        unitPrice: formatMoney(input.unitPrice),
        totalPrice: formatMoney(checkedLineTotal(input.quantity, input.unitPrice)),
        gstFree: input.gstFree,
        position,
      });
      return { item, invoice: await this.refreshTotals(tx, invoice) };
    });
  }

  updateItem(
    invoiceId: string,
    itemId: string,
    patch: Partial<ItemInput>,
    identity: Identity,
  ): Promise<{ item: CustomerInvoiceItem; invoice: InvoiceWithJobAndItems }> {
    return this.transactions.run(async (tx) => {
      const invoice = await this.lockVisible(tx, invoiceId, identity);
      if (!invoice) throw notFound(INVOICE_NOT_FOUND);
      const current = invoice.items.find((i) => i.id === itemId);
      if (!current) throw notFound('Line item not found');
      assertItemsEditable(identity, invoice);
      const quantity = patch.quantity ?? current.quantity;
      const unitPrice = patch.unitPrice ?? centsOf(current.unitPrice);
      const item = await updateItem(tx, itemId, {
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.category !== undefined ? { category: patch.category } : {}),
        ...(patch.gstFree !== undefined ? { gstFree: patch.gstFree } : {}),
        quantity,
        unitPrice: formatMoney(unitPrice),
        totalPrice: formatMoney(checkedLineTotal(quantity, unitPrice)),
      });
      return { item, invoice: await this.refreshTotals(tx, invoice) };
    });
  }

  removeItem(
    invoiceId: string,
    itemId: string,
    identity: Identity,
  ): Promise<{ invoice: InvoiceWithJobAndItems }> {
    return this.transactions.run(async (tx) => {
      const invoice = await this.lockVisible(tx, invoiceId, identity);
      if (!invoice) throw notFound(INVOICE_NOT_FOUND);
      if (!invoice.items.some((i) => i.id === itemId)) throw notFound('Line item not found');
      assertItemsEditable(identity, invoice);
      await deleteItem(tx, itemId);
      return { invoice: await this.refreshTotals(tx, invoice) };
    });
  }

  // --- changes driven by workers and events ------------------------------------------------------------------

  /**
   * An invoice paid online through its pay link (issue 18, item 4), in the transaction that applies the provider's
   * payment_intent.succeeded (the payment row is locked first, then the invoice's). The invoice gets the "Card
   * surcharge 1.7%" line (taxable, domain/pay-invoice.ts) so its total is what the card was charged, and becomes
   * paid: one CustomerInvoiceUpdated (jobs, reporting, the dashboard follow). An invoice already paid or cancelled
   * (a second payment, a payment racing a cancel) is left as it is: the caller refunds that payment.
   */
  async payOnline(
    tx: Tx,
    invoiceId: string,
    charged: { total: Cents; paidAt: Date; rate?: SurchargeRate },
  ): Promise<
    | { kind: 'paid'; invoice: InvoiceWithJobAndItems; surchargeMatched: boolean }
    | { kind: 'not-payable'; status: string | null }
  > {
    const invoice = await lockInvoice(tx, invoiceId);
    if (!invoice) return { kind: 'not-payable', status: null };
    if (invoice.status === 'paid' || invoice.status === 'cancelled')
      return { kind: 'not-payable', status: invoice.status };
    const amountType = invoice.amountType as AmountType;
    const lines = invoice.items.map((i) => ({ amount: centsOf(i.totalPrice), gstFree: i.gstFree }));
    // At the rate stored with the payment (the rate when its intent was made), never today's.
    const rate = charged.rate ?? DEFAULT_CARD_SURCHARGE_BP;
    const pay = invoicePayment(lines, amountType, rate);
    // The charge was made for the invoice as it stood when its PaymentIntent was made; an invoice changed since
    // (staff edited its lines) keeps its lines and the mismatch is logged by the caller for staff.
    const surchargeMatched = pay.paid.total === charged.total;
    if (surchargeMatched && pay.surchargeLine > 0n) {
      const position = invoice.items.reduce((max, i) => Math.max(max, i.position + 1), 0);
      await insertItem(tx, {
        customerInvoiceId: invoice.id,
        description: cardSurchargeLine(rate),
        category: 'surcharge',
        quantity: 1,
        unitPrice: formatMoney(pay.surchargeLine),
        totalPrice: formatMoney(pay.surchargeLine),
        gstFree: false,
        position,
      });
    }
    const totals = totalsOf(await itemAmounts(tx, invoice.id), amountType, 0n);
    const updated = await this.saveAndEmit(
      tx,
      invoice.id,
      { status: 'paid', paidAt: charged.paidAt, ...totalsColumns(totals) },
      ['items', 'subtotalAmount', 'gstAmount', 'totalAmount', 'status', 'paidAt'],
    );
    return { kind: 'paid', invoice: updated, surchargeMatched };
  }

  /** The email worker delivered the invoice: sentAt now, and status sent unless it is already paid/cancelled. */
  markSent(invoiceId: string, at: Date): Promise<InvoiceWithJobAndItems | undefined> {
    return this.transactions.run(async (tx) => {
      const invoice = await lockInvoice(tx, invoiceId);
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

  /**
   * Issue 19: an admin's job edit (job.updated.v1) reached billing's projection (`before` → `after`, the job's row
   * locked by the caller, so Generate for this job is not running meanwhile). When the edit changes what Generate
   * makes (price, tyre details) and the job's active invoice is exactly the draft Generate made from `before`, the
   * invoice takes the edited job's lines and totals (CustomerInvoiceUpdated). So whichever of the edit and Generate
   * commits first, the invoice ends at the job's price; a sent or paid invoice, or a draft staff changed, is kept
   * (see domain/job-price-follow.ts).
   */
  async followJobEdit(
    tx: Tx,
    before: JobSnapshot,
    after: JobSnapshot,
    causation: Causation,
  ): Promise<
    | { kind: 'unchanged' | 'no-invoice' }
    | { kind: 'followed'; invoiceNumber: string; total: string }
    | { kind: 'kept'; invoiceNumber: string; why: string }
  > {
    const old = buildInvoiceLines(jobForInvoice(before));
    const lines = buildInvoiceLines(jobForInvoice(after));
    if (!linesDiffer(old, lines)) return { kind: 'unchanged' };
    const active = await findActiveInvoice(tx, after.jobId);
    if (!active) return { kind: 'no-invoice' };
    const invoice = await lockInvoice(tx, active.id);
    if (!invoice) return { kind: 'no-invoice' };
    const verdict = invoiceFollowsEdit(
      {
        status: invoice.status,
        amountType: invoice.amountType,
        lines: invoice.items.map((i) => ({
          description: i.description,
          category: i.category,
          quantity: i.quantity,
          unitPrice: centsOf(i.unitPrice),
          totalPrice: centsOf(i.totalPrice),
          gstFree: i.gstFree,
        })),
      },
      old,
    );
    if (verdict.kind === 'keep')
      return { kind: 'kept', invoiceNumber: invoice.invoiceNumber, why: verdict.why };
    const totals = assertTotalsFit(invoiceTotals(lines.map(taxLine), 'inclusive'));
    for (const item of invoice.items) await deleteItem(tx, item.id);
    for (const row of itemRows(lines)) await insertItem(tx, { ...row, customerInvoiceId: invoice.id });
    const updated = await this.saveAndEmit(
      tx,
      invoice.id,
      totalsColumns(totals),
      ['items', 'subtotalAmount', 'gstAmount', 'totalAmount'],
      causation,
    );
    return { kind: 'followed', invoiceNumber: updated.invoiceNumber, total: formatMoney(totals.total) };
  }

  /**
   * The job was marked paid in the jobs service: its open invoices become paid (inside the handler's transaction).
   * Returns how many were settled.
   */
  async markPaidForJob(tx: Tx, jobId: string, at: Date, causation: Causation): Promise<number> {
    const open = await openInvoiceIds(tx, jobId);
    for (const id of open) {
      await lockInvoice(tx, id);
      await this.saveAndEmit(tx, id, { status: 'paid', paidAt: at }, ['status', 'paidAt'], causation);
    }
    return open.length;
  }
}
