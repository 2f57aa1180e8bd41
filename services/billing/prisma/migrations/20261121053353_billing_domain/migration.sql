-- CreateTable
CREATE TABLE "job_snapshots" (
    "job_id" UUID NOT NULL,
    "job_number" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'new',
    "service_type" TEXT NOT NULL,
    "scheduled_date" DATE NOT NULL,
    "time_slot" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "suburb" TEXT NOT NULL,
    "postcode" TEXT NOT NULL,
    "tyre_size" TEXT,
    "tyre_quantity" INTEGER,
    "tyre_brand" TEXT,
    "notes" TEXT,
    "customer_value" DECIMAL(10,2) NOT NULL,
    "payment_method" TEXT NOT NULL,
    "payment_status" TEXT NOT NULL,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT NOT NULL,
    "customer_phone" TEXT NOT NULL,
    "vehicle_make" TEXT NOT NULL,
    "vehicle_model" TEXT NOT NULL,
    "vehicle_year" INTEGER NOT NULL,
    "vehicle_color" TEXT,
    "vehicle_registration" TEXT NOT NULL,
    "assigned_technician_id" UUID,
    "assignment_at" TIMESTAMPTZ(3),
    "status_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "deleted_at" TIMESTAMPTZ(3),
    "booked_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_snapshots_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "number_series" (
    "name" TEXT NOT NULL,
    "last_value" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "number_series_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "customer_invoices" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "invoice_number" TEXT NOT NULL,
    "invoice_date" DATE NOT NULL,
    "due_date" DATE,
    "subtotal_amount" DECIMAL(10,2) NOT NULL DEFAULT 0,
    "gst_amount" DECIMAL(10,2) NOT NULL DEFAULT 0,
    "total_amount" DECIMAL(10,2) NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "pdf_path" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "paid_at" TIMESTAMPTZ(3),
    "revision" INTEGER NOT NULL DEFAULT 1,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customer_invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_invoice_items" (
    "id" UUID NOT NULL,
    "customer_invoice_id" UUID NOT NULL,
    "description" TEXT NOT NULL,
    "category" TEXT NOT NULL DEFAULT 'labour',
    "quantity" INTEGER NOT NULL DEFAULT 1,
    "unit_price" DECIMAL(10,2) NOT NULL,
    "total_price" DECIMAL(10,2) NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "customer_invoice_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_invoice_pdfs" (
    "customer_invoice_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "generated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customer_invoice_pdfs_pkey" PRIMARY KEY ("customer_invoice_id")
);

-- CreateTable
CREATE TABLE "email_deliveries" (
    "id" UUID NOT NULL,
    "job_key" TEXT NOT NULL,
    "customer_invoice_id" UUID,
    "invoice_number" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "message_id" TEXT,
    "error" TEXT,
    "raw_message" TEXT,
    "attachments" JSONB NOT NULL DEFAULT '[]',
    "requested_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "email_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "purchase_invoices" (
    "id" UUID NOT NULL,
    "job_id" UUID,
    "supplier_name" TEXT NOT NULL,
    "invoice_number" TEXT NOT NULL,
    "invoice_date" DATE NOT NULL,
    "total_amount" DECIMAL(10,2) NOT NULL,
    "gst_amount" DECIMAL(10,2) NOT NULL DEFAULT 0,
    "subtotal" DECIMAL(10,2) NOT NULL,
    "category" TEXT NOT NULL DEFAULT 'cost-of-goods-sold',
    "due_date" DATE,
    "is_paid" BOOLEAN NOT NULL DEFAULT false,
    "paid_at" TIMESTAMPTZ(3),
    "notes" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "purchase_invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "business_expenses" (
    "id" UUID NOT NULL,
    "expense_date" DATE NOT NULL,
    "supplier_name" TEXT NOT NULL,
    "invoice_number" TEXT,
    "description" TEXT NOT NULL,
    "amount" DECIMAL(10,2) NOT NULL,
    "gst_amount" DECIMAL(10,2) NOT NULL,
    "category" TEXT NOT NULL,
    "due_date" DATE,
    "is_paid" BOOLEAN NOT NULL DEFAULT false,
    "paid_at" TIMESTAMPTZ(3),
    "notes" TEXT,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "business_expenses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" UUID NOT NULL,
    "booking_token_hash" TEXT NOT NULL,
    "quote_id" UUID,
    "job_id" UUID,
    "original_amount" DECIMAL(10,2) NOT NULL,
    "surcharge_amount" DECIMAL(10,2) NOT NULL,
    "total_amount" DECIMAL(10,2) NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'AUD',
    "mode" TEXT NOT NULL,
    "provider_intent_id" TEXT NOT NULL,
    "client_secret" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'requires_payment_method',
    "failure_code" TEXT,
    "failure_message" TEXT,
    "succeeded_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider_intent_id" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "job_snapshots_assigned_technician_id_idx" ON "job_snapshots"("assigned_technician_id");

-- CreateIndex
CREATE UNIQUE INDEX "customer_invoices_invoice_number_key" ON "customer_invoices"("invoice_number");

-- CreateIndex
CREATE INDEX "customer_invoices_job_id_idx" ON "customer_invoices"("job_id");

-- CreateIndex
CREATE INDEX "customer_invoices_status_due_date_idx" ON "customer_invoices"("status", "due_date");

-- CreateIndex
CREATE INDEX "customer_invoices_created_at_id_idx" ON "customer_invoices"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "customer_invoice_items_customer_invoice_id_position_idx" ON "customer_invoice_items"("customer_invoice_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "email_deliveries_job_key_key" ON "email_deliveries"("job_key");

-- CreateIndex
CREATE INDEX "email_deliveries_customer_invoice_id_created_at_idx" ON "email_deliveries"("customer_invoice_id", "created_at");

-- CreateIndex
CREATE INDEX "email_deliveries_created_at_idx" ON "email_deliveries"("created_at");

-- CreateIndex
CREATE INDEX "purchase_invoices_job_id_idx" ON "purchase_invoices"("job_id");

-- CreateIndex
CREATE INDEX "business_expenses_category_idx" ON "business_expenses"("category");

-- CreateIndex
CREATE INDEX "business_expenses_expense_date_idx" ON "business_expenses"("expense_date");

-- CreateIndex
CREATE UNIQUE INDEX "payments_booking_token_hash_key" ON "payments"("booking_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "payments_provider_intent_id_key" ON "payments"("provider_intent_id");

-- CreateIndex
CREATE INDEX "payments_job_id_idx" ON "payments"("job_id");

-- AddForeignKey
ALTER TABLE "customer_invoices" ADD CONSTRAINT "customer_invoices_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "job_snapshots"("job_id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_invoice_items" ADD CONSTRAINT "customer_invoice_items_customer_invoice_id_fkey" FOREIGN KEY ("customer_invoice_id") REFERENCES "customer_invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "customer_invoice_pdfs" ADD CONSTRAINT "customer_invoice_pdfs_customer_invoice_id_fkey" FOREIGN KEY ("customer_invoice_id") REFERENCES "customer_invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------------------------
-- Hand-written (Prisma's schema cannot express these)

-- One active (not cancelled) customer invoice per job: a second generate, or a race of two, answers 409.
CREATE UNIQUE INDEX "customer_invoices_active_job_key" ON "customer_invoices"("job_id") WHERE "status" <> 'cancelled';

-- The invoice number series (INV-000001, ...).
INSERT INTO "number_series" ("name", "last_value") VALUES ('customer_invoice', 0);

-- The spec's vocabularies (section 3) and money rules.
ALTER TABLE "customer_invoices"
  ADD CONSTRAINT "customer_invoices_status_check" CHECK ("status" IN ('draft', 'sent', 'paid', 'overdue', 'cancelled')),
  ADD CONSTRAINT "customer_invoices_amounts_check" CHECK ("subtotal_amount" >= 0 AND "gst_amount" >= 0 AND "total_amount" >= 0);
ALTER TABLE "customer_invoice_items"
  ADD CONSTRAINT "customer_invoice_items_category_check" CHECK ("category" IN ('callout', 'tyre', 'labour', 'battery', 'note')),
  ADD CONSTRAINT "customer_invoice_items_quantity_check" CHECK ("quantity" > 0),
  ADD CONSTRAINT "customer_invoice_items_price_check" CHECK ("unit_price" >= 0 AND "total_price" >= 0);
ALTER TABLE "purchase_invoices"
  ADD CONSTRAINT "purchase_invoices_category_check" CHECK ("category" IN ('cost-of-goods-sold', 'fuel', 'rent', 'utilities', 'marketing', 'insurance', 'subscriptions', 'admin', 'tools', 'vehicle', 'misc')),
  ADD CONSTRAINT "purchase_invoices_total_check" CHECK ("total_amount" > 0);
ALTER TABLE "business_expenses"
  ADD CONSTRAINT "business_expenses_category_check" CHECK ("category" IN ('cost-of-goods-sold', 'fuel', 'rent', 'utilities', 'marketing', 'insurance', 'subscriptions', 'admin', 'tools', 'vehicle', 'misc')),
  ADD CONSTRAINT "business_expenses_amount_check" CHECK ("amount" > 0);
ALTER TABLE "payments"
  ADD CONSTRAINT "payments_status_check" CHECK ("status" IN ('requires_payment_method', 'succeeded', 'failed', 'canceled')),
  ADD CONSTRAINT "payments_mode_check" CHECK ("mode" IN ('live', 'test'));
ALTER TABLE "email_deliveries"
  ADD CONSTRAINT "email_deliveries_transport_check" CHECK ("transport" IN ('smtp', 'local')),
  ADD CONSTRAINT "email_deliveries_status_check" CHECK ("status" IN ('sending', 'sent', 'failed'));

