-- Hand-written (issue 19 audit): every active technician reaches booking's roster once after the upgrade.
--
-- Booking learns technicians only from the gateway's user events (user.created.v1, user.status-changed.v1), so a
-- technician created before booking kept a roster was never on it. This writes one user.status-changed.v1 per active
-- technician into the outbox, in the exact envelope createEvent builds and the relay publishes
-- (packages/events/src/contracts/user-status-changed.v1.ts; trace_context NULL: no span at migration time, the relay
-- then starts its own). The event states the user as it is now (changedAt = now), so:
--   - booking rosters the technician Monday to Friday (the roster's column default, as for a new technician); a
--     technician already on the roster keeps their weekdays (the roster upsert changes only name and active flag);
--   - an admin's change made after this migration carries a later changedAt and wins whatever the arrival order
--     (booking's and jobs' upserts keep the newest fact), so a late backfill never undoes it;
--   - redelivery is harmless (booking's inbox, and the upsert is idempotent); jobs' directory gets the same fact it
--     already has; notify only acts on deactivations.
-- available_at is 5 minutes ahead: booking binds its queue to user.status-changed.v1 when it starts, and an event
-- published before any queue is bound to it is dropped by the exchange, so the gateway's relay waits for the
-- rollout of booking. (Re-running this INSERT by hand is safe for the same reasons, should booking come up later.)
INSERT INTO "outbox_events" ("id", "type", "payload", "created_at", "available_at", "trace_context")
SELECT e.id,
       'user.status-changed.v1',
       jsonb_build_object(
         'id', e.id::text,
         'type', 'user.status-changed.v1',
         'version', 1,
         'occurredAt', e.at,
         'source', 'gateway',
         'correlationId', 'gateway-migration-technician-roster-backfill',
         'data', jsonb_build_object(
           'userId', u.id::text,
           'username', u.username,
           'role', u.role::text,
           'isActive', u.is_active,
           'changedAt', e.at
         )
       ),
       now(),
       now() + interval '5 minutes',
       NULL
  FROM "users" u
 CROSS JOIN LATERAL (
       SELECT gen_random_uuid() AS id,
              to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at,
              u.id AS for_user
       ) e
 WHERE u.role = 'technician' AND u.is_active
 ORDER BY u.created_at, u.id;
