/**
 * Issue 18 (privacy): applying CustomerErased to the reporting schema. The stored events of those jobs (and of their
 * invoices) are rewritten without the personal data (the only rewrite the append-only guard allows, in a
 * transaction that set reporting.erasure), so a rebuild cannot bring it back; the GST report's rows show "Erased
 * customer" (trigger of migration customer_erasure) and their days are marked for the day refresher. Suburbs,
 * amounts, dates and job numbers stay: none identifies a person on its own (docs/decisions.md).
 */
import type { SqlExecutor } from '@tyres/events';

export async function eraseReportingJobs(
  tx: SqlExecutor,
  e: { customerId: string; jobIds: string[]; erasedAt: Date },
): Promise<{ events: number; invoices: number }> {
  if (e.jobIds.length === 0) return { events: 0, invoices: 0 };
  await tx.$executeRawUnsafe(
    `INSERT INTO reporting.erased_jobs (job_id, customer_id, erased_at)
     SELECT unnest($1::uuid[]), $2::uuid, $3 ON CONFLICT (job_id) DO NOTHING`,
    e.jobIds,
    e.customerId,
    e.erasedAt,
  );
  const invoices = await tx.$queryRawUnsafe<{ invoice_id: string; invoice_date: string }[]>(
    `UPDATE reporting.customer_invoice_facts SET customer_name = customer_name
      WHERE job_id = ANY($1::uuid[]) RETURNING invoice_id::text, invoice_date::text`,
    e.jobIds,
  );
  if (invoices.length > 0)
    await tx.$executeRawUnsafe(
      // Append-only marks (src/db/day-summaries.ts): one new row per day, no upsert.
      `INSERT INTO reporting.dirty_days (kind, day)
       SELECT DISTINCT 'customer', d::date FROM unnest($1::text[]) AS d`,
      invoices.map((i) => i.invoice_date),
    );
  await tx.$queryRawUnsafe(`SELECT set_config('reporting.erasure', 'on', true)`);
  const events = await tx.$executeRawUnsafe(
    `UPDATE reporting.events SET envelope = reporting.erase_envelope(envelope)
      WHERE aggregate_id = ANY($1::uuid[]) OR envelope->'data'->>'jobId' = ANY($2::text[])`,
    [...e.jobIds, ...invoices.map((i) => i.invoice_id)],
    e.jobIds,
  );
  await tx.$queryRawUnsafe(`SELECT set_config('reporting.erasure', 'off', true)`);
  return { events, invoices: invoices.length };
}
