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
import { storeEvent } from '../db/event-store';
import { lockForAggregate } from '../db/locks';
import { deleteFacts, writeFacts } from '../db/projections';
import { aggregateOf, type AggregateRef, type ConsumedEvent, type StoredEvent } from '../domain/aggregates';
import { affectedDays, projectAggregate } from '../domain/facts';

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
