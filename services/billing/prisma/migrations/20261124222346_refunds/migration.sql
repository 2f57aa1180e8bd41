-- CreateTable
CREATE TABLE "refunds" (
    "id" UUID NOT NULL,
    "cancellation_event_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "job_number" TEXT NOT NULL,
    "payment_id" UUID,
    "provider_intent_id" TEXT NOT NULL,
    "amount" DECIMAL(10,2) NOT NULL,
    "refund_percent" INTEGER NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'AUD',
    "mode" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'requested',
    "provider_refund_id" TEXT,
    "idempotency_key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "succeeded_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "refunds_cancellation_event_id_key" ON "refunds"("cancellation_event_id");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_job_id_key" ON "refunds"("job_id");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_provider_refund_id_key" ON "refunds"("provider_refund_id");

-- CreateIndex
CREATE INDEX "refunds_status_created_at_idx" ON "refunds"("status", "created_at");

-- CreateIndex
CREATE INDEX "refunds_created_at_idx" ON "refunds"("created_at" DESC);

-- Hand-written: the statuses and modes (Prisma cannot spell CHECK constraints), and a refund is never zero or negative.
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_status_check"
  CHECK ("status" IN ('requested', 'pending', 'succeeded', 'failed'));
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_mode_check" CHECK ("mode" IN ('live', 'test'));
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_check" CHECK ("amount" > 0);
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_refund_percent_check" CHECK ("refund_percent" BETWEEN 1 AND 100);
