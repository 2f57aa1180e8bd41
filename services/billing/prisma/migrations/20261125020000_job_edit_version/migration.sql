-- Issue 19: the job projection remembers the last JobUpdated version it applied (an admin's edit of the job).
ALTER TABLE "billing"."job_snapshots" ADD COLUMN "edit_version" INTEGER NOT NULL DEFAULT 0;
