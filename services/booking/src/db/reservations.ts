/**
 * Moving and freeing a job's slot reservation: the jobs service calls these synchronously (PUT/DELETE
 * /internal/reservations/:jobId) when it reschedules, cancels or deletes a job, so slot lists are right as soon as
 * its call returns; the same operations run again, as no-ops, when its events arrive.
 */
import type { Outbox, PgExecutor } from '@tyres/events';
import { conflict, notFound } from '@tyres/service-kit';
import { MSG } from '../domain/messages';
import { withTxRetry, type Sql } from './client';
import { claimSlot, isSlotTaken } from './slots';

export type ReleaseReason = 'cancelled' | 'deleted';

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
      onSlotsChanged: (date: string) => void;
    },
  ) {}

  /**
   * Moves a job's reservation to (date, slot) in one transaction: the row is updated in place, so there is never a
   * moment where the job holds two slots or another job can take both. 404 without a reservation; 409 when the
   * target is blocked or held by another job. A released reservation (cancelled job) is re-taken if free.
   */
  async move(jobId: string, date: string, slot: string): Promise<MovedReservation> {
    let from: string | undefined;
    const run = () =>
      this.deps.sql.$transaction(async (tx) => {
        const now = this.deps.clock();
        const [existing] = await tx.$queryRawUnsafe<{ date: string; time_slot: string; released: boolean }[]>(
          `SELECT to_char(date, 'YYYY-MM-DD') AS date, time_slot, released_at IS NOT NULL AS released
             FROM booking.slot_reservations WHERE job_id = $1::uuid`,
          jobId,
        );
        if (!existing) throw notFound('No slot reservation for this job');
        from = existing.date;
        if (existing.date === date && existing.time_slot === slot && !existing.released)
          return { jobId, scheduledDate: date, timeSlot: slot };
        const outcome = await claimSlot(tx, this.deps.outbox, date, slot, now, jobId);
        if (outcome !== 'reserved')
          throw conflict(
            MSG.slotNoLongerAvailable,
            undefined,
            outcome === 'blocked' ? 'slot_unavailable' : 'slot_taken',
          );
        await tx.$executeRawUnsafe(
          `UPDATE booking.slot_reservations
              SET date = $2::date, time_slot = $3, released_at = NULL, release_reason = NULL, updated_at = now()
            WHERE job_id = $1::uuid`,
          jobId,
          date,
          slot,
        );
        return { jobId, scheduledDate: date, timeSlot: slot };
      });
    try {
      const moved = await withTxRetry(run);
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
    const date = await releaseInTx(this.deps.sql, jobId, reason, this.deps.clock());
    if (date) this.deps.onSlotsChanged(date);
    return Boolean(date);
  }
}

/**
 * The release statement. With `notAfter` (the time of the event asking for it), a reservation changed later than
 * that (e.g. re-taken by a newer reschedule) is left alone: an old event never undoes a newer call. updated_at is
 * always the database's clock (real time), the business clock only decides "today" and expiry. Returns the date
 * freed, if any.
 */
export async function releaseInTx(
  db: Sql,
  jobId: string,
  reason: ReleaseReason,
  now: Date,
  notAfter?: Date,
): Promise<string | undefined> {
  const rows = await db.$queryRawUnsafe<{ date: string }[]>(
    `UPDATE booking.slot_reservations
        SET released_at = $3::timestamptz, release_reason = $2, updated_at = now()
      WHERE job_id = $1::uuid AND released_at IS NULL AND ($4::timestamptz IS NULL OR updated_at <= $4::timestamptz)
      RETURNING to_char(date, 'YYYY-MM-DD') AS date`,
    jobId,
    reason,
    now.toISOString(),
    notAfter ? notAfter.toISOString() : null,
  );
  return rows[0]?.date;
}
