-- CreateTable
CREATE TABLE "gst_day_blocks" (
    "kind" VARCHAR(10) NOT NULL,
    "day" DATE NOT NULL,
    "gst_amount" DECIMAL(14,2) NOT NULL,
    "row_count" INTEGER NOT NULL,
    "rows" TEXT NOT NULL,

    CONSTRAINT "gst_day_blocks_pkey" PRIMARY KEY ("kind","day")
);

-- CreateTable
CREATE TABLE "revenue_daily" (
    "day" DATE NOT NULL,
    "category" VARCHAR(30) NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,

    CONSTRAINT "revenue_daily_pkey" PRIMARY KEY ("day","category")
);

-- CreateTable
CREATE TABLE "cost_daily" (
    "day" DATE NOT NULL,
    "source" VARCHAR(20) NOT NULL,
    "supplier_name" VARCHAR(200) NOT NULL,
    "category" VARCHAR(30) NOT NULL,
    "is_paid" BOOLEAN NOT NULL,
    "total_amount" DECIMAL(14,2) NOT NULL,
    "subtotal" DECIMAL(14,2) NOT NULL,
    "item_count" INTEGER NOT NULL,

    CONSTRAINT "cost_daily_pkey" PRIMARY KEY ("day","source","supplier_name","category","is_paid")
);

-- CreateTable
CREATE TABLE "dirty_days" (
    "kind" VARCHAR(10) NOT NULL,
    "day" DATE NOT NULL,
    "dirtied_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dirty_days_pkey" PRIMARY KEY ("kind","day")
);
-- Hand-written (Prisma's schema cannot express partial or covering indexes).

-- Uninvoiced job revenue (P&L) reads recognised jobs by date with an anti-join on issued invoices: index-only.
DROP INDEX "job_revenue_facts_recognised_date_idx";
CREATE INDEX "job_revenue_facts_recognised_cover_idx"
  ON "job_revenue_facts" ("revenue_date") INCLUDE ("job_id", "service_type", "customer_value") WHERE "recognised";

-- Overdue and upcoming payables read only unpaid items, by due date: index-only.
DROP INDEX "purchase_invoice_facts_unpaid_due_idx";
CREATE INDEX "purchase_invoice_facts_unpaid_due_idx"
  ON "purchase_invoice_facts" ("due_date")
  INCLUDE ("invoice_date", "purchase_invoice_id", "supplier_name", "invoice_number", "total_amount") WHERE NOT "is_paid";
DROP INDEX "expense_facts_unpaid_due_idx";
CREATE INDEX "expense_facts_unpaid_due_idx"
  ON "expense_facts" ("due_date")
  INCLUDE ("expense_date", "expense_id", "supplier_name", "invoice_number", "amount") WHERE NOT "is_paid";
