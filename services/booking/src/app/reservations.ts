/**
 * Moving and freeing a job's slot reservation: the jobs service calls these synchronously (PUT/DELETE
 * /internal/reservations/:jobId) when it reschedules, cancels or deletes a job, so slot lists are right as soon as
 * its call returns; the same operations run again, as no-ops, when its events arrive.
 */
import type { JobRescheduledV1Data, Logger, Outbox, PgExecutor, TimeSlot } from '@tyres/events';
import { conflict, notFound, withSerializationRetry } from '@tyres/service-kit';
import type { Sql } from '../db/client';
import {
  moveReservation,
  releaseReservation,
  reservationOfJob,
  type ReleaseReason,
} from '../db/reservations';
import { moveManageTokenExpiry } from '../db/manage';
import { isSlotTaken } from '../db/slots';
import { manageLinkExpiry } from '../domain/manage';
import { MSG } from '../domain/messages';
import type { BookingWindow } from './booking-window';
import { claimSlot } from './slots';

export type { ReleaseReason };

export interface MovedReservation {
  jobId: string;
  scheduledDate: string;
  timeSlot: string;
}

export class Reservations {
  constructor(
    private readonly deps: {
      sql: PgExecutor;
      outbox: Outbox;
      wake: () => void;
      clock: () => Date;
      window: BookingWindow;
      onSlotsChanged: (date: string) => void;
    },
  ) {}

  /**
   * Moves a job's reservation to (date, slot) in one transaction: the row is updated in place, so there is never a
   * moment where the job holds two slots or another job can take both. 404 without a reservation; 409 when the
   * target is blocked or held by another job. A released reservation (cancelled job) is re-taken if free.
   */
  async move(jobId: string, date: string, slot: string): Promise<MovedReservation> {
    this.deps.window.checkMove(date, slot);
    let from: string | undefined;
    const run = () =>
      this.deps.sql.$transaction(async (tx) => {
        const now = this.deps.clock();
        const existing = await reservationOfJob(tx, jobId);
        if (!existing) throw notFound('No slot reservation for this job');
        from = existing.date;
        if (existing.date === date && existing.timeSlot === slot && !existing.released)
          return { jobId, scheduledDate: date, timeSlot: slot };
        const outcome = await claimSlot(tx, this.deps.outbox, date, slot, now, jobId);
        if (outcome !== 'reserved')
          throw conflict(
            MSG.slotNoLongerAvailable,
            undefined,
            outcome === 'blocked' ? 'slot_unavailable' : 'slot_taken',
          );
        await moveReservation(tx, jobId, date, slot);
        // The customer's manage link lives until the new slot's end + 7 days.
        await moveManageTokenExpiry(tx, jobId, manageLinkExpiry(date, slot as TimeSlot));
        return { jobId, scheduledDate: date, timeSlot: slot };
      });
    try {
      const moved = await withSerializationRetry(run, 4);
      this.deps.onSlotsChanged(date);
      if (from && from !== date) this.deps.onSlotsChanged(from);
      this.deps.wake();
      return moved;
    } catch (err) {
      if (isSlotTaken(err)) throw conflict(MSG.slotNoLongerAvailable, undefined, 'slot_taken');
      throw err;
    }
  }

  /** Frees a job's slot. Idempotent: a released or unknown reservation is left alone. Returns whether it freed one. */
  async release(jobId: string, reason: ReleaseReason): Promise<boolean> {
    const date = await releaseReservation(this.deps.sql, jobId, reason, this.deps.clock());
    if (date) this.deps.onSlotsChanged(date);
    return Boolean(date);
  }

  /**
   * JobDeleted / JobStatusChanged(cancelled), in the inbox transaction `tx`: frees the slot unless the reservation
   * changed after `at` (an old event never undoes a newer call). Returns whether it freed one.
   */
  async releaseOnEvent(tx: Sql, jobId: string, reason: ReleaseReason, at: Date): Promise<boolean> {
    const date = await releaseReservation(tx, jobId, reason, this.deps.clock(), at);
    return Boolean(date);
  }

  /**
   * JobRescheduled, in the inbox transaction `tx`: normally the PUT already moved the reservation (then this is a
   * no-op). If the reservation is still at `from` and nothing changed it since, move it; if `to` is not free any
   * more, log and leave it (jobs only emits after booking accepted the move, so something newer happened).
   */
  async moveOnEvent(tx: Sql, data: JobRescheduledV1Data, logger: Logger): Promise<'moved' | 'unchanged'> {
    const { jobId, from, to, rescheduledAt } = data;
    const r = await reservationOfJob(tx, jobId);
    if (!r || r.released) return 'unchanged';
    if (r.date === to.scheduledDate && r.timeSlot === to.timeSlot) return 'unchanged';
    if (
      r.date !== from.scheduledDate ||
      r.timeSlot !== from.timeSlot ||
      r.updatedAt > new Date(rescheduledAt)
    )
      return 'unchanged';
    const outcome = await claimSlot(
      tx,
      this.deps.outbox,
      to.scheduledDate,
      to.timeSlot,
      this.deps.clock(),
      jobId,
    );
    if (outcome !== 'reserved') {
      logger.warn(
        { jobId, to, outcome },
        'JobRescheduled: target slot not free; reservation left where it is',
      );
      return 'unchanged';
    }
    await moveReservation(tx, jobId, to.scheduledDate, to.timeSlot);
    await moveManageTokenExpiry(tx, jobId, manageLinkExpiry(to.scheduledDate, to.timeSlot));
    logger.info(
      { jobId, from, to },
      'reservation moved from JobRescheduled (the internal call had not done it)',
    );
    return 'moved';
  }
}
