-- Issue 16: day marks are append-only. A handler used to mark a day with INSERT ... ON CONFLICT ("kind", "day")
-- DO UPDATE, which waits for any other transaction holding that day's row: two batches (or two replicas) touching the
-- same day queued behind each other, and every batch waited for the day refresher while it recomputed the days it had
-- claimed. Now every mark is its own row (no unique key): marking never waits, and the refresher deletes exactly the
-- marks it read (src/db/day-summaries.ts).
-- AlterTable
ALTER TABLE "dirty_days" DROP CONSTRAINT "dirty_days_pkey",
ADD COLUMN     "id" BIGSERIAL NOT NULL,
ADD CONSTRAINT "dirty_days_pkey" PRIMARY KEY ("id");
