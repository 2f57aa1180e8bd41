/**
 * Recording a consumed event: stored once in `reporting.events` (append-only), and the facts of its aggregate
 * recomputed from all of the aggregate's stored events in the same transaction (which also holds the inbox row),
 * with the days they touch marked for the day refresher.
 *
 * Locks (transaction-scoped advisory locks, released at commit/rollback):
 * - the rebuild lock, shared by every handler and taken exclusively by a rebuild, so a rebuild never interleaves
 *   with live folding (handlers wait for it, it waits for running handlers);
 * - one lock per aggregate, so two events of the same invoice or job handled at once (prefetch > 1, several
 *   replicas) never compute its facts from each other's half-committed state.
 */
import type { SqlExecutor } from '@tyres/events';
import { storeEvent, storeEvents } from '../db/event-store';
import { lockForAggregate, lockForAggregates } from '../db/locks';
import { deleteFacts, deleteFactsOf, FactBatch, markDays, writeFacts } from '../db/projections';
import {
  aggregateOf,
  type AggregateRef,
  type AggregateType,
  type ConsumedEvent,
  type StoredEvent,
} from '../domain/aggregates';
import { affectedDays, PROJECTED, projectAggregate } from '../domain/facts';
import type { IsoDate } from '../domain/period';

export type RecordOutcome = 'stored' | 'already-stored';

/** Stores the event (once) and re-projects its aggregate. Runs inside the inbox transaction. */
export async function recordEvent(tx: SqlExecutor, event: ConsumedEvent): Promise<RecordOutcome> {
  const ref = aggregateOf(event);
  await lockForAggregate(tx, ref);
  const events = await storeEvent(tx, event, ref);
  // Already in the store (the inbox row was purged, or it came in under another handler name): its effect exists.
  if (!events) return 'already-stored';
  await reproject(tx, ref, events);
  return 'stored';
}

/** Replaces one aggregate's facts with what its stored events say now, and marks the days they touch dirty. */
export async function reproject(tx: SqlExecutor, ref: AggregateRef, events: StoredEvent[]): Promise<void> {
  if (ref.type === 'payment') return; // stored for later reports; no projection yet
  // Jobs have no day summaries.
  const days = ref.type === 'job' ? [] : affectedDays(events);
  const facts = projectAggregate(ref.type, events);
  if (facts) await writeFacts(tx, facts, days);
  else await deleteFacts(tx, ref.type, ref.id, days);
}

/**
 * `recordEvent` for a batch (the live consumer's path), inside the batch's inbox transaction: every aggregate
 * locked (sorted), the events stored in the given order (ids already stored are skipped, as one by one), then each
 * aggregate that got a new event re-projected from all its stored events with the same fold (`projectAggregate`)
 * and row mappers (`FactBatch`) as the rebuild, written with one statement per table, and the days touched marked.
 * The events must be distinct (the inbox dedupes them first).
 */
export async function recordEvents(tx: SqlExecutor, events: readonly ConsumedEvent[]): Promise<void> {
  if (events.length === 0) return;
  const batch = events.map((event) => ({ event, ref: aggregateOf(event) }));
  await lockForAggregates(
    tx,
    batch.map((b) => b.ref),
  );
  const aggregates = await storeEvents(tx, batch);
  const facts = new FactBatch();
  const gone = new Map<Exclude<AggregateType, 'payment'>, string[]>(PROJECTED.map((t) => [t, []]));
  const days = { customer: new Set<IsoDate>(), cost: new Set<IsoDate>() };
  for (const { ref, events: stored } of aggregates) {
    if (ref.type === 'payment') continue; // stored for later reports; no projection yet
    const f = projectAggregate(ref.type, stored);
    if (f) facts.add(f);
    else gone.get(ref.type)?.push(ref.id);
    // Jobs have no day summaries.
    if (ref.type === 'job') continue;
    const kind = ref.type === 'customer-invoice' ? days.customer : days.cost;
    for (const day of affectedDays(stored)) kind.add(day);
  }
  await facts.upsert(tx);
  for (const [type, ids] of gone) await deleteFactsOf(tx, type, ids);
  // The days touched, for the day refresher (append-only marks: no other batch or refresher waits on them).
  await markDays(tx, 'customer', [...days.customer].sort());
  await markDays(tx, 'cost', [...days.cost].sort());
}
