-- Issue 12 ("prices include GST"): customer invoices carry an amount type, lines and supplier bills may be GST-free,
-- the card surcharge has its own line category, and a prepaid booking's invoice names its payment.

-- AlterTable
ALTER TABLE "business_expenses" ADD COLUMN     "gst_free" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "customer_invoice_items" ADD COLUMN     "gst_free" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
-- Hand-edited: every invoice that exists before this change was issued with GST added on top, so existing rows
-- become 'exclusive' with their stored amounts untouched (nothing is rewritten silently); new invoices default to
-- 'inclusive' (an invoice generated from a job totals the job's GST-inclusive price).
ALTER TABLE "customer_invoices" ADD COLUMN     "amount_type" TEXT NOT NULL DEFAULT 'exclusive',
ADD COLUMN     "payment_intent_id" TEXT;
ALTER TABLE "customer_invoices" ALTER COLUMN "amount_type" SET DEFAULT 'inclusive';

-- AlterTable
ALTER TABLE "purchase_invoices" ADD COLUMN     "gst_free" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "customer_invoices_payment_intent_id_key" ON "customer_invoices"("payment_intent_id");

-- ---------------------------------------------------------------------------------------------------------------
-- Hand-written (Prisma's schema cannot express these)

ALTER TABLE "customer_invoices"
  ADD CONSTRAINT "customer_invoices_amount_type_check" CHECK ("amount_type" IN ('inclusive', 'exclusive'));

-- The card surcharge line of a prepaid booking's invoice.
ALTER TABLE "customer_invoice_items" DROP CONSTRAINT "customer_invoice_items_category_check";
ALTER TABLE "customer_invoice_items"
  ADD CONSTRAINT "customer_invoice_items_category_check" CHECK ("category" IN ('callout', 'tyre', 'labour', 'battery', 'note', 'surcharge'));

-- A job may now have more than one active invoice (a second one for extra work, made on the Create Invoice page once
-- the job is completed, invoiced or paid). "Generate" still makes at most one: billing serialises invoice creation
-- per job by locking the job's row in job_snapshots and answers 409 when an active invoice exists.
DROP INDEX "customer_invoices_active_job_key";
