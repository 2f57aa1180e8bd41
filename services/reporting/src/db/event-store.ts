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

/**
 * Inserts a batch of events in the given order (those not stored yet; `seq` follows the order) and returns, for
 * every aggregate that got a new event, all of its stored events: the ones stored before (the outer SELECT's
 * snapshot does not include the insert) plus the new ones (envelope NULL: the caller has them). One round trip.
 */
const STORE_MANY_AND_LOAD_SQL = `WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb) AS x("ord" int, "event_id" uuid, "type" text, "aggregate_type" text,
      "aggregate_id" uuid, "occurred_at" timestamptz, "envelope" jsonb)
  ),
  inserted AS (
    INSERT INTO "reporting"."events" ("event_id", "type", "aggregate_type", "aggregate_id", "occurred_at", "envelope")
    SELECT "event_id", "type", "aggregate_type", "aggregate_id", "occurred_at", "envelope" FROM input ORDER BY "ord"
    ON CONFLICT ("event_id") DO NOTHING
    RETURNING "seq", "event_id", "aggregate_type", "aggregate_id"
  )
  SELECT i."aggregate_type"::text AS type, i."aggregate_id"::text AS id, i."seq", i."event_id"::text AS event_id,
         NULL::text AS envelope
    FROM inserted i
  UNION ALL
  SELECT e."aggregate_type"::text, e."aggregate_id"::text, e."seq", e."event_id"::text, e."envelope"::text
    FROM "reporting"."events" e
   WHERE (e."aggregate_type", e."aggregate_id") IN (SELECT DISTINCT "aggregate_type", "aggregate_id" FROM inserted)`;

/** An aggregate that got new events in a batch, with all of its stored events in arrival order. */
export interface StoredAggregate {
  ref: AggregateRef;
  events: StoredEvent[];
}

/**
 * Stores a batch of events (each once: `event_id` is unique; ids already stored are skipped) in the given order, and
 * returns every aggregate that got a new event with all its stored events in arrival order.
 */
export async function storeEvents(
  tx: SqlExecutor,
  batch: readonly { event: ConsumedEvent; ref: AggregateRef }[],
): Promise<StoredAggregate[]> {
  if (batch.length === 0) return [];
  const byId = new Map<string, { event: ConsumedEvent; ref: AggregateRef }>();
  for (const item of batch) byId.set(item.event.id.toLowerCase(), item);
  const rows = await tx.$queryRawUnsafe<
    { type: string; id: string; seq: bigint | string; event_id: string; envelope: string | null }[]
  >(
    STORE_MANY_AND_LOAD_SQL,
    JSON.stringify(
      batch.map(({ event, ref }, ord) => ({
        ord,
        event_id: event.id,
        type: event.type,
        aggregate_type: ref.type,
        aggregate_id: ref.id,
        occurred_at: event.occurredAt,
        envelope: event,
      })),
    ),
  );
  const aggregates = new Map<string, StoredAggregate>();
  for (const row of rows) {
    const key = `${row.type}:${row.id}`;
    let aggregate = aggregates.get(key);
    if (!aggregate) {
      aggregate = { ref: { type: row.type as AggregateRef['type'], id: row.id }, events: [] };
      aggregates.set(key, aggregate);
    }
    const seq = BigInt(row.seq);
    const mine = row.envelope === null ? byId.get(row.event_id) : undefined;
    if (mine) aggregate.ref = mine.ref;
    aggregate.events.push(mine ? { seq, event: mine.event } : storedEvent(seq, row.envelope));
  }
  for (const aggregate of aggregates.values())
    aggregate.events.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  return [...aggregates.values()];
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
