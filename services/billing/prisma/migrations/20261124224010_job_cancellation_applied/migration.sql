-- AlterTable
ALTER TABLE "job_snapshots" ADD COLUMN     "cancellation_event_id" UUID;
