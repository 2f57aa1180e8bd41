-- AlterTable
ALTER TABLE "gst_day_blocks" ADD COLUMN     "revision" BIGSERIAL NOT NULL;
