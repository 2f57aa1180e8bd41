-- Issue 19: an admin's edits of a job after booking, with who, when, why and each field before and after.
CREATE TABLE "jobs"."job_edits" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "edited_by" UUID NOT NULL,
    "edited_by_name" VARCHAR(100) NOT NULL,
    "edited_at" TIMESTAMPTZ(3) NOT NULL,
    "reason" VARCHAR(500) NOT NULL,
    "changes" JSONB NOT NULL,

    CONSTRAINT "job_edits_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "job_edits_job_id_version_key" ON "jobs"."job_edits"("job_id", "version");

ALTER TABLE "jobs"."job_edits" ADD CONSTRAINT "job_edits_version_check" CHECK ("version" >= 1);

-- Issue 18 (privacy) applies to the history too: an erased customer's job keeps its edits' money and tyre details,
-- but the personal values (address, vehicle, notes) and the free-text reason are blanked, on any write and when the
-- job is erased (the trigger on erased_jobs below), so nothing here re-identifies the customer.
CREATE FUNCTION "jobs"."job_edits_erase_changes"(changes jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_agg(
    CASE WHEN c->>'field' IN ('address', 'vehicle', 'notes')
         THEN jsonb_build_object('field', c->>'field', 'before', 'null'::jsonb, 'after', 'null'::jsonb, 'erased', true)
         ELSE c END), '[]'::jsonb)
  FROM jsonb_array_elements(changes) AS c
$$;

CREATE FUNCTION "jobs"."job_edits_keep_erased"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "jobs"."erased_jobs" e WHERE e.job_id = NEW.job_id) THEN
    NEW.changes := "jobs"."job_edits_erase_changes"(NEW.changes);
    NEW.reason := 'Erased';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "job_edits_keep_erased" BEFORE INSERT OR UPDATE ON "jobs"."job_edits"
    FOR EACH ROW EXECUTE FUNCTION "jobs"."job_edits_keep_erased"();

-- When a job is erased (a tombstone row goes in), its existing edits are rewritten through the trigger above.
CREATE FUNCTION "jobs"."erased_jobs_erase_edits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "jobs"."job_edits" SET "changes" = "changes" WHERE "job_id" = NEW.job_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER "erased_jobs_erase_edits" AFTER INSERT ON "jobs"."erased_jobs"
    FOR EACH ROW EXECUTE FUNCTION "jobs"."erased_jobs_erase_edits"();
