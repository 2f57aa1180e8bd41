import type { Executor, Tx } from './client';

/** What billing last said about one customer invoice of a job (CustomerInvoiceIssued / Updated, v1 or v2). */
export interface CustomerInvoiceFact {
  invoiceId: string;
  jobId: string;
  invoiceNumber: string;
  status: string;
  updatedAt: string;
}

/** What billing last said about one purchase invoice (PurchaseInvoiceRecorded / Updated). */
export interface PurchaseInvoiceFact {
  purchaseInvoiceId: string;
  jobId: string | null;
  invoiceNumber: string;
  totalAmount: string;
  updatedAt: string;
}

/**
 * The jobs service's copy of billing's invoices: customer invoices (the delete guard, and the invoices a job's status
 * follows) and purchase invoices (a job's purchase cost). Snapshots from events, newest wins; a deleted invoice stays
 * as a tombstone so a late update cannot bring it back.
 */
export class InvoiceRecords {
  /** The job's first live customer invoice, or undefined. */
  async liveCustomerInvoice(db: Executor, jobId: string): Promise<{ invoiceNumber: string } | undefined> {
    const rows = await db.$queryRawUnsafe<{ invoiceNumber: string }[]>(
      `SELECT "invoice_number" AS "invoiceNumber" FROM "jobs"."job_customer_invoices"
       WHERE "job_id" = $1::uuid AND "deleted_at" IS NULL ORDER BY "invoice_number" LIMIT 1`,
      jobId,
    );
    return rows[0];
  }

  /** Statuses of the job's customer invoices as billing last reported them (deleted ones left out). */
  async liveCustomerInvoiceStatuses(db: Executor, jobId: string): Promise<string[]> {
    const rows = await db.$queryRawUnsafe<{ status: string }[]>(
      `SELECT "status" FROM "jobs"."job_customer_invoices" WHERE "job_id" = $1::uuid AND "deleted_at" IS NULL`,
      jobId,
    );
    return rows.map((r) => r.status);
  }

  /** Stores the snapshot unless a newer one is stored or the invoice was deleted. */
  async upsertCustomerInvoice(tx: Tx, fact: CustomerInvoiceFact): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "jobs"."job_customer_invoices" ("invoice_id", "job_id", "invoice_number", "status", "source_updated_at")
       VALUES ($1::uuid, $2::uuid, $3, $4, $5::timestamptz)
       ON CONFLICT ("invoice_id") DO UPDATE SET
         "job_id" = EXCLUDED."job_id", "invoice_number" = EXCLUDED."invoice_number",
         "status" = EXCLUDED."status", "source_updated_at" = EXCLUDED."source_updated_at"
       WHERE "job_customer_invoices"."deleted_at" IS NULL
         AND "job_customer_invoices"."source_updated_at" <= EXCLUDED."source_updated_at"`,
      fact.invoiceId,
      fact.jobId,
      fact.invoiceNumber,
      fact.status,
      fact.updatedAt,
    );
  }

  async deleteCustomerInvoice(
    tx: Tx,
    fact: { invoiceId: string; jobId: string; invoiceNumber: string; deletedAt: string },
  ): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "jobs"."job_customer_invoices"
         ("invoice_id", "job_id", "invoice_number", "status", "source_updated_at", "deleted_at")
       VALUES ($1::uuid, $2::uuid, $3, 'deleted', $4::timestamptz, $4::timestamptz)
       ON CONFLICT ("invoice_id") DO UPDATE SET "deleted_at" = EXCLUDED."deleted_at"`,
      fact.invoiceId,
      fact.jobId,
      fact.invoiceNumber,
      fact.deletedAt,
    );
  }

  /** The job a stored purchase invoice is recorded against (null: none, undefined: not stored). */
  async purchaseInvoiceJob(tx: Tx, purchaseInvoiceId: string): Promise<string | null | undefined> {
    const rows = await tx.$queryRawUnsafe<{ jobId: string | null }[]>(
      `SELECT "job_id" AS "jobId" FROM "jobs"."job_purchase_invoices" WHERE "purchase_invoice_id" = $1::uuid`,
      purchaseInvoiceId,
    );
    return rows[0]?.jobId;
  }

  /** Stores the snapshot unless a newer one is stored or the invoice was deleted; false when nothing changed. */
  async upsertPurchaseInvoice(tx: Tx, fact: PurchaseInvoiceFact): Promise<boolean> {
    const applied = await tx.$executeRawUnsafe(
      `INSERT INTO "jobs"."job_purchase_invoices" ("purchase_invoice_id", "job_id", "invoice_number", "total_amount", "source_updated_at")
       VALUES ($1::uuid, $2::uuid, $3, $4::numeric, $5::timestamptz)
       ON CONFLICT ("purchase_invoice_id") DO UPDATE SET
         "job_id" = EXCLUDED."job_id", "invoice_number" = EXCLUDED."invoice_number",
         "total_amount" = EXCLUDED."total_amount", "source_updated_at" = EXCLUDED."source_updated_at"
       WHERE "job_purchase_invoices"."deleted_at" IS NULL
         AND "job_purchase_invoices"."source_updated_at" <= EXCLUDED."source_updated_at"`,
      fact.purchaseInvoiceId,
      fact.jobId,
      fact.invoiceNumber,
      fact.totalAmount,
      fact.updatedAt,
    );
    return Number(applied) > 0;
  }

  /** Marks the purchase invoice deleted (a tombstone); returns the job it was recorded against, if any. */
  async deletePurchaseInvoice(
    tx: Tx,
    fact: { purchaseInvoiceId: string; jobId: string | null; invoiceNumber: string; deletedAt: string },
  ): Promise<string | null | undefined> {
    const rows = await tx.$queryRawUnsafe<{ jobId: string | null }[]>(
      `INSERT INTO "jobs"."job_purchase_invoices"
         ("purchase_invoice_id", "job_id", "invoice_number", "total_amount", "source_updated_at", "deleted_at")
       VALUES ($1::uuid, $2::uuid, $3, 0, $4::timestamptz, $4::timestamptz)
       ON CONFLICT ("purchase_invoice_id") DO UPDATE SET "deleted_at" = EXCLUDED."deleted_at"
       RETURNING "job_id" AS "jobId"`,
      fact.purchaseInvoiceId,
      fact.jobId,
      fact.invoiceNumber,
      fact.deletedAt,
    );
    return rows[0]?.jobId;
  }

  /** jobs.purchase_cost = sum of the job's live purchase invoices; purchase_invoice = the latest number. */
  async recomputePurchaseCost(tx: Tx, jobId: string): Promise<void> {
    await tx.$executeRawUnsafe(
      `UPDATE "jobs"."jobs" j
       SET "purchase_cost" = s."total", "purchase_invoice" = s."latest", "updated_at" = now()
       FROM (SELECT sum("total_amount") AS "total",
                    (array_agg("invoice_number" ORDER BY "source_updated_at" DESC))[1] AS "latest"
             FROM "jobs"."job_purchase_invoices" WHERE "job_id" = $1::uuid AND "deleted_at" IS NULL) s
       WHERE j."id" = $1::uuid`,
      jobId,
    );
  }
}
