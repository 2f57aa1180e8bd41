-- Issue 18 (privacy): the jobs of erased customers (CustomerErased). Their invoices stay (tax records, five years:
-- docs/decisions.md) with the customer shown as erased; triggers keep every later write erased too.
CREATE TABLE "billing"."erased_jobs" (
    "job_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "erased_jobs_pkey" PRIMARY KEY ("job_id")
);

CREATE FUNCTION "billing"."job_snapshots_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "billing"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    NEW.customer_name := 'Erased customer';
    NEW.customer_email := 'erased-' || NEW.job_id::text || '@erased.invalid';
    NEW.customer_phone := 'Erased';
    NEW.vehicle_make := 'Erased';
    NEW.vehicle_model := 'Erased';
    NEW.vehicle_color := NULL;
    NEW.vehicle_registration := 'ERASED';
    NEW.address := 'Erased';
    NEW.notes := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "job_snapshots_keep_erased" BEFORE INSERT OR UPDATE ON "billing"."job_snapshots"
    FOR EACH ROW EXECUTE FUNCTION "billing"."job_snapshots_keep_erased"();

-- An invoice email of an erased customer keeps no address or message (one queued before the erasure goes nowhere:
-- .invalid is never routable).
CREATE FUNCTION "billing"."email_deliveries_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "billing"."customer_invoices" i JOIN "billing"."erased_jobs" e ON e.job_id = i.job_id
              WHERE i.id = NEW.customer_invoice_id) THEN
    NEW.to_address := 'erased@erased.invalid';
    NEW.raw_message := NULL;
    NEW.attachments := '[]'::jsonb;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "email_deliveries_keep_erased" BEFORE INSERT OR UPDATE ON "billing"."email_deliveries"
    FOR EACH ROW EXECUTE FUNCTION "billing"."email_deliveries_keep_erased"();
