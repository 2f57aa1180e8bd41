-- The newest JobUpdated version applied to the record (0: none): older versions delivered late are ignored.
ALTER TABLE "booking_records" ADD COLUMN "job_edit_version" INTEGER NOT NULL DEFAULT 0;
