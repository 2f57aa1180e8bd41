/**
 * Issue 18 (privacy): applying CustomerErased to the jobs schema. The tombstones go in first; touching the rows then
 * runs the triggers of migration customer_erasure, which write the erased values (the same ones any later write
 * gets). Photos' references go; published outbox rows about those jobs carried the same data.
 */
import type { Tx } from './client';

export async function eraseJobs(
  tx: Tx,
  e: { customerId: string; jobIds: string[]; erasedAt: Date },
): Promise<number> {
  if (e.jobIds.length === 0) return 0;
  await tx.$executeRawUnsafe(
    `INSERT INTO jobs.erased_jobs (job_id, customer_id, erased_at)
     SELECT unnest($1::uuid[]), $2::uuid, $3 ON CONFLICT (job_id) DO NOTHING`,
    e.jobIds,
    e.customerId,
    e.erasedAt,
  );
  const jobs = await tx.$executeRawUnsafe(
    `UPDATE jobs.jobs SET updated_at = now() WHERE id = ANY($1::uuid[])`,
    e.jobIds,
  );
  await tx.$executeRawUnsafe(
    `UPDATE jobs.job_booking_changes SET data = data WHERE job_id = ANY($1::uuid[])`,
    e.jobIds,
  );
  await tx.$executeRawUnsafe(`DELETE FROM jobs.job_photos WHERE job_id = ANY($1::uuid[])`, e.jobIds);
  await tx.$executeRawUnsafe(
    `DELETE FROM jobs.outbox_events WHERE published_at IS NOT NULL AND payload->'data'->>'jobId' = ANY($1::text[])`,
    e.jobIds,
  );
  return jobs;
}

/** Issue 18 (privacy): booking deleted these photos of a job (retention): their references go too. */
export async function deletePhotoReferences(tx: Tx, jobId: string, photoIds: string[]): Promise<number> {
  return tx.$executeRawUnsafe(
    `DELETE FROM jobs.job_photos WHERE job_id = $1::uuid AND id = ANY($2::uuid[])`,
    jobId,
    photoIds,
  );
}
