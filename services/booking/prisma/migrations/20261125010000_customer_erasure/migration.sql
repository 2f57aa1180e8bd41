-- Issue 18 (privacy): erasure on request and photo retention (docs/privacy.md).

-- The customer row is its own tombstone: erased_at set means every personal field was replaced.
ALTER TABLE "customers" ADD COLUMN "erased_at" TIMESTAMPTZ(3),
ADD COLUMN "erased_by_user_id" UUID,
ADD COLUMN "erasure_reason" TEXT;

-- The jobs of erased customers: a write to one of their bookings after the erasure (a replayed event, a late
-- payment) cannot bring personal data back (the trigger below puts the erased values back in the same statement).
CREATE TABLE "erased_jobs" (
    "job_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "erased_jobs_pkey" PRIMARY KEY ("job_id")
);

-- When a job was paid (JobStatusChanged to paid): its photos are deleted PHOTO_RETENTION_MONTHS later.
CREATE TABLE "photo_retention" (
    "job_id" UUID NOT NULL,
    "paid_at" TIMESTAMPTZ(3) NOT NULL,
    "photos_deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "photo_retention_pkey" PRIMARY KEY ("job_id")
);
CREATE INDEX "photo_retention_due_idx" ON "photo_retention"("paid_at") WHERE "photos_deleted_at" IS NULL;

CREATE FUNCTION "bookings_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM booking.erased_jobs e WHERE e.job_id = NEW.job_id) THEN
    NEW.customer_name := 'Erased customer';
    NEW.customer_email := 'erased-' || NEW.customer_id::text || '@erased.invalid';
    NEW.customer_phone := 'Erased';
    NEW.vehicle_make := 'Erased';
    NEW.vehicle_model := 'Erased';
    NEW.vehicle_color := NULL;
    NEW.vehicle_registration := 'ERASED';
    NEW.address := 'Erased';
    NEW.notes := NULL;
    NEW.client_address := NULL;
    NEW.cancellation_reason := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "bookings_keep_erased" BEFORE INSERT OR UPDATE ON "bookings"
  FOR EACH ROW EXECUTE FUNCTION "bookings_keep_erased"();
