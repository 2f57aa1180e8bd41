import { type EventEnvelope, type EventMeta, type Money, type Outbox } from '@tyres/events';
import {
  badRequest,
  conflict,
  forbidden,
  HttpError,
  notFound,
  type Identity,
  type Logger,
} from '@tyres/service-kit';
import { BookingUnavailableError, type BookingAuth, type ReservationApi, type Slot } from './booking-client';
import type { Db, Tx } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { JobsRepository, type JsonPage } from '../db/jobs-repository';
import type { JobShape } from '../db/job-json';
import { StaffRepository } from '../db/staff-repository';
import type { JobDetail, JobRow, LineItemView } from '../domain/job-view';
import { fitsDecimal10_2, lineItemTotals } from '../domain/line-items';
import type { StatusSelection } from '../domain/schedule';
import { enRouteMessage } from '../domain/sms';
import {
  canTransition,
  illegalTransitionMessage,
  RESCHEDULABLE,
  timestampFieldFor,
  type JobStatus,
} from '../domain/status';
import {
  ADMIN_ONLY,
  cancelledCannotBeAssigned,
  hasCustomerInvoice,
  JOB_NOT_FOUND,
  LINE_ITEM_NOT_FOUND,
  LINE_TOTAL_TOO_LARGE,
  notReschedulable,
  NOTIFY_ONLY_WHEN_STARTING,
  PAST_DATE,
  SAVE_FAILED_AFTER_BOOKING,
  SLOT_PASSED,
  TECHNICIAN_NOT_ASSIGNABLE,
} from '../domain/messages';
import { isPastDate, isSlotPast, toDbDate, weekdayOf, type TimeSlot } from '../domain/time';
import {
  enRouteSmsRequested,
  jobAssigned,
  jobCompleted,
  jobDeleted,
  jobRescheduled,
  jobStatusChanged,
  SOURCE,
} from '../events/job-events';

/** Who is asking: the verified identity, and what to forward to booking. */
export interface Actor {
  identity: Identity;
  correlationId: string;
  auth: BookingAuth;
}

export interface ListOptions {
  selection?: StatusSelection;
  technicianId?: string;
  page: number;
  pageSize: number;
}

export interface LineItemInput {
  type: string;
  category: string;
  description: string;
  quantity: number;
  unitCost: Money;
  unitPrice: Money;
}

interface SlotPlan {
  /** The reservation change at booking (runs while the job's row lock is held, before COMMIT). */
  booking(): Promise<void>;
  /** Puts the previous reservation back when our transaction does not commit; undefined = nothing to restore. */
  restore?: () => Promise<void>;
  /** Whether a row read after an unclear commit shows the change. */
  committed(row: JobRow | undefined): boolean;
  describe: Record<string, unknown>;
}

export interface JobServiceDeps {
  db: Db;
  outbox: Outbox;
  booking: ReservationApi;
  logger: Logger;
  /** Nudges the outbox relay after a commit that wrote events. */
  wake: () => void;
  bookingTimeoutMs: number;
  now?: () => Date;
}

/**
 * The jobs service's commands and queries. Every change locks the job row (`SELECT … FOR UPDATE`), checks that the
 * caller may see the job (technicians: only their own, otherwise 404), writes the change and its events (outbox) in
 * one transaction. Reschedule, cancel and delete also change the slot reservation at booking: see `changeSlot`.
 */
export class JobService {
  readonly jobs: JobsRepository;
  readonly staff: StaffRepository;
  private readonly now: () => Date;

  constructor(private readonly deps: JobServiceDeps) {
    this.jobs = new JobsRepository(deps.db);
    this.staff = new StaffRepository(deps.db);
    this.now = deps.now ?? (() => new Date());
  }

  private meta(actor: Actor): EventMeta {
    return { source: SOURCE, correlationId: actor.correlationId };
  }

  private async enqueue(tx: Tx, events: EventEnvelope[]): Promise<void> {
    if (events.length) await this.deps.outbox.enqueue(tx, events);
  }

  private async lock(tx: Tx, id: string, actor: Actor, adminOnly = false): Promise<JobRow> {
    const job = await this.jobs.lockVisible(tx, id, actor.identity);
    if (!job) throw notFound(JOB_NOT_FOUND);
    // Visibility first: a technician learns nothing about other people's jobs (404), only that they may not
    // do this to their own (403).
    if (adminOnly && actor.identity.role !== 'admin') throw forbidden(ADMIN_ONLY);
    return job;
  }

  private async reread(tx: Tx, id: string): Promise<JobRow> {
    const row = await this.jobs.lockAny(tx, id);
    if (!row) throw new Error(`job ${id} vanished inside its own transaction`);
    return row;
  }

  // ------------------------------------------------------------------------------------------------ queries

  /** A page of jobs as JSON text (see src/db/job-json.ts), newest first. */
  list(actor: Actor, options: ListOptions, shape: JobShape): Promise<JsonPage> {
    // Technicians only ever get their own jobs, whatever they ask for.
    const tech = actor.identity.role === 'technician' ? actor.identity.id : options.technicianId;
    if (
      actor.identity.role === 'technician' &&
      options.technicianId &&
      options.technicianId !== actor.identity.id
    ) {
      return Promise.resolve({ body: '[]', total: 0 });
    }
    return this.jobs.list(
      {
        selection: options.selection,
        technicianId: tech,
        limit: options.pageSize,
        offset: (options.page - 1) * options.pageSize,
      },
      shape,
    );
  }

  async get(actor: Actor, id: string): Promise<JobDetail> {
    const job = await this.jobs.findVisible(id, actor.identity);
    if (!job) throw notFound(JOB_NOT_FOUND);
    return { ...job, lineItems: await this.jobs.lineItems(id) };
  }

  private async view(actor: Actor, id: string): Promise<JobDetail> {
    return this.get(actor, id);
  }

  // ------------------------------------------------------------------------------------------------ status

  async changeStatus(
    actor: Actor,
    id: string,
    input: { status: JobStatus; notifyCustomer?: boolean },
  ): Promise<{ job: JobDetail; smsRequested: boolean }> {
    if (input.status === 'cancelled') {
      if (input.notifyCustomer) throw badRequest(NOTIFY_ONLY_WHEN_STARTING);
      await this.cancel(actor, id);
      return { job: await this.view(actor, id), smsRequested: false };
    }
    if (input.notifyCustomer && input.status !== 'in-progress') throw badRequest(NOTIFY_ONLY_WHEN_STARTING);
    const to = input.status;
    const smsRequested = await this.deps.db.$transaction(async (tx) => {
      const job = await this.lock(tx, id, actor);
      if (!canTransition(job.status, to))
        throw conflict(
          illegalTransitionMessage(job.jobNumber, job.status, to),
          { currentStatus: job.status },
          'illegal_transition',
        );
      const now = this.now();
      const field = timestampFieldFor(to);
      const data: Prisma.JobUpdateInput = { status: to, ...(field ? { [field]: now } : {}) };
      // Marking a job paid records the money as received.
      if (to === 'paid') data.paymentStatus = 'paid';
      await tx.job.update({ where: { id }, data });
      const after = await this.reread(tx, id);
      const meta = this.meta(actor);
      const events: EventEnvelope[] = [jobStatusChanged(after, job.status, actor.identity.id, now, meta)];
      if (to === 'completed') events.push(jobCompleted(after, meta));
      let sms = false;
      if (input.notifyCustomer) {
        const message = enRouteMessage(after, now);
        if (message) {
          events.push(enRouteSmsRequested(after, message, now, meta));
          sms = true;
        } else {
          this.deps.logger.warn({ jobId: id }, 'customer phone cannot receive an SMS; en-route SMS skipped');
        }
      }
      await this.enqueue(tx, events);
      return sms;
    });
    this.deps.wake();
    return { job: await this.view(actor, id), smsRequested };
  }

  // ------------------------------------------------------------------------------------------------ assignment

  async assign(actor: Actor, id: string, technicianId: string | null): Promise<JobDetail> {
    const changed = await this.deps.db.$transaction(async (tx) => {
      const job = await this.lock(tx, id, actor, true);
      if (job.status === 'cancelled')
        throw conflict(cancelledCannotBeAssigned(job.jobNumber), undefined, 'job_cancelled');
      if (technicianId && !(await this.staff.findActiveTechnician(tx, technicianId)))
        throw badRequest(
          TECHNICIAN_NOT_ASSIGNABLE,
          [{ path: 'technicianId', message: TECHNICIAN_NOT_ASSIGNABLE }],
          'technician_not_assignable',
        );
      if (job.assignedTechnicianId === technicianId) return false;
      await tx.job.update({ where: { id }, data: { assignedTechnicianId: technicianId } });
      const after = await this.reread(tx, id);
      await this.enqueue(tx, [
        jobAssigned(after, job.assignedTechnicianId, actor.identity.id, this.now(), this.meta(actor)),
      ]);
      return true;
    });
    if (changed) this.deps.wake();
    return this.view(actor, id);
  }

  // ------------------------------------------------------------------------------------------------ slot changes

  async reschedule(actor: Actor, id: string, to: Slot): Promise<JobDetail> {
    const now = this.now();
    if (isPastDate(to.scheduledDate, now))
      throw badRequest(PAST_DATE, [{ path: 'scheduledDate', message: PAST_DATE }], 'date_in_past');
    if (isSlotPast(to.scheduledDate, to.timeSlot as TimeSlot, now))
      throw badRequest(SLOT_PASSED, [{ path: 'timeSlot', message: SLOT_PASSED }], 'slot_in_past');
    await this.changeSlot(actor, id, async (tx, job) => {
      if (!RESCHEDULABLE.includes(job.status))
        throw conflict(
          notReschedulable(job.jobNumber, job.status),
          { currentStatus: job.status },
          'not_reschedulable',
        );
      const from: Slot = { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot };
      if (from.scheduledDate === to.scheduledDate && from.timeSlot === to.timeSlot) return undefined;
      await tx.job.update({
        where: { id },
        data: {
          scheduledDate: toDbDate(to.scheduledDate),
          scheduledDay: weekdayOf(to.scheduledDate),
          timeSlot: to.timeSlot,
        },
      });
      const after = await this.reread(tx, id);
      await this.enqueue(tx, [jobRescheduled(after, from, actor.identity.id, this.now(), this.meta(actor))]);
      return {
        booking: () => this.deps.booking.moveReservation(id, to, actor.auth),
        restore: () => this.deps.booking.moveReservation(id, from, actor.auth),
        committed: (row) => row?.scheduledDate === to.scheduledDate && row.timeSlot === to.timeSlot,
        describe: { op: 'reschedule', from, to },
      };
    });
    return this.view(actor, id);
  }

  /** new / in-progress → cancelled: frees the slot (booking) and keeps the job for the record. Admin only. */
  async cancel(actor: Actor, id: string): Promise<void> {
    await this.changeSlot(actor, id, async (tx, job) => {
      if (!canTransition(job.status, 'cancelled'))
        throw conflict(
          illegalTransitionMessage(job.jobNumber, job.status, 'cancelled'),
          { currentStatus: job.status },
          'illegal_transition',
        );
      const now = this.now();
      await tx.job.update({
        where: { id },
        data: { status: 'cancelled', cancelledAt: now, cancelledBy: actor.identity.id },
      });
      const after = await this.reread(tx, id);
      await this.enqueue(tx, [jobStatusChanged(after, job.status, actor.identity.id, now, this.meta(actor))]);
      const slot: Slot = { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot };
      return {
        booking: () => this.deps.booking.releaseReservation(id, actor.auth),
        restore: () => this.deps.booking.moveReservation(id, slot, actor.auth),
        committed: (row) => row?.status === 'cancelled',
        describe: { op: 'cancel', slot },
      };
    });
  }

  /** Soft delete (who and when are kept for the accounts); refused while the job has a customer invoice. */
  async remove(actor: Actor, id: string): Promise<{ id: string; jobNumber: string }> {
    let jobNumber = '';
    await this.changeSlot(actor, id, async (tx, job) => {
      jobNumber = job.jobNumber;
      const invoice = await this.jobs.hasCustomerInvoice(tx, id);
      if (invoice)
        throw conflict(
          hasCustomerInvoice(job.jobNumber, invoice.invoiceNumber),
          { invoiceNumber: invoice.invoiceNumber },
          'has_customer_invoice',
        );
      const now = this.now();
      await tx.job.update({ where: { id }, data: { deletedAt: now, deletedBy: actor.identity.id } });
      const after = await this.reread(tx, id);
      await this.enqueue(tx, [jobDeleted(after, actor.identity.id, now, this.meta(actor))]);
      const slot: Slot = { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot };
      const held = job.status !== 'cancelled'; // a cancelled job's slot was freed when it was cancelled
      return {
        booking: () => (held ? this.deps.booking.releaseReservation(id, actor.auth) : Promise.resolve()),
        restore: held ? () => this.deps.booking.moveReservation(id, slot, actor.auth) : undefined,
        committed: (row) => !!row?.deletedAt,
        describe: { op: 'delete', slot },
      };
    });
    return { id, jobNumber };
  }

  /**
   * A change that moves or frees the job's slot reservation, which booking owns. One database transaction brackets
   * the booking call:
   *
   *   1. lock the job row, check the rules, write the change and its outbox event (nothing committed yet);
   *   2. call booking (PUT / DELETE reservation) while the row lock is held, so changes to one job serialise;
   *   3. booking refuses (409 slot taken, 400) → ROLLBACK, the refusal is answered as is: nothing changed;
   *      booking unreachable before the request left (connection refused) → ROLLBACK, 503: nothing changed;
   *      booking timed out / answered 5xx (it may have applied the change) → ROLLBACK, then put the previous
   *      reservation back (idempotent PUT), 503;
   *   4. booking OK → COMMIT. If the COMMIT fails, re-read the row: if the change is there after all, done;
   *      otherwise put the previous reservation back, 503.
   *
   * If restoring fails too (booking and the database both failing within one request), the mismatch is logged at
   * error level with everything needed to repair it ("slot reservation out of sync"); the next reschedule, cancel
   * or delete of that job sets the reservation again (PUT/DELETE are absolute, not relative). Booking also
   * consumes JobRescheduled / JobStatusChanged / JobDeleted idempotently as a safety net for committed changes.
   */
  private async changeSlot(
    actor: Actor,
    id: string,
    build: (tx: Tx, job: JobRow) => Promise<SlotPlan | undefined>,
  ): Promise<void> {
    let plan: SlotPlan | undefined;
    let phase: 'before-booking' | 'booking-uncertain' | 'booking-applied' = 'before-booking';
    try {
      await this.deps.db.$transaction(
        async (tx) => {
          const job = await this.lock(tx, id, actor, true);
          plan = await build(tx, job);
          if (!plan) return;
          try {
            await plan.booking();
            phase = 'booking-applied';
          } catch (err) {
            if (err instanceof BookingUnavailableError && err.maybeApplied) phase = 'booking-uncertain';
            throw err;
          }
        },
        { timeout: this.deps.bookingTimeoutMs + 10_000, maxWait: 5000 },
      );
    } catch (err) {
      if (!plan || phase === 'before-booking') throw err;
      if (phase === 'booking-applied') {
        const row = await this.jobs.findRow(id).catch(() => undefined);
        if (plan.committed(row)) {
          this.deps.logger.warn({ jobId: id, err }, 'commit reported an error but the change is stored');
          this.deps.wake();
          return;
        }
      }
      await this.restore(id, plan, err);
      if (err instanceof HttpError) throw err;
      this.deps.logger.error(
        { jobId: id, err, ...plan.describe },
        'job change failed after booking applied it; reverted',
      );
      throw new HttpError(503, SAVE_FAILED_AFTER_BOOKING, 'job_not_saved');
    }
    if (plan) this.deps.wake();
  }

  private async restore(id: string, plan: SlotPlan, cause: unknown): Promise<void> {
    if (!plan.restore) return;
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await plan.restore();
        this.deps.logger.warn(
          { jobId: id, ...plan.describe, attempt },
          'previous slot reservation restored at booking',
        );
        return;
      } catch (err) {
        if (attempt === 3 || (err instanceof HttpError && err.status < 500)) {
          this.deps.logger.error(
            { jobId: id, ...plan.describe, err, cause },
            'slot reservation out of sync: booking changed it but the job did not; restoring failed. The next reschedule, cancel or delete of this job re-sets it.',
          );
          return;
        }
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  }

  // ------------------------------------------------------------------------------------------------ line items

  async lineItems(actor: Actor, jobId: string): Promise<LineItemView[]> {
    const job = await this.jobs.findVisible(jobId, actor.identity);
    if (!job) throw notFound(JOB_NOT_FOUND);
    return this.jobs.lineItems(jobId);
  }

  async addLineItem(actor: Actor, jobId: string, input: LineItemInput): Promise<LineItemView> {
    const totals = checkedTotals(input);
    const itemId = await this.deps.db.$transaction(async (tx) => {
      await this.lock(tx, jobId, actor, true);
      const created = await tx.jobLineItem.create({
        data: {
          jobId,
          type: input.type,
          category: input.category,
          description: input.description,
          quantity: input.quantity,
          unitCost: input.unitCost,
          unitPrice: input.unitPrice,
          totalCost: totals.totalCost,
          totalPrice: totals.totalPrice,
          profitMargin: totals.profitMargin,
        },
        select: { id: true },
      });
      return created.id;
    });
    return this.lineItem(jobId, itemId);
  }

  async updateLineItem(
    actor: Actor,
    jobId: string,
    itemId: string,
    patch: Partial<LineItemInput>,
  ): Promise<LineItemView> {
    await this.deps.db.$transaction(async (tx) => {
      await this.lock(tx, jobId, actor, true);
      const current = (await this.jobs.lineItems(jobId, tx)).find((i) => i.id === itemId);
      if (!current) throw notFound(LINE_ITEM_NOT_FOUND);
      const merged: LineItemInput = {
        type: patch.type ?? current.type,
        category: patch.category ?? current.category,
        description: patch.description ?? current.description,
        quantity: patch.quantity ?? current.quantity,
        unitCost: patch.unitCost ?? current.unitCost,
        unitPrice: patch.unitPrice ?? current.unitPrice,
      };
      const totals = checkedTotals(merged);
      await tx.jobLineItem.update({ where: { id: itemId }, data: { ...merged, ...totals } });
    });
    return this.lineItem(jobId, itemId);
  }

  async deleteLineItem(actor: Actor, jobId: string, itemId: string): Promise<void> {
    await this.deps.db.$transaction(async (tx) => {
      await this.lock(tx, jobId, actor, true);
      const deleted = await tx.jobLineItem.deleteMany({ where: { id: itemId, jobId } });
      if (deleted.count === 0) throw notFound(LINE_ITEM_NOT_FOUND);
    });
  }

  private async lineItem(jobId: string, itemId: string): Promise<LineItemView> {
    const item = (await this.jobs.lineItems(jobId)).find((i) => i.id === itemId);
    if (!item) throw notFound(LINE_ITEM_NOT_FOUND);
    return item;
  }
}

function checkedTotals(input: LineItemInput) {
  const totals = lineItemTotals(input);
  if (!fitsDecimal10_2(totals.totalCost) || !fitsDecimal10_2(totals.totalPrice))
    throw badRequest(LINE_TOTAL_TOO_LARGE, [{ path: 'quantity', message: LINE_TOTAL_TOO_LARGE }]);
  return totals;
}
