-- Issue 18 (privacy): the jobs of erased customers (CustomerErased) and the triggers that keep notify's copies erased:
-- a message about one of those jobs written after the erasure (a replayed event, a reminder that was already due) is
-- recorded without recipient or text and withdrawn, so it is never sent.
CREATE TABLE "notify"."erased_jobs" (
    "job_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "erased_jobs_pkey" PRIMARY KEY ("job_id")
);

CREATE FUNCTION "notify"."booking_records_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "notify"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    NEW.customer_name := 'Erased customer';
    NEW.customer_email := 'erased-' || NEW.job_id::text || '@erased.invalid';
    NEW.customer_phone := 'Erased';
    NEW.address := 'Erased';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "booking_records_keep_erased" BEFORE INSERT OR UPDATE ON "notify"."booking_records"
    FOR EACH ROW EXECUTE FUNCTION "notify"."booking_records_keep_erased"();

CREATE FUNCTION "notify"."deliveries_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.job_id IS NOT NULL AND EXISTS (SELECT 1 FROM "notify"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    NEW.recipient := 'erased';
    NEW.normalized_to := NULL;
    NEW.subject := NULL;
    NEW.body := 'Erased (privacy request)';
    NEW.html := NULL;
    NEW.reply_to := NULL;
    NEW.raw_message := NULL;
    NEW.headers := NULL;
    IF NEW.status <> 'sent' THEN
      -- "withdrawn:" is the delivery log's never-send marker (src/db/deliveries.ts).
      NEW.status := 'failed';
      NEW.last_error := 'withdrawn: the customer was erased (privacy request)';
      NEW.failed_at := coalesce(NEW.failed_at, now());
      NEW.next_attempt_at := NULL;
    END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "deliveries_keep_erased" BEFORE INSERT OR UPDATE ON "notify"."deliveries"
    FOR EACH ROW EXECUTE FUNCTION "notify"."deliveries_keep_erased"();

CREATE FUNCTION "notify"."confirmations_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "notify"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    NEW.booking := NULL;
    NEW.manage_url := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "confirmations_keep_erased" BEFORE INSERT OR UPDATE ON "notify"."confirmations"
    FOR EACH ROW EXECUTE FUNCTION "notify"."confirmations_keep_erased"();

CREATE FUNCTION "notify"."review_progress_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "notify"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    NEW.customer_name := NULL;
    NEW.customer_email := NULL;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "review_progress_keep_erased" BEFORE INSERT OR UPDATE ON "notify"."review_progress"
    FOR EACH ROW EXECUTE FUNCTION "notify"."review_progress_keep_erased"();
