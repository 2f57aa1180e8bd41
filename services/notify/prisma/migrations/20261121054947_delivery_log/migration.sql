-- CreateEnum
CREATE TYPE "DeliveryChannel" AS ENUM ('sms', 'email');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('queued', 'sending', 'retrying', 'sent', 'failed');

-- CreateTable
CREATE TABLE "deliveries" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "channel" "DeliveryChannel" NOT NULL,
    "purpose" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "normalized_to" TEXT,
    "subject" TEXT,
    "body" TEXT NOT NULL,
    "html" TEXT,
    "reply_to" TEXT,
    "job_id" UUID,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'queued',
    "transport" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL,
    "last_error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),
    "provider_message_id" TEXT,
    "raw_message" TEXT,
    "source_event_id" UUID,
    "correlation_id" TEXT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_attempts" (
    "id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,
    "transport" TEXT NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "deliveries_key_key" ON "deliveries"("key");

-- CreateIndex
CREATE INDEX "deliveries_created_at_idx" ON "deliveries"("created_at");

-- CreateIndex
CREATE INDEX "deliveries_channel_created_at_idx" ON "deliveries"("channel", "created_at");

-- CreateIndex
CREATE INDEX "deliveries_status_created_at_idx" ON "deliveries"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "delivery_attempts_delivery_id_attempt_key" ON "delivery_attempts"("delivery_id", "attempt");

-- AddForeignKey
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
