/**
 * Issue 18 (privacy): the queries behind erasing a customer on request (app/erasure.ts) and the erased values
 * (domain/erasure.ts). Plain SQL on the booking schema; nothing here decides who may erase.
 */
import type { Sql } from './client';
import { ERASED } from '../domain/erasure';

export interface ErasureTarget {
  customerId: string;
  erasedAt: Date | null;
  erasedByUserId: string | null;
}

/** The customer of a job's booking, locked for the erasure (undefined: no booking for that job). */
export async function lockCustomerOfJob(tx: Sql, jobId: string): Promise<ErasureTarget | undefined> {
  const rows = await tx.$queryRawUnsafe<
    { customer_id: string; erased_at: Date | null; erased_by_user_id: string | null }[]
  >(
    `SELECT c.id::text AS customer_id, c.erased_at, c.erased_by_user_id::text AS erased_by_user_id
       FROM booking.bookings b JOIN booking.customers c ON c.id = b.customer_id
      WHERE b.job_id = $1::uuid
        FOR UPDATE OF c`,
    jobId,
  );
  const row = rows[0];
  return row
    ? { customerId: row.customer_id, erasedAt: row.erased_at, erasedByUserId: row.erased_by_user_id }
    : undefined;
}

/** Every booking (and its job) of a customer, oldest first. */
export async function customerBookings(
  tx: Sql,
  customerId: string,
): Promise<{ bookingId: string; jobId: string }[]> {
  const rows = await tx.$queryRawUnsafe<{ id: string; job_id: string }[]>(
    `SELECT id::text, job_id::text FROM booking.bookings WHERE customer_id = $1::uuid ORDER BY created_at, id`,
    customerId,
  );
  return rows.map((r) => ({ bookingId: r.id, jobId: r.job_id }));
}

/**
 * Replaces every personal field of the customer, their vehicles and their bookings, revokes their manage links,
 * deletes their photos (details and bytes) and records the tombstones, in the caller's transaction. Published
 * outbox rows and stored Idempotency-Key answers about those bookings carried the same data: they go too
 * (unpublished outbox rows stay: the other services still need them, and apply them under their own tombstones).
 */
export async function eraseCustomerRows(
  tx: Sql,
  e: { customerId: string; jobIds: string[]; bookingIds: string[]; by: string; reason: string; at: Date },
): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE booking.customers
        SET name = $2, email = 'erased-' || id::text || '@erased.invalid', email_key = 'erased-' || id::text || '@erased.invalid',
            phone = 'Erased', phone_key = '', erased_at = $3, erased_by_user_id = $4::uuid, erasure_reason = $5, updated_at = $3
      WHERE id = $1::uuid`,
    e.customerId,
    ERASED.name,
    e.at,
    e.by,
    e.reason,
  );
  await tx.$executeRawUnsafe(
    `UPDATE booking.vehicles
        SET make = $2, model = $2, color = NULL, registration = 'ERASED-' || left(id::text, 8), updated_at = $3
      WHERE customer_id = $1::uuid`,
    e.customerId,
    ERASED.vehicle,
    e.at,
  );
  if (e.jobIds.length === 0) return;
  // Tombstones first: the bookings trigger then writes the erased values itself (the same ones as a later write).
  await tx.$executeRawUnsafe(
    `INSERT INTO booking.erased_jobs (job_id, customer_id, erased_at)
     SELECT unnest($1::uuid[]), $2::uuid, $3 ON CONFLICT (job_id) DO NOTHING`,
    e.jobIds,
    e.customerId,
    e.at,
  );
  await tx.$executeRawUnsafe(
    `UPDATE booking.bookings SET updated_at = $2 WHERE job_id = ANY($1::uuid[])`,
    e.jobIds,
    e.at,
  );
  await tx.$executeRawUnsafe(
    `UPDATE booking.manage_tokens SET revoked_at = $2 WHERE booking_id = ANY($1::uuid[]) AND revoked_at IS NULL`,
    e.bookingIds,
    e.at,
  );
  await deletePhotosOfJobs(tx, e.jobIds);
  await tx.$executeRawUnsafe(
    `DELETE FROM booking.outbox_events
      WHERE published_at IS NOT NULL AND payload->'data'->>'jobId' = ANY($1::text[])`,
    e.jobIds,
  );
  await tx.$executeRawUnsafe(
    `DELETE FROM booking.idempotency_keys
      WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS j(id) WHERE response::text LIKE '%' || j.id || '%')`,
    [...e.jobIds, ...e.bookingIds],
  );
}

/** Deletes the photos of these jobs: their bytes and their rows. Returns how many photos went. */
export async function deletePhotosOfJobs(tx: Sql, jobIds: string[]): Promise<number> {
  if (jobIds.length === 0) return 0;
  await tx.$executeRawUnsafe(
    `DELETE FROM booking.photo_chunks WHERE photo_id IN (SELECT id FROM booking.job_photos WHERE job_id = ANY($1::uuid[]))`,
    jobIds,
  );
  return tx.$executeRawUnsafe(`DELETE FROM booking.job_photos WHERE job_id = ANY($1::uuid[])`, jobIds);
}
