-- Issue 12: a job's customerValue is GST-inclusive (the price the customer was quoted and booked). The P&L counts
-- its ex-GST part: customerValue − customerValue ÷ 11, half-up to the cent (kernel gstInInclusive; Postgres
-- round(numeric) also rounds halves away from zero, so the backfill equals what the projection now computes and a
-- rebuild changes nothing).

-- AlterTable
ALTER TABLE "job_revenue_facts" ADD COLUMN     "value_ex_gst" DECIMAL(10,2);
UPDATE "job_revenue_facts" SET "value_ex_gst" = "customer_value" - round("customer_value" / 11, 2);
ALTER TABLE "job_revenue_facts" ALTER COLUMN "value_ex_gst" SET NOT NULL;

-- Uninvoiced job revenue (P&L) stays index-only: the covering index carries the ex-GST value it sums.
DROP INDEX "job_revenue_facts_recognised_cover_idx";
CREATE INDEX "job_revenue_facts_recognised_cover_idx"
  ON "job_revenue_facts" ("revenue_date") INCLUDE ("job_id", "service_type", "value_ex_gst") WHERE "recognised";
