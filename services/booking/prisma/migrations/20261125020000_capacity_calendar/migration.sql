-- Issue 19: capacity per technician and the business calendar.
--
-- A slot now holds as many live reservations as technicians are rostered that day (minus leave; one when nobody is
-- rostered). The one-live-reservation unique index goes: the guarantee is now the per-(date, slot) advisory lock
-- that every writer of a slot takes first (db/slots.ts lockSlot), under which the live reservations are counted
-- against the capacity in a fresh statement (READ COMMITTED), so N racing writers for a slot of capacity C leave
-- exactly C reservations. A plain partial index keeps the count cheap.
DROP INDEX IF EXISTS "slot_reservations_active_slot_key";
CREATE INDEX "slot_reservations_live_slot_idx" ON "slot_reservations" ("date", "time_slot") WHERE "released_at" IS NULL;

-- The roster: technicians learnt from the gateway's user events (user.created / user.status-changed), each with the
-- ISO weekdays they work (1 = Monday ... 7 = Sunday; default Monday to Friday).
CREATE TABLE "roster_technicians" (
    "user_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "is_active" BOOLEAN NOT NULL,
    "weekdays" INTEGER[] NOT NULL DEFAULT ARRAY[1, 2, 3, 4, 5]::INTEGER[],
    "fact_at" TIMESTAMPTZ(3) NOT NULL,
    "changed_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "roster_technicians_pkey" PRIMARY KEY ("user_id")
);

-- A technician's leave, whole days from start_date to end_date inclusive. Deleting keeps the row (deleted_at).
CREATE TABLE "technician_leave" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE NOT NULL,
    "reason" TEXT NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "technician_leave_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "technician_leave_user_id_start_date_end_date_idx" ON "technician_leave" ("user_id", "start_date", "end_date");

-- Calendar blocks with a reason: a whole day (start = end, no slot), a date range (optionally one slot), or a
-- recurring slot (a weekday and a slot from start_date, until end_date when given).
CREATE TABLE "calendar_blocks" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "start_date" DATE NOT NULL,
    "end_date" DATE,
    "weekday" INTEGER,
    "time_slot" TEXT,
    "reason" TEXT NOT NULL,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    "deleted_by" UUID,

    CONSTRAINT "calendar_blocks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "calendar_blocks_start_date_end_date_idx" ON "calendar_blocks" ("start_date", "end_date");

-- WA public holidays are closed unless an admin opens them: one row per opened holiday.
CREATE TABLE "holiday_openings" (
    "date" DATE NOT NULL,
    "reason" TEXT,
    "opened_by" UUID,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "holiday_openings_pkey" PRIMARY KEY ("date")
);

-- Hand-written: the checks Prisma cannot express.
ALTER TABLE "calendar_blocks" ADD CONSTRAINT "calendar_blocks_shape" CHECK (
  ("kind" = 'day' AND "end_date" = "start_date" AND "weekday" IS NULL)
  OR ("kind" = 'range' AND "end_date" >= "start_date" AND "weekday" IS NULL)
  OR ("kind" = 'recurring' AND "weekday" BETWEEN 1 AND 7 AND "time_slot" IS NOT NULL
      AND ("end_date" IS NULL OR "end_date" >= "start_date"))
);
ALTER TABLE "technician_leave" ADD CONSTRAINT "technician_leave_dates" CHECK ("end_date" >= "start_date");

-- Cached slot lists (src/db/slot-cache.ts) drop what a change touches: an opened holiday its date; a roster, leave
-- or calendar-block change may touch any date, so it sends '*' (every replica drops its whole cache).
CREATE OR REPLACE FUNCTION "notify_calendar_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('booking_slots', '*');
  RETURN NULL;
END
$$;

CREATE TRIGGER "roster_technicians_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "roster_technicians"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_calendar_change"();
CREATE TRIGGER "technician_leave_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "technician_leave"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_calendar_change"();
CREATE TRIGGER "calendar_blocks_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "calendar_blocks"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_calendar_change"();
CREATE TRIGGER "holiday_openings_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "holiday_openings"
  FOR EACH ROW EXECUTE FUNCTION "notify_slot_change"();
