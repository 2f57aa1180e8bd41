/**
 * The event store: every consumed event once, in `reporting.events` (append-only), read back per aggregate (live
 * handler) or in pages of one aggregate type (rebuild). `seq` is the arrival order, stable across rebuilds.
 */
import type { SqlExecutor } from '@tyres/events';
import type { AggregateRef, AggregateType, ConsumedEvent, StoredEvent } from '../domain/aggregates';

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

/**
 * Stores the event (once: `event_id` is unique) and returns all of its aggregate's stored events in arrival order,
 * the new one included; undefined when the event was already stored.
 */
export async function storeEvent(
  tx: SqlExecutor,
  event: ConsumedEvent,
  ref: AggregateRef,
): Promise<StoredEvent[] | undefined> {
  const rows = await tx.$queryRawUnsafe<{ seq: bigint; envelope: string | null; inserted: boolean }[]>(
    STORE_AND_LOAD_SQL,
    event.id,
    event.type,
    ref.type,
    ref.id,
    event.occurredAt,
    JSON.stringify(event),
  );
  if (!rows.some((r) => r.inserted)) return undefined;
  return rows
    .map((r) => (r.inserted ? { seq: BigInt(r.seq), event } : storedEvent(BigInt(r.seq), r.envelope)))
    .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
}

const PAGE_SQL = `SELECT "aggregate_id"::text AS id, "seq", "envelope"::text AS envelope
    FROM "reporting"."events"
   WHERE "aggregate_type" = $1 AND ("aggregate_id", "seq") > ($2::uuid, $3::bigint)
   ORDER BY "aggregate_id", "seq"
   LIMIT $4::int`;

/** Where a page of stored events starts: after this aggregate and seq. */
export interface EventCursor {
  id: string;
  seq: bigint;
}

export const BEFORE_ALL_EVENTS: EventCursor = { id: '00000000-0000-0000-0000-000000000000', seq: 0n };

/** Up to `limit` stored events of one aggregate type after the cursor, in (aggregate, seq) order. */
export async function eventPage(
  tx: SqlExecutor,
  type: AggregateType,
  after: EventCursor,
  limit: number,
): Promise<{ id: string; stored: StoredEvent }[]> {
  const rows = await tx.$queryRawUnsafe<{ id: string; seq: bigint; envelope: string }[]>(
    PAGE_SQL,
    type,
    after.id,
    after.seq,
    limit,
  );
  return rows.map((row) => ({ id: row.id, stored: storedEvent(BigInt(row.seq), row.envelope) }));
}

/** An envelope read back from `events.envelope` (as text): it was validated by its contract before it was stored. */
export function storedEvent(seq: bigint, envelope: string | unknown): StoredEvent {
  return { seq, event: (typeof envelope === 'string' ? JSON.parse(envelope) : envelope) as ConsumedEvent };
}
