-- Hand-written: the schedule calendar lists a scheduled-date range (?scheduledFrom&scheduledTo, see
-- scheduledListSql in services/jobs/src/db/jobs-repository.ts). The live schedule index carries the list's
-- filter and order columns, so the range's ids are found, counted and sorted by an index-only scan that never
-- visits heap rows and their stored documents. Same name, same keys, plus INCLUDE columns.
DROP INDEX "jobs_live_schedule_idx";
CREATE INDEX "jobs_live_schedule_idx" ON "jobs" ("scheduled_date", "time_slot")
    INCLUDE ("created_at", "id", "status", "assigned_technician_id") WHERE "deleted_at" IS NULL;
