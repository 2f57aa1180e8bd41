/**
 * Issue 18 (privacy): applying CustomerErased to the billing schema. Invoices, their lines, amounts, GST and
 * payments stay (the tax records the law requires: docs/decisions.md); the job snapshots they show the customer
 * from are erased by the triggers of migration customer_erasure once the tombstones are in. Stored PDFs carried the
 * customer's name and address: they are deleted and the invoices' revision bumped, so the next download builds a
 * new PDF showing "Erased customer" (and a PDF being built meanwhile is never current). Invoice emails lose their
 * address and message; published outbox rows and stored answers about those jobs go.
 */
import type { Tx } from './client';

export async function eraseBillingJobs(
  tx: Tx,
  e: { customerId: string; jobIds: string[]; erasedAt: Date },
): Promise<{ invoices: number }> {
  if (e.jobIds.length === 0) return { invoices: 0 };
  await tx.$executeRawUnsafe(
    `INSERT INTO billing.erased_jobs (job_id, customer_id, erased_at)
     SELECT unnest($1::uuid[]), $2::uuid, $3 ON CONFLICT (job_id) DO NOTHING`,
    e.jobIds,
    e.customerId,
    e.erasedAt,
  );
  await tx.$executeRawUnsafe(
    `UPDATE billing.job_snapshots SET updated_at = now() WHERE job_id = ANY($1::uuid[])`,
    e.jobIds,
  );
  const invoiceIds = (
    await tx.$queryRawUnsafe<{ id: string }[]>(
      `UPDATE billing.customer_invoices SET revision = revision + 1
        WHERE job_id = ANY($1::uuid[]) RETURNING id::text`,
      e.jobIds,
    )
  ).map((r) => r.id);
  if (invoiceIds.length > 0) {
    await tx.$executeRawUnsafe(
      `DELETE FROM billing.customer_invoice_pdfs WHERE customer_invoice_id = ANY($1::uuid[])`,
      invoiceIds,
    );
    await tx.$executeRawUnsafe(
      `UPDATE billing.email_deliveries SET to_address = to_address WHERE customer_invoice_id = ANY($1::uuid[])`,
      invoiceIds,
    );
  }
  const ids = [...e.jobIds, ...invoiceIds];
  await tx.$executeRawUnsafe(
    `DELETE FROM billing.outbox_events
      WHERE published_at IS NOT NULL
        AND (payload->'data'->>'jobId' = ANY($1::text[]) OR payload->'data'->>'id' = ANY($1::text[]))`,
    ids,
  );
  await tx.$executeRawUnsafe(
    `DELETE FROM billing.idempotency_keys
      WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS j(id) WHERE response::text LIKE '%' || j.id || '%')`,
    ids,
  );
  return { invoices: invoiceIds.length };
}
