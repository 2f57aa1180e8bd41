import type { SqlExecutor } from '@tyres/events';

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
