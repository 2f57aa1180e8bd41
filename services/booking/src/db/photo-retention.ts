/**
 * Issue 18 (privacy): photos are deleted PHOTO_RETENTION_MONTHS after their job ended (workers/photo-retention.ts):
 * paid, or cancelled or deleted without being paid. `photo_retention.paid_at` holds that instant (the column kept its
 * first name: for a job never paid it is when it was cancelled or deleted).
 */
import type { Sql } from './client';
import { deletePhotosOfJobs } from './erasure';

/**
 * The job ended (paid, cancelled or deleted) at this instant: its photos' retention period starts. The first end
 * counts: a replayed or later event (a no-show's charge paid later, a cancelled job deleted) does not move it.
 */
export async function recordJobEnded(tx: Sql, jobId: string, paidAt: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO booking.photo_retention (job_id, paid_at) VALUES ($1::uuid, $2) ON CONFLICT (job_id) DO NOTHING`,
    jobId,
    paidAt,
  );
}

/**
 * Deletes the photos of up to `limit` jobs paid before `paidBefore` (rows locked SKIP LOCKED, so replicas sweeping
 * at once share the work) and marks them done. Returns each job handled with the ids of the photos that went.
 */
export async function deleteDuePhotos(
  tx: Sql,
  paidBefore: Date,
  now: Date,
  limit: number,
): Promise<{ jobId: string; photoIds: string[] }[]> {
  const due = await tx.$queryRawUnsafe<{ job_id: string; photo_ids: string[] }[]>(
    `SELECT r.job_id::text,
            coalesce((SELECT array_agg(p.id::text ORDER BY p.uploaded_at, p.id) FROM booking.job_photos p
                       WHERE p.job_id = r.job_id), '{}') AS photo_ids
       FROM booking.photo_retention r
      WHERE r.photos_deleted_at IS NULL AND r.paid_at < $1
      ORDER BY r.paid_at LIMIT $2 FOR UPDATE OF r SKIP LOCKED`,
    paidBefore,
    limit,
  );
  const jobIds = due.map((r) => r.job_id);
  if (jobIds.length === 0) return [];
  await deletePhotosOfJobs(tx, jobIds);
  await tx.$executeRawUnsafe(
    `UPDATE booking.photo_retention SET photos_deleted_at = $2 WHERE job_id = ANY($1::uuid[])`,
    jobIds,
    now,
  );
  return due.map((r) => ({ jobId: r.job_id, photoIds: r.photo_ids }));
}
