-- CreateTable
CREATE TABLE "job_counts" (
    "status" VARCHAR(20) NOT NULL,
    "technician_id" UUID NOT NULL,
    "n" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "job_counts_pkey" PRIMARY KEY ("status","technician_id")
);

-- ---------------------------------------------------------------------------------------------------------------
-- Hand-written: live job counts per (status, technician) for the lists' X-Total-Count. count(*) over the jobs
-- grows with the table (every page request would scan all live index entries); these rows stay few.
-- The trigger applies -1 to the old key and +1 to the new key of every insert/update/delete of a job (a job counts
-- while deleted_at IS NULL), upserting the two rows in a fixed order so concurrent changes cannot deadlock.
-- ---------------------------------------------------------------------------------------------------------------

ALTER TABLE "job_counts" ADD CONSTRAINT "job_counts_n_check" CHECK ("n" >= 0);

CREATE OR REPLACE FUNCTION "jobs"."jobs_count_change"(p_status text, p_technician uuid, p_delta integer) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  tech uuid := COALESCE(p_technician, '00000000-0000-0000-0000-000000000000'::uuid);
BEGIN
  IF p_delta > 0 THEN
    INSERT INTO "jobs"."job_counts" ("status", "technician_id", "n") VALUES (p_status, tech, p_delta)
    ON CONFLICT ("status", "technician_id") DO UPDATE SET "n" = "job_counts"."n" + EXCLUDED."n";
  ELSE
    -- A count going below zero means the table drifted: fail the write loudly rather than keep a wrong total.
    UPDATE "jobs"."job_counts" SET "n" = "n" + p_delta WHERE "status" = p_status AND "technician_id" = tech;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'job_counts has no row for (%, %)', p_status, tech;
    END IF;
  END IF;
END
$fn$;

CREATE OR REPLACE FUNCTION "jobs"."jobs_maintain_counts"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  old_key text;
  new_key text;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD."deleted_at" IS NULL THEN
    old_key := OLD."status" || '|' || COALESCE(OLD."assigned_technician_id"::text, '');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW."deleted_at" IS NULL THEN
    new_key := NEW."status" || '|' || COALESCE(NEW."assigned_technician_id"::text, '');
  END IF;
  IF old_key IS NOT DISTINCT FROM new_key THEN
    RETURN NULL;
  END IF;
  IF new_key IS NULL OR (old_key IS NOT NULL AND old_key < new_key) THEN
    IF old_key IS NOT NULL THEN PERFORM "jobs"."jobs_count_change"(OLD."status", OLD."assigned_technician_id", -1); END IF;
    IF new_key IS NOT NULL THEN PERFORM "jobs"."jobs_count_change"(NEW."status", NEW."assigned_technician_id", 1); END IF;
  ELSE
    IF new_key IS NOT NULL THEN PERFORM "jobs"."jobs_count_change"(NEW."status", NEW."assigned_technician_id", 1); END IF;
    IF old_key IS NOT NULL THEN PERFORM "jobs"."jobs_count_change"(OLD."status", OLD."assigned_technician_id", -1); END IF;
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "jobs_maintain_counts" AFTER INSERT OR UPDATE OF "status", "assigned_technician_id", "deleted_at" OR DELETE
    ON "jobs"."jobs" FOR EACH ROW EXECUTE FUNCTION "jobs"."jobs_maintain_counts"();

-- The jobs that exist already.
INSERT INTO "jobs"."job_counts" ("status", "technician_id", "n")
SELECT "status", COALESCE("assigned_technician_id", '00000000-0000-0000-0000-000000000000'::uuid), count(*)
FROM "jobs"."jobs" WHERE "deleted_at" IS NULL
GROUP BY 1, 2;
