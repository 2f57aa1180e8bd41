-- CreateTable
CREATE TABLE "job_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "technician_id" UUID NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "job_count_deltas_pkey" PRIMARY KEY ("id")
);

-- ---------------------------------------------------------------------------------------------------------------
-- Hand-written (issue 16): the count trigger of *_list_counts upserted the job_counts row of the job's (status,
-- technician) inside the writer's transaction, so every new job ('new', unassigned: one row) held that row until it
-- committed and every other job write across all replicas queued behind it. Now a job write only appends its
-- -1/+1 to job_count_deltas (an insert: nothing shared to wait for), and a list total is the sum of job_counts
-- plus job_count_deltas over the same filter (jobs-repository.ts listSql), so it stays exact at every snapshot.
--
-- The deltas are folded into job_counts by the writers themselves, once per statement, under a try-lock: the
-- statement that gets the fold lock moves every visible delta into job_counts in one statement (DELETE ...
-- RETURNING feeding the upsert); the others skip folding, so no writer ever waits. Folding is atomic with the
-- writer's transaction (a rollback restores the deltas), and only one transaction at a time holds the lock, so two
-- folds never move the same delta and job_counts rows are only ever locked by the one folder.
-- ---------------------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION "jobs"."jobs_count_change"(p_status text, p_technician uuid, p_delta integer) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "jobs"."job_count_deltas" ("status", "technician_id", "delta")
  VALUES (p_status, COALESCE(p_technician, '00000000-0000-0000-0000-000000000000'::uuid), p_delta);
END
$fn$;

-- The fold lock: a transaction-scoped advisory lock in the two-key space ('jobs', 'cnts'), distinct from the one-key
-- job-id locks (JobsRepository.lockJobId). A count below zero still fails the fold (job_counts_n_check): drift shows.
CREATE OR REPLACE FUNCTION "jobs"."jobs_fold_count_deltas"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF pg_try_advisory_xact_lock(1785684595, 1668183155) THEN
    -- Update, then insert the new keys (not ON CONFLICT: its proposed row would fail the CHECK for a net -1 before
    -- the conflict is seen). No race on a new key: only the lock holder writes job_counts.
    WITH moved AS (DELETE FROM "jobs"."job_count_deltas" RETURNING "status", "technician_id", "delta"),
    summed AS (SELECT "status", "technician_id", sum("delta")::int AS "d" FROM moved GROUP BY 1, 2),
    updated AS (
      UPDATE "jobs"."job_counts" c SET "n" = c."n" + s."d" FROM summed s
      WHERE c."status" = s."status" AND c."technician_id" = s."technician_id" AND s."d" <> 0
      RETURNING c."status", c."technician_id")
    INSERT INTO "jobs"."job_counts" ("status", "technician_id", "n")
    SELECT s."status", s."technician_id", s."d" FROM summed s
    WHERE s."d" <> 0
      AND NOT EXISTS (SELECT 1 FROM "jobs"."job_counts" c WHERE c."status" = s."status" AND c."technician_id" = s."technician_id");
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "jobs_fold_count_deltas" AFTER INSERT OR UPDATE OF "status", "assigned_technician_id", "deleted_at" OR DELETE
    ON "jobs"."jobs" FOR EACH STATEMENT EXECUTE FUNCTION "jobs"."jobs_fold_count_deltas"();
