/**
 * Keeping the day summaries up to date: the days event handlers marked dirty are claimed and recomputed from the
 * facts in batches (the SQL, and why the hand-over from the handlers is race-free: src/db/day-summaries.ts).
 */
import type { Db } from '../db/client';
import { anyDirtyDays, claimDirtyDays, clearDirtyDays, refreshDays } from '../db/day-summaries';
import { lockForHandler } from '../db/locks';

/**
 * Claims up to `limit` dirty days, recomputes their summaries and clears them, in one transaction (holding the
 * shared rebuild lock, like a handler). Returns how many days were refreshed.
 */
export async function refreshDirtyDays(db: Db, limit = 200): Promise<number> {
  if (!(await anyDirtyDays(db))) return 0;
  return db.$transaction(
    async (tx) => {
      await lockForHandler(tx);
      const claimed = await claimDirtyDays(tx, limit);
      if (claimed.length === 0) return 0;
      for (const kind of ['customer', 'cost'] as const) {
        const days = claimed.filter((c) => c.kind === kind).map((c) => c.day);
        if (days.length) await refreshDays(tx, kind, days);
      }
      await clearDirtyDays(tx, claimed);
      return claimed.length;
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}
