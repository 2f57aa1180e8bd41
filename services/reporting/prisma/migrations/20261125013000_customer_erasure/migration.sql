-- Issue 18 (privacy): the jobs of erased customers (CustomerErased) and what keeps them erased in reporting.

CREATE TABLE "reporting"."erased_jobs" (
    "job_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "erased_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "erased_jobs_pkey" PRIMARY KEY ("job_id")
);

-- A stored envelope without the customer's personal data: the values stay valid for their contracts (a rebuild folds
-- them again), amounts, dates and ids are untouched.
CREATE FUNCTION "reporting"."erase_envelope"(env jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  d jsonb := env->'data';
BEGIN
  IF d IS NULL OR jsonb_typeof(d) <> 'object' THEN
    RETURN env;
  END IF;
  IF d ? 'customerName' THEN
    d := jsonb_set(d, '{customerName}', '"Erased customer"');
  END IF;
  IF jsonb_typeof(d->'customer') = 'object' THEN
    d := jsonb_set(d, '{customer}', jsonb_build_object(
      'name', 'Erased customer',
      'email', 'erased-' || coalesce(d->>'jobId', 'job') || '@erased.invalid',
      'phone', 'Erased'));
  END IF;
  IF jsonb_typeof(d->'vehicle') = 'object' THEN
    d := jsonb_set(d, '{vehicle}', (d->'vehicle') || '{"make":"Erased","model":"Erased","color":null,"registration":"ERASED"}');
  END IF;
  IF jsonb_typeof(d->'address') = 'string' THEN
    d := jsonb_set(d, '{address}', '"Erased"');
  END IF;
  IF d ? 'notes' THEN
    d := jsonb_set(d, '{notes}', 'null');
  END IF;
  RETURN jsonb_set(env, '{data}', d);
END
$$;

-- The event store stays append-only, except for the erasure itself: a transaction that set
-- reporting.erasure = 'on' (src/db/erasure.ts) may rewrite stored envelopes; nothing may delete them.
CREATE OR REPLACE FUNCTION "reporting"."events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('reporting.erasure', true) = 'on'
     AND NEW.event_id = OLD.event_id AND NEW.seq = OLD.seq THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'reporting.events is append-only (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;

-- An event about an erased customer's job stored after the erasure (a replay) is stored erased.
-- Both lookups use the primary key (a stored event's jobId is a UUID by contract; anything else is not looked up).
CREATE FUNCTION "reporting"."events_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  j text := NEW.envelope->'data'->>'jobId';
BEGIN
  IF EXISTS (SELECT 1 FROM "reporting"."erased_jobs" e WHERE e.job_id = NEW.aggregate_id)
     OR (j ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
         AND EXISTS (SELECT 1 FROM "reporting"."erased_jobs" e WHERE e.job_id = j::uuid)) THEN
    NEW.envelope := "reporting"."erase_envelope"(NEW.envelope);
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "events_keep_erased" BEFORE INSERT ON "reporting"."events"
    FOR EACH ROW EXECUTE FUNCTION "reporting"."events_keep_erased"();

-- The GST report's rows of an erased customer's invoices show "Erased customer".
CREATE FUNCTION "reporting"."customer_invoice_facts_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "reporting"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    NEW.customer_name := 'Erased customer';
    NEW.gst_row := (NEW.gst_row::jsonb || '{"customerName":"Erased customer"}'::jsonb)::text;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "customer_invoice_facts_keep_erased" BEFORE INSERT OR UPDATE ON "reporting"."customer_invoice_facts"
    FOR EACH ROW EXECUTE FUNCTION "reporting"."customer_invoice_facts_keep_erased"();
