-- The maintenance purge (packages/service-kit/src/maintenance.ts) deletes inbox rows by age on every replica;
-- without this index each purge scans the whole table (issue 13).
-- Not CONCURRENTLY: Prisma runs each migration inside a transaction, where CREATE INDEX CONCURRENTLY is not
-- allowed. On a large never-purged inbox (booking, billing) the build blocks inbox writes while it runs: deploy in
-- a quiet window, or create the index CONCURRENTLY by hand first (IF NOT EXISTS then makes this a no-op).
-- CreateIndex
CREATE INDEX IF NOT EXISTS "inbox_events_handled_at_idx" ON "reporting"."inbox_events"("handled_at");
