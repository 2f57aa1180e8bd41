/**
 * Rebuilding every projection from the stored events (`npm run reporting:rebuild`, src/rebuild.ts).
 */
import type { Db } from '../db/client';
import { refreshAllDays } from '../db/day-summaries';
import { BEFORE_ALL_EVENTS, eventPage } from '../db/event-store';
import { lockForRebuild } from '../db/locks';
import { clearProjections, FactBatch, vacuumProjections } from '../db/projections';
import type { AggregateType, StoredEvent } from '../domain/aggregates';
import { PROJECTED, projectAggregate } from '../domain/facts';

export interface RebuildResult {
  events: number;
  facts: number;
  ms: number;
}

export interface RebuildOptions {
  /** Stored events read per round trip. */
  pageSize?: number;
  /** Longest the rebuild transaction may run (ms). */
  timeoutMs?: number;
  onProgress?: (type: AggregateType, events: number) => void;
}

/**
 * Throws every projection away and folds it again from `reporting.events`, in one transaction: readers see the
 * old facts until the new ones commit, live handlers wait (rebuild lock), and a failure leaves everything as it was.
 * The facts are a pure function of the stored events, so the reports afterwards are byte for byte the same.
 */
export async function rebuildProjections(db: Db, options: RebuildOptions = {}): Promise<RebuildResult> {
  const pageSize = options.pageSize ?? 10_000;
  const started = Date.now();
  const result = await db.$transaction(
    async (tx) => {
      await lockForRebuild(tx);
      await clearProjections(tx);
      let events = 0;
      let facts = 0;
      for (const type of PROJECTED) {
        // Pages in (aggregate, seq) order; an aggregate cut by a page boundary is carried into the next page.
        let cursor = BEFORE_ALL_EVENTS;
        let carried: { id: string; events: StoredEvent[] } | undefined;
        let typeEvents = 0;
        const fold = (batch: FactBatch, aggregate: StoredEvent[]) => {
          const f = projectAggregate(type, aggregate);
          if (f) batch.add(f);
        };
        for (;;) {
          const rows = await eventPage(tx, type, cursor, pageSize);
          const batch = new FactBatch();
          for (const row of rows) {
            if (carried && carried.id !== row.id) {
              fold(batch, carried.events);
              carried = undefined;
            }
            carried ??= { id: row.id, events: [] };
            carried.events.push(row.stored);
          }
          const last = rows[rows.length - 1];
          const done = rows.length < pageSize;
          if (done && carried) {
            fold(batch, carried.events);
            carried = undefined;
          }
          facts += batch.size;
          await batch.insert(tx);
          events += rows.length;
          typeEvents += rows.length;
          options.onProgress?.(type, typeEvents);
          if (done || !last) break;
          cursor = { id: last.id, seq: last.stored.seq };
        }
      }
      await refreshAllDays(tx);
      return { events, facts };
    },
    { maxWait: 60_000, timeout: options.timeoutMs ?? 30 * 60_000 },
  );
  // Every row was rewritten: statistics and the visibility map refreshed now (after the commit).
  await vacuumProjections(db);
  return { ...result, ms: Date.now() - started };
}
