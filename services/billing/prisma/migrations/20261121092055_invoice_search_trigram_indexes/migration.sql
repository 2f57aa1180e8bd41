-- Hand-written: the trigram operator class of the indexes below. Migrations run with search_path = billing, so on a
-- database without pg_trgm the extension is created in the billing schema (trusted extension: needs CREATE on the
-- database, not superuser). Prisma's schema describer does not diff extensions.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "customer_invoices_invoice_number_trgm_idx" ON "customer_invoices" USING GIN ("invoice_number" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "job_snapshots_job_number_trgm_idx" ON "job_snapshots" USING GIN ("job_number" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "job_snapshots_customer_name_trgm_idx" ON "job_snapshots" USING GIN ("customer_name" gin_trgm_ops);
