-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "trace_context" JSONB;
