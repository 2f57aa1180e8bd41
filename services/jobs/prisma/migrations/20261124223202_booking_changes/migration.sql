-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "cancellation_reason" VARCHAR(500),
ADD COLUMN     "slot_changed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "job_booking_changes" (
    "event_id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "type" VARCHAR(60) NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "data" JSONB NOT NULL,
    "outcome" VARCHAR(20) NOT NULL,
    "note" VARCHAR(300),
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "handled_at" TIMESTAMPTZ(3),

    CONSTRAINT "job_booking_changes_pkey" PRIMARY KEY ("event_id")
);

-- CreateIndex
CREATE INDEX "job_booking_changes_job_id_occurred_at_idx" ON "job_booking_changes"("job_id", "occurred_at");

-- Hand-written: the outcome vocabulary.
ALTER TABLE "job_booking_changes" ADD CONSTRAINT "job_booking_changes_outcome_check"
  CHECK ("outcome" IN ('waiting', 'applied', 'stale', 'not_applied'));
