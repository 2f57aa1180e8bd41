-- Issue 19: the job keeps the lines of the quote it was booked at (BookingCreated's optional `quote`), so its invoice
-- shows the fees in force when the customer was quoted, not today's. NULL for jobs booked before (or callback quotes).
ALTER TABLE "billing"."job_snapshots" ADD COLUMN "quote_lines" JSONB;
