/** Queries on a job's slot reservation (app/reservations.ts moves and frees it). */
import type { Sql } from './client';

export type ReleaseReason = 'cancelled' | 'deleted';

export interface JobReservation {
  date: string;
  timeSlot: string;
  released: boolean;
  updatedAt: Date;
}

/** A job's reservation (live or released), if it ever had one. */
export async function reservationOfJob(db: Sql, jobId: string): Promise<JobReservation | undefined> {
  const [row] = await db.$queryRawUnsafe<
    { date: string; time_slot: string; released: boolean; updated_ms: string | number }[]
  >(
    `SELECT to_char(date, 'YYYY-MM-DD') AS date, time_slot, released_at IS NOT NULL AS released,
            floor(extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms
       FROM booking.slot_reservations WHERE job_id = $1::uuid`,
    jobId,
  );
  return row
    ? {
        date: row.date,
        timeSlot: row.time_slot,
        released: row.released,
        updatedAt: new Date(Number(row.updated_ms)),
      }
    : undefined;
}

/** Moves a job's reservation in place to (date, slot), live again if it had been released. */
export async function moveReservation(db: Sql, jobId: string, date: string, slot: string): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE booking.slot_reservations
        SET date = $2::date, time_slot = $3, released_at = NULL, release_reason = NULL, updated_at = now()
      WHERE job_id = $1::uuid`,
    jobId,
    date,
    slot,
  );
}

/**
 * The release statement. With `notAfter` (the time of the event asking for it), a reservation changed later than
 * that (e.g. re-taken by a newer reschedule) is left alone: an old event never undoes a newer call. updated_at is
 * always the database's clock (real time), the business clock only decides "today" and expiry. Returns the date
 * freed, if any.
 */
export async function releaseReservation(
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
