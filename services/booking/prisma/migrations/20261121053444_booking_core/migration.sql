-- CreateEnum
CREATE TYPE "BookingStatus" AS ENUM ('quoted', 'confirmed', 'expired', 'conflict');

-- CreateEnum
CREATE TYPE "BookingChannel" AS ENUM ('online', 'staff');

-- CreateEnum
CREATE TYPE "ReservationKind" AS ENUM ('hold', 'booking');

-- CreateTable
CREATE TABLE "customers" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_key" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "phone_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vehicles" (
    "id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "make" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "year" INTEGER NOT NULL,
    "color" TEXT,
    "registration" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vehicles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bookings" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "job_seq" SERIAL NOT NULL,
    "job_number" TEXT NOT NULL,
    "status" "BookingStatus" NOT NULL,
    "channel" "BookingChannel" NOT NULL,
    "customer_id" UUID NOT NULL,
    "vehicle_id" UUID NOT NULL,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT NOT NULL,
    "customer_phone" TEXT NOT NULL,
    "vehicle_make" TEXT NOT NULL,
    "vehicle_model" TEXT NOT NULL,
    "vehicle_year" INTEGER NOT NULL,
    "vehicle_color" TEXT,
    "vehicle_registration" TEXT NOT NULL,
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
    "payment_method" TEXT NOT NULL,
    "payment_status" TEXT NOT NULL DEFAULT 'pending',
    "items" JSONB NOT NULL,
    "subtotal" DECIMAL(10,2) NOT NULL,
    "discount" DECIMAL(10,2) NOT NULL,
    "gst" DECIMAL(10,2) NOT NULL,
    "total" DECIMAL(10,2) NOT NULL,
    "callback_required" BOOLEAN NOT NULL DEFAULT false,
    "booking_token_hash" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "confirmed_at" TIMESTAMPTZ(3),
    "paid_at" TIMESTAMPTZ(3),
    "payment_id" UUID,
    "stripe_payment_intent_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bookings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "slot_reservations" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "booking_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "time_slot" TEXT NOT NULL,
    "kind" "ReservationKind" NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "released_at" TIMESTAMPTZ(3),
    "release_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "slot_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "time_slots" (
    "id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "slot" TEXT NOT NULL,
    "is_available" BOOLEAN NOT NULL DEFAULT true,
    "blocked_reason" TEXT,
    "changed_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "time_slots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tyre_stock_pricing" (
    "id" UUID NOT NULL,
    "size" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "purchase_price" DECIMAL(10,2) NOT NULL,
    "retail_price" DECIMAL(10,2) NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tyre_stock_pricing_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suburb_landing_pages" (
    "id" UUID NOT NULL,
    "suburb" TEXT NOT NULL,
    "postcode" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "meta_title" TEXT NOT NULL,
    "meta_description" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "sort_order" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suburb_landing_pages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "suburbs" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "postcode" TEXT NOT NULL,
    "region" TEXT NOT NULL,
    "slug_name" TEXT NOT NULL,

    CONSTRAINT "suburbs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_photos" (
    "id" UUID NOT NULL,
    "booking_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "filename" TEXT NOT NULL,
    "original_name" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_photos_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_technicians" (
    "job_id" UUID NOT NULL,
    "technician_id" UUID,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_technicians_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "status_code" INTEGER NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("scope","key")
);

-- CreateIndex
CREATE UNIQUE INDEX "customers_email_key_key" ON "customers"("email_key");

-- CreateIndex
CREATE INDEX "customers_phone_key_idx" ON "customers"("phone_key");

-- CreateIndex
CREATE UNIQUE INDEX "vehicles_customer_id_registration_key" ON "vehicles"("customer_id", "registration");

-- CreateIndex
CREATE UNIQUE INDEX "bookings_job_id_key" ON "bookings"("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "bookings_job_seq_key" ON "bookings"("job_seq");

-- CreateIndex
CREATE UNIQUE INDEX "bookings_job_number_key" ON "bookings"("job_number");

-- CreateIndex
CREATE UNIQUE INDEX "bookings_booking_token_hash_key" ON "bookings"("booking_token_hash");

-- CreateIndex
CREATE INDEX "bookings_status_expires_at_idx" ON "bookings"("status", "expires_at");

-- CreateIndex
CREATE INDEX "bookings_customer_id_idx" ON "bookings"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "slot_reservations_job_id_key" ON "slot_reservations"("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "slot_reservations_booking_id_key" ON "slot_reservations"("booking_id");

-- CreateIndex
CREATE INDEX "slot_reservations_date_idx" ON "slot_reservations"("date");

-- CreateIndex
CREATE INDEX "slot_reservations_kind_expires_at_idx" ON "slot_reservations"("kind", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "time_slots_date_slot_key" ON "time_slots"("date", "slot");

-- CreateIndex
CREATE INDEX "tyre_stock_pricing_size_is_active_idx" ON "tyre_stock_pricing"("size", "is_active");

-- CreateIndex
CREATE UNIQUE INDEX "tyre_stock_pricing_size_brand_model_key" ON "tyre_stock_pricing"("size", "brand", "model");

-- CreateIndex
CREATE UNIQUE INDEX "suburb_landing_pages_suburb_key" ON "suburb_landing_pages"("suburb");

-- CreateIndex
CREATE UNIQUE INDEX "suburb_landing_pages_slug_key" ON "suburb_landing_pages"("slug");

-- CreateIndex
CREATE INDEX "suburbs_slug_name_idx" ON "suburbs"("slug_name");

-- CreateIndex
CREATE INDEX "suburbs_postcode_idx" ON "suburbs"("postcode");

-- CreateIndex
CREATE UNIQUE INDEX "suburbs_name_postcode_key" ON "suburbs"("name", "postcode");

-- CreateIndex
CREATE INDEX "job_photos_job_id_idx" ON "job_photos"("job_id");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

-- AddForeignKey
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_vehicle_id_fkey" FOREIGN KEY ("vehicle_id") REFERENCES "vehicles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "slot_reservations" ADD CONSTRAINT "slot_reservations_booking_id_fkey" FOREIGN KEY ("booking_id") REFERENCES "bookings"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "job_photos" ADD CONSTRAINT "job_photos_booking_id_fkey" FOREIGN KEY ("booking_id") REFERENCES "bookings"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------------------------
-- Hand-written (Prisma's schema language cannot express a partial index; keep it in every later migration's diff,
-- see docs/migrations.md). The double-booking guarantee: at most one live reservation per (date, time slot). A
-- live reservation is an onsite/paid booking or a prepaid hold; cancelling, deleting or expiring sets released_at,
-- which takes the row out of this index and frees the slot. The loser of a race gets a unique violation (409).
CREATE UNIQUE INDEX "slot_reservations_active_slot_key" ON "slot_reservations" ("date", "time_slot") WHERE "released_at" IS NULL;
