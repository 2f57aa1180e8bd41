-- CreateTable
CREATE TABLE "events" (
    "seq" BIGSERIAL NOT NULL,
    "event_id" UUID NOT NULL,
    "type" VARCHAR(100) NOT NULL,
    "aggregate_type" VARCHAR(30) NOT NULL,
    "aggregate_id" UUID NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "envelope" JSONB NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "customer_invoice_facts" (
    "invoice_id" UUID NOT NULL,
    "invoice_number" VARCHAR(50) NOT NULL,
    "job_id" UUID NOT NULL,
    "job_number" VARCHAR(50) NOT NULL,
    "customer_name" VARCHAR(200) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "issued" BOOLEAN NOT NULL,
    "invoice_date" DATE NOT NULL,
    "due_date" DATE,
    "subtotal" DECIMAL(10,2) NOT NULL,
    "gst_amount" DECIMAL(10,2) NOT NULL,
    "total_amount" DECIMAL(10,2) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "source_event_id" UUID NOT NULL,
    "gst_row" TEXT NOT NULL,

    CONSTRAINT "customer_invoice_facts_pkey" PRIMARY KEY ("invoice_id")
);

-- CreateTable
CREATE TABLE "customer_invoice_revenue_facts" (
    "invoice_id" UUID NOT NULL,
    "category" VARCHAR(30) NOT NULL,
    "amount" DECIMAL(10,2) NOT NULL,
    "issued" BOOLEAN NOT NULL,
    "invoice_date" DATE NOT NULL,

    CONSTRAINT "customer_invoice_revenue_facts_pkey" PRIMARY KEY ("invoice_id","category")
);

-- CreateTable
CREATE TABLE "purchase_invoice_facts" (
    "purchase_invoice_id" UUID NOT NULL,
    "job_id" UUID,
    "invoice_number" VARCHAR(100) NOT NULL,
    "supplier_name" VARCHAR(200) NOT NULL,
    "category" VARCHAR(30) NOT NULL,
    "invoice_date" DATE NOT NULL,
    "due_date" DATE,
    "subtotal" DECIMAL(10,2) NOT NULL,
    "gst_amount" DECIMAL(10,2) NOT NULL,
    "total_amount" DECIMAL(10,2) NOT NULL,
    "is_paid" BOOLEAN NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "source_event_id" UUID NOT NULL,
    "gst_row" TEXT NOT NULL,

    CONSTRAINT "purchase_invoice_facts_pkey" PRIMARY KEY ("purchase_invoice_id")
);

-- CreateTable
CREATE TABLE "expense_facts" (
    "expense_id" UUID NOT NULL,
    "expense_date" DATE NOT NULL,
    "supplier_name" VARCHAR(200) NOT NULL,
    "invoice_number" VARCHAR(100),
    "description" TEXT NOT NULL,
    "category" VARCHAR(30) NOT NULL,
    "amount" DECIMAL(10,2) NOT NULL,
    "gst_amount" DECIMAL(10,2) NOT NULL,
    "subtotal" DECIMAL(10,2) NOT NULL,
    "due_date" DATE,
    "is_paid" BOOLEAN NOT NULL,
    "paid_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "source_event_id" UUID NOT NULL,
    "gst_row" TEXT NOT NULL,

    CONSTRAINT "expense_facts_pkey" PRIMARY KEY ("expense_id")
);

-- CreateTable
CREATE TABLE "job_revenue_facts" (
    "job_id" UUID NOT NULL,
    "job_number" VARCHAR(50) NOT NULL,
    "service_type" VARCHAR(30) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "customer_value" DECIMAL(10,2) NOT NULL,
    "completed_at" TIMESTAMPTZ(3),
    "recognised" BOOLEAN NOT NULL,
    "revenue_date" DATE,
    "last_event_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_revenue_facts_pkey" PRIMARY KEY ("job_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "events_event_id_key" ON "events"("event_id");

-- CreateIndex
CREATE INDEX "events_aggregate_type_aggregate_id_seq_idx" ON "events"("aggregate_type", "aggregate_id", "seq");

-- CreateIndex
CREATE INDEX "customer_invoice_facts_invoice_date_idx" ON "customer_invoice_facts"("invoice_date");

-- CreateIndex
CREATE INDEX "customer_invoice_facts_job_id_idx" ON "customer_invoice_facts"("job_id");

-- CreateIndex
CREATE INDEX "customer_invoice_revenue_facts_invoice_date_idx" ON "customer_invoice_revenue_facts"("invoice_date");

-- CreateIndex
CREATE INDEX "purchase_invoice_facts_invoice_date_idx" ON "purchase_invoice_facts"("invoice_date");

-- CreateIndex
CREATE INDEX "purchase_invoice_facts_due_date_idx" ON "purchase_invoice_facts"("due_date");

-- CreateIndex
CREATE INDEX "expense_facts_expense_date_idx" ON "expense_facts"("expense_date");

-- CreateIndex
CREATE INDEX "expense_facts_due_date_idx" ON "expense_facts"("due_date");

-- CreateIndex
CREATE INDEX "job_revenue_facts_revenue_date_idx" ON "job_revenue_facts"("revenue_date");

-- AddForeignKey
ALTER TABLE "customer_invoice_revenue_facts" ADD CONSTRAINT "customer_invoice_revenue_facts_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "customer_invoice_facts"("invoice_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written (Prisma's schema cannot express these).

-- The event store is append-only: stored events are the source every projection is rebuilt from, so they are
-- never changed or removed by the service. (Retention, if ever needed, is a deliberate migration.)
CREATE FUNCTION "events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'reporting.events is append-only (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER "events_append_only_guard"
  BEFORE UPDATE OR DELETE ON "events"
  FOR EACH ROW EXECUTE FUNCTION "events_append_only"();

CREATE TRIGGER "events_no_truncate_guard"
  BEFORE TRUNCATE ON "events"
  FOR EACH STATEMENT EXECUTE FUNCTION "events_append_only"();

-- Reports only ever read issued customer invoices (sent, paid, overdue) and recognised job revenue.
CREATE INDEX "customer_invoice_facts_issued_date_idx"
  ON "customer_invoice_facts" ("invoice_date") WHERE "issued";
CREATE INDEX "customer_invoice_facts_issued_job_idx"
  ON "customer_invoice_facts" ("job_id") WHERE "issued";
CREATE INDEX "job_revenue_facts_recognised_date_idx"
  ON "job_revenue_facts" ("revenue_date") WHERE "recognised";
-- Upcoming payments: unpaid items by due date.
CREATE INDEX "purchase_invoice_facts_unpaid_due_idx"
  ON "purchase_invoice_facts" ("due_date") WHERE NOT "is_paid";
CREATE INDEX "expense_facts_unpaid_due_idx"
  ON "expense_facts" ("due_date") WHERE NOT "is_paid";
