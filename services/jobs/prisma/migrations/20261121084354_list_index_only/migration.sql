-- Hand-written: the partial list indexes carry the list filters' columns, so finding a page's ids (deep pages,
-- multi-status filters) is an index-only scan that never visits heap rows and their stored documents (see
-- listSql in services/jobs/src/db/jobs-repository.ts). Same names, same keys, plus INCLUDE columns.
DROP INDEX "jobs_live_created_idx";
CREATE INDEX "jobs_live_created_idx" ON "jobs" ("created_at" DESC, "id" DESC)
    INCLUDE ("status", "assigned_technician_id") WHERE "deleted_at" IS NULL;
DROP INDEX "jobs_live_status_created_idx";
CREATE INDEX "jobs_live_status_created_idx" ON "jobs" ("status", "created_at" DESC, "id" DESC)
    INCLUDE ("assigned_technician_id") WHERE "deleted_at" IS NULL;
