-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "job_number" VARCHAR(50) NOT NULL,
    "customer_id" UUID NOT NULL,
    "vehicle_id" UUID NOT NULL,
    "customer_name" VARCHAR(200) NOT NULL,
    "customer_email" VARCHAR(254) NOT NULL,
    "customer_phone" VARCHAR(50) NOT NULL,
    "vehicle_make" VARCHAR(100) NOT NULL,
    "vehicle_model" VARCHAR(100) NOT NULL,
    "vehicle_year" INTEGER NOT NULL,
    "vehicle_color" VARCHAR(50),
    "vehicle_registration" VARCHAR(20) NOT NULL,
    "assigned_technician_id" UUID,
    "service_type" VARCHAR(30) NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'new',
    "scheduled_date" DATE NOT NULL,
    "scheduled_day" VARCHAR(10) NOT NULL,
    "time_slot" VARCHAR(20) NOT NULL,
    "address" VARCHAR(500) NOT NULL,
    "suburb" VARCHAR(100) NOT NULL,
    "postcode" VARCHAR(10) NOT NULL,
    "tyre_size" VARCHAR(50),
    "tyre_quantity" INTEGER,
    "tyre_brand" VARCHAR(100),
    "notes" TEXT,
    "customer_value" DECIMAL(10,2) NOT NULL,
    "purchase_cost" DECIMAL(10,2),
    "purchase_invoice" VARCHAR(100),
    "payment_method" VARCHAR(20) NOT NULL,
    "payment_status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "stripe_payment_intent_id" VARCHAR(255),
    "channel" VARCHAR(20) NOT NULL DEFAULT 'online',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "in_progress_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "invoiced_at" TIMESTAMPTZ(3),
    "paid_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "cancelled_by" UUID,
    "deleted_at" TIMESTAMPTZ(3),
    "deleted_by" UUID,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_photos" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "type" VARCHAR(50) NOT NULL,
    "filename" VARCHAR(255) NOT NULL,
    "original_name" VARCHAR(255) NOT NULL,
    "mime_type" VARCHAR(50) NOT NULL,
    "size" INTEGER NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_photos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_line_items" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "type" VARCHAR(50) NOT NULL,
    "category" VARCHAR(50) NOT NULL,
    "description" VARCHAR(1000) NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_cost" DECIMAL(10,2) NOT NULL,
    "total_cost" DECIMAL(10,2) NOT NULL,
    "unit_price" DECIMAL(10,2) NOT NULL,
    "total_price" DECIMAL(10,2) NOT NULL,
    "profit_margin" DECIMAL(5,2),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_customer_invoices" (
    "invoice_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "invoice_number" VARCHAR(50) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "source_updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "job_customer_invoices_pkey" PRIMARY KEY ("invoice_id")
);

-- CreateTable
CREATE TABLE "job_purchase_invoices" (
    "purchase_invoice_id" UUID NOT NULL,
    "job_id" UUID,
    "invoice_number" VARCHAR(100) NOT NULL,
    "total_amount" DECIMAL(10,2) NOT NULL,
    "source_updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "job_purchase_invoices_pkey" PRIMARY KEY ("purchase_invoice_id")
);

-- CreateTable
CREATE TABLE "job_payments" (
    "payment_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "payment_intent_id" VARCHAR(255) NOT NULL,
    "amount" DECIMAL(10,2) NOT NULL,
    "succeeded_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_payments_pkey" PRIMARY KEY ("payment_id")
);

-- CreateTable
CREATE TABLE "staff_directory" (
    "user_id" UUID NOT NULL,
    "username" VARCHAR(100) NOT NULL,
    "email" VARCHAR(254),
    "role" VARCHAR(20) NOT NULL,
    "is_active" BOOLEAN NOT NULL,
    "source_updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "staff_directory_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "jobs_job_number_key" ON "jobs"("job_number");

-- CreateIndex
CREATE INDEX "job_photos_job_id_uploaded_at_idx" ON "job_photos"("job_id", "uploaded_at");

-- CreateIndex
CREATE INDEX "job_line_items_job_id_created_at_idx" ON "job_line_items"("job_id", "created_at");

-- CreateIndex
CREATE INDEX "job_customer_invoices_job_id_idx" ON "job_customer_invoices"("job_id");

-- CreateIndex
CREATE INDEX "job_purchase_invoices_job_id_idx" ON "job_purchase_invoices"("job_id");

-- CreateIndex
CREATE INDEX "job_payments_job_id_idx" ON "job_payments"("job_id");

-- CreateIndex
CREATE INDEX "staff_directory_role_is_active_username_idx" ON "staff_directory"("role", "is_active", "username");

-- AddForeignKey
ALTER TABLE "job_line_items" ADD CONSTRAINT "job_line_items_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------------------------
-- Hand-written: what Prisma's schema cannot express (see services/jobs/README.md, "Index plan").
-- ---------------------------------------------------------------------------------------------------------------

-- Vocabularies (spec sections 3, 4 and 7).
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_check"
    CHECK ("status" IN ('new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled'));
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_service_type_check"
    CHECK ("service_type" IN ('new-tyres', 'puncture-repair', 'battery-service', 'emergency-callout'));
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_time_slot_check"
    CHECK ("time_slot" IN ('8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'));
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_payment_method_check" CHECK ("payment_method" IN ('onsite', 'prepaid'));
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_payment_status_check"
    CHECK ("payment_status" IN ('pending', 'paid', 'failed', 'refunded'));
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_deleted_by_check" CHECK ("deleted_at" IS NOT NULL OR "deleted_by" IS NULL);
ALTER TABLE "job_line_items" ADD CONSTRAINT "job_line_items_quantity_check" CHECK ("quantity" > 0);

-- Dashboard lists: live jobs only (soft-deleted rows never appear), newest first, keyset-friendly tiebreak on id.
-- One index per access path: all jobs, by status, by technician, by technician and status.
CREATE INDEX "jobs_live_created_idx" ON "jobs" ("created_at" DESC, "id" DESC) WHERE "deleted_at" IS NULL;
CREATE INDEX "jobs_live_status_created_idx" ON "jobs" ("status", "created_at" DESC, "id" DESC) WHERE "deleted_at" IS NULL;
CREATE INDEX "jobs_live_technician_created_idx" ON "jobs" ("assigned_technician_id", "created_at" DESC, "id" DESC)
    WHERE "deleted_at" IS NULL;
CREATE INDEX "jobs_live_technician_status_created_idx"
    ON "jobs" ("assigned_technician_id", "status", "created_at" DESC, "id" DESC) WHERE "deleted_at" IS NULL;
-- Schedule by day and slot.
CREATE INDEX "jobs_live_schedule_idx" ON "jobs" ("scheduled_date", "time_slot") WHERE "deleted_at" IS NULL;
