-- Hand-written (Prisma's schema language has no triggers): every change to a slot reservation or a slot block
-- sends NOTIFY booking_slots '<YYYY-MM-DD>' when its transaction commits. Each booking replica LISTENs and drops its
-- cached slot list for that date (src/db/slot-cache.ts), so cached lists never outlive a change, whoever made it
-- (the API, the hold sweeper, event handlers, or someone with psql).
CREATE OR REPLACE FUNCTION "notify_slot_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pg_notify('booking_slots', to_char(OLD."date", 'YYYY-MM-DD'));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_notify('booking_slots', to_char(NEW."date", 'YYYY-MM-DD'));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "slot_reservations_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "slot_reservations"
  FOR EACH ROW EXECUTE FUNCTION "notify_slot_change"();

CREATE TRIGGER "time_slots_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "time_slots"
  FOR EACH ROW EXECUTE FUNCTION "notify_slot_change"();
