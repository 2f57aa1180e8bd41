import type { EventEnvelope, Outbox } from '@tyres/events';
import { badRequest, conflict, forbidden, notFound, type Logger } from '@tyres/service-kit';
import type { Db } from '../db/client';
import type { InvoiceRecords } from '../db/invoice-records';
import type { JobsRepository } from '../db/jobs-repository';
import type { LineItemsRepository } from '../db/line-items-repository';
import type { StaffRepository } from '../db/staff-repository';
import { listScope, mayViewTechnician, technicianScope } from '../domain/access';
import type { JobDetail, JobShape, JsonPage } from '../domain/job-view';
import {
  ADMIN_ONLY,
  cancelledCannotBeAssigned,
  JOB_NOT_FOUND,
  NOTIFY_ONLY_WHEN_STARTING,
  TECHNICIAN_NOT_ASSIGNABLE,
  TECHNICIAN_NOT_FOUND,
} from '../domain/messages';
import type { StatusSelection } from '../domain/schedule';
import { enRouteMessage } from '../domain/sms';
import { canTransition, illegalTransitionMessage, timestampFieldFor, type JobStatus } from '../domain/status';
import { enRouteSmsRequested, jobAssigned, jobCompleted, jobStatusChanged } from '../events/builders';
import { lockJobFor, requestMeta, rereadJob, type Actor } from './actor';
import { followInvoices } from './invoices';
import type { Slot } from './reservations';
import type { SlotChanges } from './slot-changes';

export interface ListOptions {
  selection?: StatusSelection;
  /** Only jobs scheduled from `from` to `to` (Perth dates, inclusive). */
  scheduled?: { from: string; to: string };
  technicianId?: string;
  page: number;
  pageSize: number;
}

export interface JobUseCasesDeps {
  db: Db;
  jobs: JobsRepository;
  lineItems: LineItemsRepository;
  staff: StaffRepository;
  invoices: InvoiceRecords;
  outbox: Outbox;
  /** Reschedule, cancel and delete change the slot reservation at booking too. */
  slots: SlotChanges;
  logger: Logger;
  /** Nudges the outbox relay after a commit that wrote events. */
  wake: () => void;
  now?: () => Date;
}

/**
 * The job's reads, status changes and assignment. Every change locks the job row (`SELECT … FOR UPDATE`), checks
 * that the caller may see the job (technicians: only their own, otherwise 404), and writes the change and its events
 * (outbox) in one transaction, then wakes the relay. Reschedule, cancel and delete: ./slot-changes.ts.
 */
export class JobUseCases {
  private readonly now: () => Date;

  constructor(private readonly deps: JobUseCasesDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  // ------------------------------------------------------------------------------------------------ queries

  /** A page of jobs as JSON text (see src/db/job-json.ts), newest first. Technicians only ever get their own. */
  list(actor: Actor, options: ListOptions, shape: JobShape): Promise<JsonPage> {
    const scope = listScope(actor.identity, options.technicianId);
    if (!scope) return Promise.resolve({ body: '[]', total: 0 });
    return this.deps.jobs.list(
      {
        selection: options.selection,
        scheduled: options.scheduled,
        technicianId: scope.technicianId,
        limit: options.pageSize,
        offset: (options.page - 1) * options.pageSize,
      },
      shape,
    );
  }

  /** The detailed job and its line items; 404 for a job the caller may not see. */
  async get(actor: Actor, id: string): Promise<JobDetail> {
    const job = await this.deps.jobs.findVisible(id, technicianScope(actor.identity));
    if (!job) throw notFound(JOB_NOT_FOUND);
    return { ...job, lineItems: await this.deps.lineItems.list(id) };
  }

  /**
   * The access check of an admin-only change, before its body is read: a technician gets 404 for a job that is
   * not theirs (ids are not confirmed) and 403 for their own, whatever the body says.
   */
  async authorizeAdminChange(actor: Actor, id: string): Promise<void> {
    if (actor.identity.role === 'admin') return;
    await this.get(actor, id);
    throw forbidden(ADMIN_ONLY);
  }

  /** The access check of a technician's job list, before its query is read: another technician's is 404. */
  authorizeTechnicianList(actor: Actor, technicianId: string): void {
    if (!mayViewTechnician(actor.identity, technicianId)) throw notFound(TECHNICIAN_NOT_FOUND);
  }

  // ------------------------------------------------------------------------------------------------ status

  /**
   * Moves the job along the status arrows (domain/status.ts). Completing it also lets the invoices it already has
   * take effect (issue 12: a prepaid booking closes as paid, with no second invoice). Starting work with
   * `notifyCustomer` asks notify for the en-route SMS. Cancelling frees the slot (./slot-changes.ts).
   */
  async changeStatus(
    actor: Actor,
    id: string,
    input: { status: JobStatus; notifyCustomer?: boolean },
  ): Promise<{ job: JobDetail; smsRequested: boolean }> {
    if (input.status === 'cancelled') {
      if (input.notifyCustomer) throw badRequest(NOTIFY_ONLY_WHEN_STARTING);
      await this.deps.slots.cancel(actor, id);
      return { job: await this.get(actor, id), smsRequested: false };
    }
    if (input.notifyCustomer && input.status !== 'in-progress') throw badRequest(NOTIFY_ONLY_WHEN_STARTING);
    const to = input.status;
    const { db, jobs } = this.deps;
    const smsRequested = await db.$transaction(async (tx) => {
      const job = await lockJobFor(jobs, tx, id, actor);
      if (!canTransition(job.status, to))
        throw conflict(
          illegalTransitionMessage(job.jobNumber, job.status, to),
          { currentStatus: job.status },
          'illegal_transition',
        );
      const now = this.now();
      const field = timestampFieldFor(to);
      // Marking a job paid records the money as received.
      await jobs.setStatus(tx, id, {
        status: to,
        stamp: field ? { field, at: now } : undefined,
        paid: to === 'paid',
      });
      const after = await rereadJob(jobs, tx, id);
      const meta = requestMeta(actor);
      const events: EventEnvelope[] = [jobStatusChanged(after, job.status, actor.identity.id, now, meta)];
      if (to === 'completed') {
        events.push(jobCompleted(after, meta));
        // The invoices' steps follow the completion by a millisecond each (stepTime).
        const followed = await followInvoices(
          this.deps,
          tx,
          after,
          { invoiced: now, paid: now },
          actor.identity.id,
          meta,
        );
        events.push(...followed.events);
      }
      let sms = false;
      if (input.notifyCustomer) {
        const message = enRouteMessage(after, now);
        if (message) {
          events.push(enRouteSmsRequested(after, message, now, meta, actor.identity.id));
          sms = true;
        } else {
          this.deps.logger.warn({ jobId: id }, 'customer phone cannot receive an SMS; en-route SMS skipped');
        }
      }
      await this.deps.outbox.enqueue(tx, events);
      return sms;
    });
    this.deps.wake();
    return { job: await this.get(actor, id), smsRequested };
  }

  // ------------------------------------------------------------------------------------------------ assignment

  /** Admin only. Only an active technician of the directory, or null (unassigned); the same one is a no-op. */
  async assign(actor: Actor, id: string, technicianId: string | null): Promise<JobDetail> {
    const { db, jobs, staff } = this.deps;
    const changed = await db.$transaction(async (tx) => {
      const job = await lockJobFor(jobs, tx, id, actor, true);
      if (job.status === 'cancelled')
        throw conflict(cancelledCannotBeAssigned(job.jobNumber), undefined, 'job_cancelled');
      if (technicianId && !(await staff.findActiveTechnician(tx, technicianId)))
        throw badRequest(
          TECHNICIAN_NOT_ASSIGNABLE,
          [{ path: 'technicianId', message: TECHNICIAN_NOT_ASSIGNABLE }],
          'technician_not_assignable',
        );
      if (job.assignedTechnicianId === technicianId) return false;
      await jobs.assign(tx, id, technicianId);
      const after = await rereadJob(jobs, tx, id);
      await this.deps.outbox.enqueue(tx, [
        jobAssigned(after, job.assignedTechnicianId, actor.identity.id, this.now(), requestMeta(actor)),
      ]);
      return true;
    });
    if (changed) this.deps.wake();
    return this.get(actor, id);
  }

  // ------------------------------------------------------------------------------------------------ slot changes

  /** Admin only: to another Perth date and slot (./slot-changes.ts); answers the job as it is now. */
  async reschedule(actor: Actor, id: string, to: Slot): Promise<JobDetail> {
    await this.deps.slots.reschedule(actor, id, to);
    return this.get(actor, id);
  }

  /** Admin only: soft delete, frees the slot; refused while the job has a customer invoice. */
  remove(actor: Actor, id: string): Promise<{ id: string; jobNumber: string }> {
    return this.deps.slots.remove(actor, id);
  }
}
