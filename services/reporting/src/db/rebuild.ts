import type { AggregateType, StoredEvent } from '../domain/aggregates';
import type { Db } from './client';
import { refreshAllDays } from './day-summaries';
import { lockForRebuild } from './locks';
import { FACT_TABLES, FactBatch, PROJECTED, storedEvent } from './projections';

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

const PAGE_SQL = `SELECT "aggregate_id"::text AS id, "seq", "envelope"::text AS envelope
    FROM "reporting"."events"
   WHERE "aggregate_type" = $1 AND ("aggregate_id", "seq") > ($2::uuid, $3::bigint)
   ORDER BY "aggregate_id", "seq"
   LIMIT $4::int`;

const BEFORE_ALL = { id: '00000000-0000-0000-0000-000000000000', seq: 0n };

/**
 * Throws every projection away and folds it again from `reporting.events`, in one transaction: readers see the
 * old facts until the new ones commit, live handlers wait (rebuild lock), and a failure leaves everything as it was.
 * The facts are a pure function of the stored events, so the reports afterwards are byte for byte the same.
 */
export async function rebuildProjections(db: Db, options: RebuildOptions = {}): Promise<RebuildResult> {
  const pageSize = options.pageSize ?? 10_000;
  const started = Date.now();
  return db
    .$transaction(
      async (tx) => {
        await lockForRebuild(tx);
        // DELETE, not TRUNCATE: TRUNCATE's exclusive lock would block every report read until the rebuild commits,
        // while a DELETE lets readers keep reading the old rows (MVCC) in the meantime.
        for (const table of FACT_TABLES) await tx.$executeRawUnsafe(`DELETE FROM "reporting"."${table}"`);
        let events = 0;
        let facts = 0;
        for (const type of PROJECTED) {
          // Pages in (aggregate, seq) order; an aggregate cut by a page boundary is carried into the next page.
          let cursor = BEFORE_ALL;
          let carried: { id: string; events: StoredEvent[] } | undefined;
          let typeEvents = 0;
          for (;;) {
            const rows = await tx.$queryRawUnsafe<{ id: string; seq: bigint; envelope: string }[]>(
              PAGE_SQL,
              type,
              cursor.id,
              cursor.seq,
              pageSize,
            );
            const batch = new FactBatch();
            for (const row of rows) {
              if (carried && carried.id !== row.id) {
                batch.add(type, carried.events);
                carried = undefined;
              }
              carried ??= { id: row.id, events: [] };
              carried.events.push(storedEvent(BigInt(row.seq), row.envelope));
            }
            const last = rows[rows.length - 1];
            const done = rows.length < pageSize;
            if (done && carried) {
              batch.add(type, carried.events);
              carried = undefined;
            }
            facts += batch.size;
            await batch.insert(tx);
            events += rows.length;
            typeEvents += rows.length;
            options.onProgress?.(type, typeEvents);
            if (done || !last) break;
            cursor = { id: last.id, seq: BigInt(last.seq) };
          }
        }
        await refreshAllDays(tx);
        return { events, facts, ms: Date.now() - started };
      },
      { maxWait: 60_000, timeout: options.timeoutMs ?? 30 * 60_000 },
    )
    .then(async (result) => {
      // Every row was rewritten: refresh the planner's statistics and the visibility map (index-only scans) now
      // rather than whenever autovacuum gets to it. VACUUM cannot run inside the transaction.
      await db.$executeRawUnsafe(
        `VACUUM (ANALYZE) ${FACT_TABLES.map((t) => `"reporting"."${t}"`).join(', ')}`,
      );
      return { ...result, ms: Date.now() - started };
    });
}
