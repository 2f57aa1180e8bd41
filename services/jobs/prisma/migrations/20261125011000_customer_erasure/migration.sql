-- Issue 18 (privacy): the jobs of erased customers (CustomerErased) and the triggers that keep them erased: any later
-- write (a replayed BookingCreated or BookingUpdated, a late photo) gets the erased values in the same statement.
CREATE TABLE "jobs"."erased_jobs" (
    "job_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "erased_jobs_pkey" PRIMARY KEY ("job_id")
);

-- Named to sort before "jobs_build_documents" (BEFORE triggers run in name order): the list documents are then
-- built from the erased values.
CREATE FUNCTION "jobs"."jobs_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "jobs"."erased_jobs" e WHERE e.job_id = NEW.id) THEN
    NEW.customer_name := 'Erased customer';
    NEW.customer_email := 'erased-' || NEW.customer_id::text || '@erased.invalid';
    NEW.customer_phone := 'Erased';
    NEW.vehicle_make := 'Erased';
    NEW.vehicle_model := 'Erased';
    NEW.vehicle_color := NULL;
    NEW.vehicle_registration := 'ERASED';
    NEW.address := 'Erased';
    NEW.notes := NULL;
    NEW.cancellation_reason := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "jobs_a_keep_erased" BEFORE INSERT OR UPDATE ON "jobs"."jobs"
    FOR EACH ROW EXECUTE FUNCTION "jobs"."jobs_keep_erased"();

-- Photos of an erased customer's job are not recorded again (booking deleted their bytes).
CREATE FUNCTION "jobs"."job_photos_skip_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "jobs"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "job_photos_skip_erased" BEFORE INSERT ON "jobs"."job_photos"
    FOR EACH ROW EXECUTE FUNCTION "jobs"."job_photos_skip_erased"();

-- Booking's changes kept for an erased customer's job lose what was personal in them (phone, notes, vehicle, reason).
CREATE FUNCTION "jobs"."job_booking_changes_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "jobs"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    -- The row keeps the whole envelope (its payload under "data"); older rows may hold the payload itself.
    NEW.data := NEW.data - 'phone' - 'notes' - 'vehicle' - 'reason' - 'customer' - 'address';
    IF jsonb_typeof(NEW.data->'data') = 'object' THEN
      NEW.data := jsonb_set(NEW.data, '{data}',
        (NEW.data->'data') - 'phone' - 'notes' - 'vehicle' - 'reason' - 'customer' - 'address');
    END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "job_booking_changes_keep_erased" BEFORE INSERT OR UPDATE ON "jobs"."job_booking_changes"
    FOR EACH ROW EXECUTE FUNCTION "jobs"."job_booking_changes_keep_erased"();
