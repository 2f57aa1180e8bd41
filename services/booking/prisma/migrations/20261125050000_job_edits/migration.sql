-- Issue 19 (job editing reaches booking): an admin's edit of the job (jobs' job.updated.v1) is applied to the
-- booking, so the cancellation and no-show terms and the customer's manage page use the edited price and details.
-- job_edit_version: the highest edit version applied (0 = never edited); an older edit delivered late never
-- overwrites a newer one. edited_total: the job's price after the staff edit (GST inclusive); NULL = never edited,
-- the booking's quote (total) is the price. The quote columns (items, subtotal, gst, total) stay what was quoted.
-- notes_set_at / vehicle_set_at: when the notes / vehicle shown were last written after booking (a customer's
-- correction or a staff edit), so each of the two writers wins a field only when it wrote it last.
ALTER TABLE "bookings" ADD COLUMN "job_edit_version" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "bookings" ADD COLUMN "edited_total" DECIMAL(10,2);
ALTER TABLE "bookings" ADD COLUMN "notes_set_at" TIMESTAMPTZ(3);
ALTER TABLE "bookings" ADD COLUMN "vehicle_set_at" TIMESTAMPTZ(3);
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_edited_total_not_negative" CHECK ("edited_total" IS NULL OR "edited_total" >= 0);
