import type { Outbox } from '@tyres/events';
import { badRequest, conflict, HttpError, type Logger } from '@tyres/service-kit';
import { isPastDate, isSlotPast, weekdayName, type TimeSlot } from '@tyres/kernel';
import type { Db, Tx } from '../db/client';
import type { InvoiceRecords } from '../db/invoice-records';
import type { JobsRepository } from '../db/jobs-repository';
import type { JobRow } from '../domain/job-view';
import {
  hasCustomerInvoice,
  notReschedulable,
  PAST_DATE,
  SAVE_FAILED_AFTER_BOOKING,
  SLOT_PASSED,
} from '../domain/messages';
import { canTransition, illegalTransitionMessage, RESCHEDULABLE } from '../domain/status';
import { jobDeleted, jobRescheduled, jobStatusChanged } from '../events/builders';
import { lockJobFor, requestMeta, rereadJob, type Actor } from './actor';
import { BookingUnavailableError, type ReservationApi, type Slot } from './reservations';

interface SlotPlan {
  /** The reservation change at booking (runs while the job's row lock is held, before COMMIT). */
  booking(): Promise<void>;
  /** Puts the previous reservation back when our transaction does not commit; undefined = nothing to restore. */
  restore?: () => Promise<void>;
  /** Whether a row read after an unclear commit shows the change. */
  committed(row: JobRow | undefined): boolean;
  describe: Record<string, unknown>;
}

export interface SlotChangesDeps {
  db: Db;
  jobs: JobsRepository;
  invoices: InvoiceRecords;
  outbox: Outbox;
  booking: ReservationApi;
  logger: Logger;
  /** Nudges the outbox relay after a commit that wrote events. */
  wake: () => void;
  bookingTimeoutMs: number;
  now?: () => Date;
}

/**
 * The changes that move or free a job's slot reservation, which booking owns: reschedule, cancel and delete. All
 * admin only. Each is one database transaction around the booking call: see `changeSlot`.
 */
export class SlotChanges {
  private readonly now: () => Date;

  constructor(private readonly deps: SlotChangesDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** To a Perth date and slot that have not passed; only new and in-progress jobs; the same slot is a no-op. */
  async reschedule(actor: Actor, id: string, to: Slot): Promise<void> {
    const now = this.now();
    if (isPastDate(to.scheduledDate, now))
      throw badRequest(PAST_DATE, [{ path: 'scheduledDate', message: PAST_DATE }], 'date_in_past');
    if (isSlotPast(to.scheduledDate, to.timeSlot as TimeSlot, now))
      throw badRequest(SLOT_PASSED, [{ path: 'timeSlot', message: SLOT_PASSED }], 'slot_in_past');
    const { jobs, booking } = this.deps;
    await this.changeSlot(actor, id, async (tx, job) => {
      if (!RESCHEDULABLE.includes(job.status))
        throw conflict(
          notReschedulable(job.jobNumber, job.status),
          { currentStatus: job.status },
          'not_reschedulable',
        );
      const from: Slot = { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot };
      if (from.scheduledDate === to.scheduledDate && from.timeSlot === to.timeSlot) return undefined;
      await jobs.moveSlot(tx, id, { ...to, scheduledDay: weekdayName(to.scheduledDate) }, this.now());
      const after = await rereadJob(jobs, tx, id);
      await this.deps.outbox.enqueue(tx, [
        jobRescheduled(after, from, actor.identity.id, this.now(), requestMeta(actor)),
      ]);
      return {
        booking: () => booking.moveReservation(id, to, actor.auth),
        restore: () => booking.moveReservation(id, from, actor.auth),
        committed: (row) => row?.scheduledDate === to.scheduledDate && row.timeSlot === to.timeSlot,
        describe: { op: 'reschedule', from, to },
      };
    });
  }

  /** new / in-progress → cancelled: frees the slot (booking) and keeps the job for the record. */
  async cancel(actor: Actor, id: string): Promise<void> {
    const { jobs, booking } = this.deps;
    await this.changeSlot(actor, id, async (tx, job) => {
      if (!canTransition(job.status, 'cancelled'))
        throw conflict(
          illegalTransitionMessage(job.jobNumber, job.status, 'cancelled'),
          { currentStatus: job.status },
          'illegal_transition',
        );
      const now = this.now();
      await jobs.cancel(tx, id, actor.identity.id, now);
      const after = await rereadJob(jobs, tx, id);
      await this.deps.outbox.enqueue(tx, [
        jobStatusChanged(after, job.status, actor.identity.id, now, requestMeta(actor)),
      ]);
      const slot: Slot = { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot };
      return {
        booking: () => booking.releaseReservation(id, actor.auth),
        restore: () => booking.moveReservation(id, slot, actor.auth),
        committed: (row) => row?.status === 'cancelled',
        describe: { op: 'cancel', slot },
      };
    });
  }

  /** Soft delete (who and when are kept for the accounts); refused while the job has a customer invoice. */
  async remove(actor: Actor, id: string): Promise<{ id: string; jobNumber: string }> {
    const { jobs, invoices, booking } = this.deps;
    let jobNumber = '';
    await this.changeSlot(actor, id, async (tx, job) => {
      jobNumber = job.jobNumber;
      const invoice = await invoices.liveCustomerInvoice(tx, id);
      if (invoice)
        throw conflict(
          hasCustomerInvoice(job.jobNumber, invoice.invoiceNumber),
          { invoiceNumber: invoice.invoiceNumber },
          'has_customer_invoice',
        );
      const now = this.now();
      await jobs.softDelete(tx, id, actor.identity.id, now);
      const after = await rereadJob(jobs, tx, id);
      await this.deps.outbox.enqueue(tx, [jobDeleted(after, actor.identity.id, now, requestMeta(actor))]);
      const slot: Slot = { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot };
      const held = job.status !== 'cancelled'; // a cancelled job's slot was freed when it was cancelled
      return {
        booking: () => (held ? booking.releaseReservation(id, actor.auth) : Promise.resolve()),
        restore: held ? () => booking.moveReservation(id, slot, actor.auth) : undefined,
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
          const job = await lockJobFor(this.deps.jobs, tx, id, actor, true);
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
        const row = await this.deps.jobs.findRow(id).catch(() => undefined);
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
}
