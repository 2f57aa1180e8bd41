import type { SqlExecutor } from '@tyres/events';
import type { AggregateRef } from '../domain/aggregates';
import { DB_SCHEMA } from './client';

/**
 * The rebuild lock: a transaction-scoped advisory lock in the two-key space (never overlaps the one-key space used
 * for aggregates). Everything that writes projections outside a rebuild holds it shared; a rebuild holds it
 * exclusively, so the two never interleave.
 */
export const REBUILD_LOCK: readonly [number, number] = [0x7265_706f, 1]; // 'repo', 1

export async function lockForHandler(tx: SqlExecutor): Promise<void> {
  await tx.$executeRawUnsafe(
    'SELECT pg_advisory_xact_lock_shared($1::int, $2::int)',
    REBUILD_LOCK[0],
    REBUILD_LOCK[1],
  );
}

export async function lockForRebuild(tx: SqlExecutor): Promise<void> {
  await tx.$executeRawUnsafe(
    'SELECT pg_advisory_xact_lock($1::int, $2::int)',
    REBUILD_LOCK[0],
    REBUILD_LOCK[1],
  );
}

/** The rebuild lock (shared) and the aggregate's lock, in one round trip. */
const LOCK_AGGREGATE_SQL = `SELECT pg_advisory_xact_lock_shared($1::int, $2::int), pg_advisory_xact_lock(hashtextextended($3, 0))`;

/**
 * What an event handler holds: the rebuild lock shared, and its aggregate's lock, so two events of the same invoice
 * or job handled at once (prefetch > 1, several replicas) never compute its facts from each other's half-committed
 * state.
 */
export async function lockForAggregate(tx: SqlExecutor, ref: AggregateRef): Promise<void> {
  await tx.$executeRawUnsafe(
    LOCK_AGGREGATE_SQL,
    REBUILD_LOCK[0],
    REBUILD_LOCK[1],
    `${DB_SCHEMA}:${ref.type}:${ref.id}`,
  );
}

/**
 * `lockForAggregate` for a batch of events: the rebuild lock shared, then every aggregate's lock (same keys as the
 * single-event path), in sorted order so two batches sharing aggregates wait for each other, never in a cycle.
 */
export async function lockForAggregates(tx: SqlExecutor, refs: readonly AggregateRef[]): Promise<void> {
  await lockForHandler(tx);
  const keys = [...new Set(refs.map((ref) => `${DB_SCHEMA}:${ref.type}:${ref.id}`))].sort();
  if (keys.length === 0) return;
  // A function scan yields the array's elements in order: the locks are taken in that order.
  await tx.$executeRawUnsafe(
    'SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0))) FROM unnest($1::text[]) AS k',
    keys,
  );
}
