/**
 * The event store: every consumed event once, in `reporting.events` (append-only), and the facts of its aggregate
 * refreshed in the same transaction (which also holds the inbox row), with the days they touch marked for the day
 * refresher.
 *
 * Locks (transaction-scoped advisory locks, released at commit/rollback):
 * - the rebuild lock, shared by every handler and taken exclusively by a rebuild, so a rebuild never interleaves
 *   with live folding (handlers wait for it, it waits for running handlers);
 * - one lock per aggregate, so two events of the same invoice or job handled at once (prefetch > 1, several
 *   replicas) never compute its facts from each other's half-committed state.
 */
import { aggregateOf, type ConsumedEvent, type StoredEvent } from '../domain/aggregates';
import type { SqlExecutor } from '@tyres/events';
import { DB_SCHEMA } from './client';
import { REBUILD_LOCK } from './locks';
import { reproject, storedEvent } from './projections';

/** The rebuild lock (shared) and the aggregate's lock, in one round trip. */
const LOCK_SQL = `SELECT pg_advisory_xact_lock_shared($1::int, $2::int), pg_advisory_xact_lock(hashtextextended($3, 0))`;

/**
 * Inserts the event (unless its id is already stored) and returns the aggregate's events: the ones stored before
 * (the outer SELECT's snapshot does not include the insert) plus the new one, flagged. One round trip.
 */
const STORE_AND_LOAD_SQL = `WITH inserted AS (
    INSERT INTO "reporting"."events" ("event_id", "type", "aggregate_type", "aggregate_id", "occurred_at", "envelope")
    VALUES ($1::uuid, $2, $3, $4::uuid, $5::timestamptz, $6::jsonb)
    ON CONFLICT ("event_id") DO NOTHING
    RETURNING "seq"
  )
  SELECT "seq", NULL::text AS envelope, true AS inserted FROM inserted
  UNION ALL
  SELECT "seq", "envelope"::text, false FROM "reporting"."events" WHERE "aggregate_type" = $3 AND "aggregate_id" = $4::uuid`;

export type RecordOutcome = 'stored' | 'already-stored';

/**
 * Stores the event (once: `event_id` is unique) and recomputes its aggregate's facts from all of the aggregate's
 * stored events. Runs inside the inbox transaction.
 */
export async function recordEvent(tx: SqlExecutor, event: ConsumedEvent): Promise<RecordOutcome> {
  const ref = aggregateOf(event);
  await tx.$executeRawUnsafe(
    LOCK_SQL,
    REBUILD_LOCK[0],
    REBUILD_LOCK[1],
    `${DB_SCHEMA}:${ref.type}:${ref.id}`,
  );
  const rows = await tx.$queryRawUnsafe<{ seq: bigint; envelope: string | null; inserted: boolean }[]>(
    STORE_AND_LOAD_SQL,
    event.id,
    event.type,
    ref.type,
    ref.id,
    event.occurredAt,
    JSON.stringify(event),
  );
  const mine = rows.find((r) => r.inserted);
  // Already in the store (the inbox row was purged, or it came in under another handler name): its effect exists.
  if (!mine) return 'already-stored';
  const events: StoredEvent[] = rows
    .map((r) => (r.inserted ? { seq: BigInt(r.seq), event } : storedEvent(BigInt(r.seq), r.envelope)))
    .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  await reproject(tx, ref, events);
  return 'stored';
}
