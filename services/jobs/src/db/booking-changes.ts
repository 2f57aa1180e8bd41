import type { Tx } from './client';
import type { Prisma } from './generated/client';

/** What was done with a change booking announced (jobs.job_booking_changes.outcome). */
export type ChangeOutcome = 'waiting' | 'applied' | 'stale' | 'not_applied';

export interface BookingChangeRow {
  eventId: string;
  jobId: string;
  type: string;
  occurredAt: Date;
  data: unknown;
}

/**
 * jobs.job_booking_changes: booking's changes to a job (reschedule, cancel, corrections), one row per event: parked
 * while the job is not here yet, then the record of what was done with each. Queries only.
 */
export class BookingChanges {
  /** Records the change with its outcome; a repeat of the same event id changes nothing. */
  async record(
    tx: Tx,
    change: BookingChangeRow & { outcome: ChangeOutcome; note?: string; handledAt?: Date },
  ): Promise<void> {
    await tx.jobBookingChange.createMany({
      skipDuplicates: true,
      data: [
        {
          eventId: change.eventId,
          jobId: change.jobId,
          type: change.type,
          occurredAt: change.occurredAt,
          data: change.data as Prisma.InputJsonValue,
          outcome: change.outcome,
          note: change.note ?? null,
          handledAt: change.outcome === 'waiting' ? null : (change.handledAt ?? new Date()),
        },
      ],
    });
  }

  /** Settles a parked change once its job arrived. */
  async settle(tx: Tx, eventId: string, outcome: ChangeOutcome, note?: string): Promise<void> {
    await tx.jobBookingChange.update({
      where: { eventId },
      data: { outcome, note: note ?? null, handledAt: new Date() },
    });
  }

  /** The job's parked changes, in the order they happened at booking. */
  async waiting(tx: Tx, jobId: string): Promise<BookingChangeRow[]> {
    return tx.jobBookingChange.findMany({
      where: { jobId, outcome: 'waiting' },
      orderBy: [{ occurredAt: 'asc' }, { eventId: 'asc' }],
      select: { eventId: true, jobId: true, type: true, occurredAt: true, data: true },
    });
  }

  /**
   * Whether a correction of `field` (phone, notes or vehicle) that happened after `at` was applied already: then an
   * older one delivered late must not overwrite it.
   */
  async newerCorrectionApplied(tx: Tx, jobId: string, field: string, at: Date): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<{ found: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM "jobs"."job_booking_changes"
                      WHERE "job_id" = $1::uuid AND "outcome" = 'applied' AND "type" = 'booking.updated.v1'
                        AND "occurred_at" > $2 AND "data"->'data' ? $3) AS "found"`,
      jobId,
      at,
      field,
    );
    return rows[0]?.found ?? false;
  }
}
