import {
  causedBy,
  type CustomerInvoiceDeleted,
  type CustomerInvoiceIssuedV1,
  type CustomerInvoiceIssuedV2,
  type CustomerInvoiceUpdatedV1,
  type CustomerInvoiceUpdatedV2,
  type EventEnvelope,
  type EventMeta,
  type EventOf,
  type Outbox,
  type PurchaseInvoiceDeleted,
  type PurchaseInvoiceRecorded,
  type PurchaseInvoiceUpdated,
} from '@tyres/events';
import type { Tx } from '../db/client';
import type { InvoiceRecords, PurchaseInvoiceFact } from '../db/invoice-records';
import type { JobsRepository } from '../db/jobs-repository';
import type { JobRow } from '../domain/job-view';
import { invoiceSteps, stepTime, timestampFieldFor } from '../domain/status';
import { jobStatusChanged, SOURCE } from '../events/builders';
import { rereadJob } from './actor';

/**
 * Billing emits v2 (amount type, GST-free lines, payment link); v1 events may still be queued. Jobs reads only what
 * both versions carry (invoice id, number, job, status, times), so one use case takes either.
 */
export type InvoiceIssuedEvent =
  EventOf<typeof CustomerInvoiceIssuedV1> | EventOf<typeof CustomerInvoiceIssuedV2>;
export type InvoiceUpdatedEvent =
  EventOf<typeof CustomerInvoiceUpdatedV1> | EventOf<typeof CustomerInvoiceUpdatedV2>;

export interface InvoiceDeps {
  jobs: JobsRepository;
  invoices: InvoiceRecords;
}

/**
 * Moves a locked job as its customer invoices say (domain/status.ts `invoiceSteps`): a completed job with an invoice
 * is invoiced, and paid once its invoices are; a job whose work is not done is never moved by an invoice (a prepaid
 * booking's invoice is paid at booking). Each step takes effect at its time in `times`, but never at or before the
 * job entered its current status (`stepTime`), so status times and every projection ordering JobStatusChanged by
 * time stay in order. Returns the job as it ends and the JobStatusChanged events to enqueue, in order.
 */
export async function followInvoices(
  deps: InvoiceDeps,
  tx: Tx,
  job: JobRow,
  times: { invoiced: Date; paid: Date },
  changedBy: string | null,
  meta: EventMeta,
): Promise<{ job: JobRow; events: EventEnvelope[] }> {
  const events: EventEnvelope[] = [];
  let current = job;
  for (const step of invoiceSteps(
    current.status,
    await deps.invoices.liveCustomerInvoiceStatuses(tx, job.id),
  )) {
    const at =
      step === 'paid'
        ? stepTime(times.paid, current.invoicedAt)
        : stepTime(times.invoiced, current.completedAt);
    const field = timestampFieldFor(step);
    await deps.jobs.setStatus(tx, job.id, {
      status: step,
      stamp: field ? { field, at } : undefined,
      paid: step === 'paid',
    });
    const next = await rereadJob(deps.jobs, tx, job.id);
    events.push(jobStatusChanged(next, current.status, changedBy, at, meta));
    current = next;
  }
  return { job: current, events };
}

/**
 * What billing tells the jobs service about invoices. Each use case runs in the inbox transaction of its event
 * (src/events/handlers.ts), so the effect, the inbox row and the events it emits commit together.
 */
export class InvoiceFacts {
  constructor(private readonly deps: InvoiceDeps & { outbox: Outbox }) {}

  /** Records the invoice (delete guard); the job follows: invoiced at `issuedAt`, paid at `paidAt`. */
  async issued(tx: Tx, event: InvoiceIssuedEvent): Promise<void> {
    const d = event.data;
    await this.deps.invoices.upsertCustomerInvoice(tx, d);
    const issuedAt = new Date(d.issuedAt);
    await this.follow(
      tx,
      d.jobId,
      { invoiced: issuedAt, paid: d.paidAt ? new Date(d.paidAt) : issuedAt },
      event,
    );
  }

  /** Updates the record (older snapshots ignored); only a payment moves a job on from here. */
  async updated(tx: Tx, event: InvoiceUpdatedEvent): Promise<void> {
    const d = event.data;
    await this.deps.invoices.upsertCustomerInvoice(tx, d);
    if (d.status !== 'paid') return;
    const updatedAt = new Date(d.updatedAt);
    await this.follow(
      tx,
      d.jobId,
      { invoiced: updatedAt, paid: d.paidAt ? new Date(d.paidAt) : updatedAt },
      event,
    );
  }

  /** The invoice no longer blocks deletes (a tombstone); the job's status is not reverted. */
  async deleted(tx: Tx, event: EventOf<typeof CustomerInvoiceDeleted>): Promise<void> {
    await this.deps.invoices.deleteCustomerInvoice(tx, event.data);
  }

  /** A purchase invoice recorded or changed: the purchase cost of the job(s) it was and is recorded against. */
  async purchaseChanged(
    tx: Tx,
    event: EventOf<typeof PurchaseInvoiceRecorded> | EventOf<typeof PurchaseInvoiceUpdated>,
  ): Promise<void> {
    const { jobs, invoices } = this.deps;
    const fact: PurchaseInvoiceFact = event.data;
    // Lock the job ids first, in a fixed order: two invoices of one job handled at once must not each sum without
    // the other.
    const previous = await invoices.purchaseInvoiceJob(tx, fact.purchaseInvoiceId);
    const affected = [...new Set([fact.jobId, previous].filter((v): v is string => !!v))].sort();
    for (const jobId of affected) await jobs.lockJobId(tx, jobId);
    if (!(await invoices.upsertPurchaseInvoice(tx, fact))) return;
    for (const jobId of affected) await invoices.recomputePurchaseCost(tx, jobId);
  }

  async purchaseDeleted(tx: Tx, event: EventOf<typeof PurchaseInvoiceDeleted>): Promise<void> {
    const d = event.data;
    if (d.jobId) await this.deps.jobs.lockJobId(tx, d.jobId);
    const jobId = (await this.deps.invoices.deletePurchaseInvoice(tx, d)) ?? d.jobId;
    if (jobId) await this.deps.invoices.recomputePurchaseCost(tx, jobId);
  }

  /** No HTTP caller: changedBy is null, and the events are caused by the invoice event. */
  private async follow(
    tx: Tx,
    jobId: string,
    times: { invoiced: Date; paid: Date },
    parent: EventEnvelope,
  ): Promise<void> {
    const job = await this.deps.jobs.lockAny(tx, jobId);
    if (!job || job.deletedAt) return;
    const { events } = await followInvoices(this.deps, tx, job, times, null, causedBy(parent, SOURCE));
    if (events.length) await this.deps.outbox.enqueue(tx, events);
  }
}
