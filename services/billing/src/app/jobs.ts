import type {
  BookingCreated,
  EventOf,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  JobUpdated,
  Logger as EventLogger,
} from '@tyres/events';
import type { Tx } from '../db/client';
import type { JobSnapshot } from '../db/generated/client';
import { lockJob } from '../db/customer-invoices';
import { findJob, markJobDeleted, updateJob, upsertJobFromBooking } from '../db/jobs';
import { linkPaymentToJob, lockPaymentsOfBooking } from '../db/payments';
import {
  assignmentChange,
  completion,
  jobEdit,
  reschedule,
  statusChange,
  type JobChange,
} from '../domain/job-projection';
import { logPrepaidInvoiceOutcome, type CustomerInvoices } from './customer-invoices';

/** The handler's logger (the event's correlation id in every line). */
type Log = Pick<EventLogger, 'info' | 'error'>;

/**
 * Thrown for a Job* event of a job billing has not seen yet (BookingCreated still to come): the bus retries it
 * (1 s, 5 s, …) until the job exists.
 */
export class JobNotKnownYet extends Error {
  constructor(jobId: string) {
    super(`Job ${jobId} is not known to billing yet (BookingCreated not received); retrying later`);
    this.name = 'JobNotKnownYet';
  }
}

async function requireJob(tx: Tx, jobId: string): Promise<JobSnapshot> {
  const job = await findJob(tx, jobId);
  if (!job) throw new JobNotKnownYet(jobId);
  return job;
}

async function apply(tx: Tx, jobId: string, change: JobChange): Promise<void> {
  if (Object.keys(change).length > 0) await updateJob(tx, jobId, change);
}

/**
 * What billing knows about jobs (job_snapshots): the projection of BookingCreated and the jobs service's events,
 * used to build invoices, to show job number and customer on lists, and to scope technicians to their own jobs.
 * Each method runs in the transaction of the event's inbox row (src/events/handlers.ts).
 */
export class JobProjection {
  constructor(
    private readonly invoices: Pick<
      CustomerInvoices,
      'ensurePrepaidInvoice' | 'markPaidForJob' | 'followJobEdit'
    >,
  ) {}

  /**
   * The job, and a prepaid booking's paid invoice when its card payment is already known. Lock order payment → job,
   * as the payment confirmation's (Payments.applyProviderEvent): the two never deadlock.
   */
  async bookingCreated(tx: Tx, event: EventOf<typeof BookingCreated>, logger: Log): Promise<void> {
    const { data } = event;
    const payments = await lockPaymentsOfBooking(tx, data);
    // A replayed or re-emitted BookingCreated refreshes the booking details, never status or assignment.
    await upsertJobFromBooking(tx, data);
    if (data.stripePaymentIntentId) await linkPaymentToJob(tx, data.stripePaymentIntentId, data.jobId);
    for (const paymentId of payments) {
      const outcome = await this.invoices.ensurePrepaidInvoice(tx, paymentId, event);
      logPrepaidInvoiceOutcome(logger, outcome, { paymentId, jobId: data.jobId });
    }
  }

  /**
   * Status and assignment; "Mark as Paid" on the job settles its open invoices (jobs in turn ignores the
   * CustomerInvoiceUpdated it causes: the job is already paid).
   */
  async statusChanged(tx: Tx, event: EventOf<typeof JobStatusChanged>, logger: Log): Promise<void> {
    const { data } = event;
    const job = await requireJob(tx, data.jobId);
    const at = new Date(data.changedAt);
    const { change, applied } = statusChange(job, {
      to: data.to,
      at,
      assignedTechnicianId: data.assignedTechnicianId,
    });
    await apply(tx, job.jobId, change);
    if (applied?.to !== 'paid') return;
    const settled = await this.invoices.markPaidForJob(tx, data.jobId, at, event);
    if (settled > 0)
      logger.info({ jobId: data.jobId, settled }, 'job paid: its open invoices are marked paid');
  }

  async completed(tx: Tx, event: EventOf<typeof JobCompleted>): Promise<void> {
    const job = await requireJob(tx, event.data.jobId);
    await apply(
      tx,
      job.jobId,
      completion(job, {
        at: new Date(event.data.completedAt),
        assignedTechnicianId: event.data.assignedTechnicianId,
      }),
    );
  }

  async assigned(tx: Tx, event: EventOf<typeof JobAssigned>): Promise<void> {
    const job = await requireJob(tx, event.data.jobId);
    await apply(
      tx,
      job.jobId,
      assignmentChange(job, { at: new Date(event.data.assignedAt), technicianId: event.data.technicianId }),
    );
  }

  async rescheduled(tx: Tx, event: EventOf<typeof JobRescheduled>): Promise<void> {
    const job = await requireJob(tx, event.data.jobId);
    await apply(
      tx,
      job.jobId,
      reschedule(job, {
        at: new Date(event.data.rescheduledAt),
        scheduledDate: event.data.to.scheduledDate,
        timeSlot: event.data.to.timeSlot,
        assignedTechnicianId: event.data.assignedTechnicianId,
      }),
    );
  }

  /**
   * Issue 19: an admin edited the job (price, address, vehicle, notes, tyre details); a newer version only. The job's
   * row is locked first, as Generate Invoice locks it: the two run one after the other. An edit applied first is in
   * the invoice Generate makes next; an invoice Generate made first (jobs accepted the edit before it knew of the
   * invoice) follows the edit while it is still the untouched draft (CustomerInvoices.followJobEdit).
   */
  async updated(tx: Tx, event: EventOf<typeof JobUpdated>, logger?: Log): Promise<void> {
    const job = await lockJob(tx, event.data.jobId);
    if (!job) throw new JobNotKnownYet(event.data.jobId);
    const change = jobEdit(job, event.data);
    if (Object.keys(change).length === 0) return;
    await apply(tx, job.jobId, change);
    const after = await requireJob(tx, job.jobId);
    const outcome = await this.invoices.followJobEdit(tx, job, after, event);
    if (outcome.kind === 'followed')
      logger?.info(
        { jobId: job.jobId, invoiceNumber: outcome.invoiceNumber, total: outcome.total },
        'job edit: its draft invoice follows the new price',
      );
    else if (outcome.kind === 'kept')
      logger?.error(
        { jobId: job.jobId, invoiceNumber: outcome.invoiceNumber, why: outcome.why },
        'job edit changed the price of a job whose invoice cannot follow it: change the invoice in billing',
      );
  }

  /** Deleted jobs stay (their invoices are financial records) but can no longer be invoiced or seen by technicians. */
  async deleted(tx: Tx, event: EventOf<typeof JobDeleted>): Promise<void> {
    await requireJob(tx, event.data.jobId);
    await markJobDeleted(tx, event.data.jobId, new Date(event.data.deletedAt));
  }
}
