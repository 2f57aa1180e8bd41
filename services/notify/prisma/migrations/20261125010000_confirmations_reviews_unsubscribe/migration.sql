-- AlterTable: extra email headers of a message (List-Unsubscribe on the review request).
ALTER TABLE "deliveries" ADD COLUMN     "headers" JSONB;

-- CreateTable: the two halves of a booking's confirmation (BookingCreated, the manage link), in either order.
CREATE TABLE "confirmations" (
    "job_id" UUID NOT NULL,
    "booking" JSONB,
    "manage_url" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "confirmations_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable: a job's way to its review request (completed and paid, in either order).
CREATE TABLE "review_progress" (
    "job_id" UUID NOT NULL,
    "job_number" TEXT,
    "customer_name" TEXT,
    "customer_email" TEXT,
    "completed_at" TIMESTAMPTZ(3),
    "paid_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_progress_pkey" PRIMARY KEY ("job_id")
);

-- CreateTable: marketing consent per customer email address (Spam Act 2003): the unsubscribe token, the opt-out.
CREATE TABLE "marketing_contacts" (
    "email" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "unsubscribed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "marketing_contacts_pkey" PRIMARY KEY ("email")
);

-- CreateIndex
CREATE UNIQUE INDEX "marketing_contacts_token_key" ON "marketing_contacts"("token");
