-- CreateTable
CREATE TABLE "booking_records" (
    "job_id" UUID NOT NULL,
    "job_number" TEXT NOT NULL,
    "customer_name" TEXT NOT NULL,
    "customer_email" TEXT NOT NULL,
    "customer_phone" TEXT NOT NULL,
    "service_type" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "suburb" TEXT NOT NULL,
    "assigned_technician_id" UUID,
    "scheduled_date" DATE NOT NULL,
    "time_slot" TEXT NOT NULL,
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "booking_records_pkey" PRIMARY KEY ("job_id")
);
