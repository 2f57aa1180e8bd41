/**
 * Day summaries: per-day aggregates of the facts, so a report over any period reads at most one row per day and
 * group instead of every invoice.
 *
 * - `gst_day_blocks`: the day's GST and the day's rows of the GST report lists, pre-joined in report order, with a
 *   `revision` (from a sequence) that changes whenever the block's content does (the GST route caches blocks by it);
 * - `revenue_daily`: ex-GST revenue of issued customer invoices per category;
 * - `cost_daily`: purchase invoices and business expenses per source, supplier, category and paid flag.
 *
 * The event handler only marks the days its aggregate touched as dirty (`dirty_days`, in its own transaction); the
 * day refresher recomputes dirty days from the facts in batches, a moment later (it is woken after every handled
 * event). A busy day is recomputed once per batch instead of once per event, and the handler's transaction stays
 * short. A refresh recomputes whole days from the facts, so the result does not depend on the order events
 * arrived in, and a rebuild computes exactly the same rows.
 *
 * Hand-over between handler and refresher (no change is ever left out, and nobody waits for anybody on a day):
 * - the handler marks a day by inserting a row into `dirty_days` (append-only: one row per transaction and day, no
 *   unique key), in the transaction that writes the facts, so a mark is visible exactly when its facts are;
 * - the refresher reads the marks it sees (committed ones), recomputes those days with a later statement (READ
 *   COMMITTED: a new snapshot, which holds every fact committed with the marks it read), and deletes exactly the marks
 *   it read, by id. A mark committed meanwhile is not deleted: its day is refreshed again next time;
 * - two refreshers (one per replica) never recompute the same day at once: each day it takes is held with a
 *   transaction-scoped advisory lock, tried (days another refresher holds are skipped, not waited for). So an older
 *   snapshot's result never overwrites a newer one.
 * Before (issue 16), a mark was an upsert on a unique (kind, day) row: two batches (or replicas) touching the same
 * day queued behind each other, and every batch waited for the refresher while it recomputed the days it had
 * claimed FOR UPDATE.
 */
import type pg from 'pg';
import type { Db, Tx } from './client';

/** customer: customer invoices. cost: purchase invoices and business expenses. */
export type DayKind = 'customer' | 'cost';

/** Every summary table (and the dirty marks: a rebuild recomputes every day anyway). */
export const SUMMARY_TABLES: readonly string[] = [
  'dirty_days',
  'gst_day_blocks',
  'revenue_daily',
  'cost_daily',
];

/**
 * A data-modifying CTE marking the days of a JSON array parameter dirty, for a fact-writing statement: one new mark
 * per day (append-only, never waits for another transaction).
 */
export const markDaysSql = (kind: DayKind, param: string) =>
  `dirty AS (INSERT INTO "reporting"."dirty_days" ("kind", "day")
     SELECT '${kind}', d.value::date FROM (SELECT DISTINCT value FROM jsonb_array_elements_text(${param}::jsonb)) AS d
     RETURNING 1)`;

/**
 * Which days a refresh covers, as a condition on a date column: the days of the `$1::date[]` parameter (an array
 * constant the planner sees, so it uses the date indexes), or every day (rebuild).
 */
type DayFilter = (column: string) => string;
const PARAM_DAYS: DayFilter = (column) => `${column} = ANY($1::date[])`;
const ALL_DAYS: DayFilter = (column) => `${column} IS NOT NULL`;

const customerSql = (days: DayFilter) => `WITH blocks AS (
    SELECT f."invoice_date" AS day, SUM(f."gst_amount") AS gst, COUNT(*)::int AS n,
           string_agg(f."gst_row", ',' ORDER BY f."invoice_number" COLLATE "C", f."invoice_id") AS rows
      FROM "reporting"."customer_invoice_facts" f
     WHERE f."issued" AND ${days('f."invoice_date"')}
     GROUP BY f."invoice_date"
  ),
  gone_blocks AS (
    DELETE FROM "reporting"."gst_day_blocks" b
     WHERE b."kind" = 'customer' AND ${days('b."day"')} AND NOT EXISTS (SELECT 1 FROM blocks x WHERE x.day = b."day")
    RETURNING 1
  ),
  put_blocks AS (
    INSERT INTO "reporting"."gst_day_blocks" AS b ("kind", "day", "gst_amount", "row_count", "rows")
    SELECT 'customer', day, gst, n, rows FROM blocks
    ON CONFLICT ("kind", "day") DO UPDATE
      SET "gst_amount" = EXCLUDED."gst_amount", "row_count" = EXCLUDED."row_count", "rows" = EXCLUDED."rows",
          "revision" = DEFAULT
      WHERE (b."gst_amount", b."row_count", b."rows") IS DISTINCT FROM (EXCLUDED."gst_amount", EXCLUDED."row_count", EXCLUDED."rows")
    RETURNING 1
  ),
  revenue AS (
    SELECT r."invoice_date" AS day, r."category", SUM(r."amount") AS amount
      FROM "reporting"."customer_invoice_revenue_facts" r
     WHERE r."issued" AND ${days('r."invoice_date"')}
     GROUP BY r."invoice_date", r."category"
  ),
  gone_revenue AS (
    DELETE FROM "reporting"."revenue_daily" v
     WHERE ${days('v."day"')} AND NOT EXISTS (SELECT 1 FROM revenue x WHERE x.day = v."day" AND x."category" = v."category")
    RETURNING 1
  ),
  put_revenue AS (
    INSERT INTO "reporting"."revenue_daily" ("day", "category", "amount")
    SELECT day, "category", amount FROM revenue
    ON CONFLICT ("day", "category") DO UPDATE SET "amount" = EXCLUDED."amount"
    RETURNING 1
  )
  SELECT 1`;

const costSql = (days: DayFilter) => `WITH items AS (
    SELECT p."invoice_date" AS day, 'purchase-invoice' AS source, p."purchase_invoice_id" AS id, p."invoice_number" AS num,
           0 AS src, p."supplier_name", p."category", p."is_paid", p."total_amount" AS total, p."subtotal", p."gst_amount", p."gst_row"
      FROM "reporting"."purchase_invoice_facts" p WHERE ${days('p."invoice_date"')}
    UNION ALL
    SELECT e."expense_date", 'business-expense', e."expense_id", COALESCE(e."invoice_number", ''),
           1, e."supplier_name", e."category", e."is_paid", e."amount", e."subtotal", e."gst_amount", e."gst_row"
      FROM "reporting"."expense_facts" e WHERE ${days('e."expense_date"')}
  ),
  blocks AS (
    SELECT day, SUM("gst_amount") AS gst, COUNT(*)::int AS n,
           string_agg("gst_row", ',' ORDER BY num COLLATE "C", src, id) AS rows
      FROM items GROUP BY day
  ),
  gone_blocks AS (
    DELETE FROM "reporting"."gst_day_blocks" b
     WHERE b."kind" = 'purchase' AND ${days('b."day"')} AND NOT EXISTS (SELECT 1 FROM blocks x WHERE x.day = b."day")
    RETURNING 1
  ),
  put_blocks AS (
    INSERT INTO "reporting"."gst_day_blocks" AS b ("kind", "day", "gst_amount", "row_count", "rows")
    SELECT 'purchase', day, gst, n, rows FROM blocks
    ON CONFLICT ("kind", "day") DO UPDATE
      SET "gst_amount" = EXCLUDED."gst_amount", "row_count" = EXCLUDED."row_count", "rows" = EXCLUDED."rows",
          "revision" = DEFAULT
      WHERE (b."gst_amount", b."row_count", b."rows") IS DISTINCT FROM (EXCLUDED."gst_amount", EXCLUDED."row_count", EXCLUDED."rows")
    RETURNING 1
  ),
  costs AS (
    SELECT day, source, "supplier_name", "category", "is_paid", SUM(total) AS total, SUM("subtotal") AS subtotal, COUNT(*)::int AS n
      FROM items GROUP BY day, source, "supplier_name", "category", "is_paid"
  ),
  gone_costs AS (
    DELETE FROM "reporting"."cost_daily" c
     WHERE ${days('c."day"')} AND NOT EXISTS (
       SELECT 1 FROM costs x
        WHERE x.day = c."day" AND x.source = c."source" AND x."supplier_name" = c."supplier_name"
          AND x."category" = c."category" AND x."is_paid" = c."is_paid")
    RETURNING 1
  ),
  put_costs AS (
    INSERT INTO "reporting"."cost_daily" ("day", "source", "supplier_name", "category", "is_paid", "total_amount", "subtotal", "item_count")
    SELECT day, source, "supplier_name", "category", "is_paid", total, subtotal, n FROM costs
    ON CONFLICT ("day", "source", "supplier_name", "category", "is_paid") DO UPDATE
      SET "total_amount" = EXCLUDED."total_amount", "subtotal" = EXCLUDED."subtotal", "item_count" = EXCLUDED."item_count"
    RETURNING 1
  )
  SELECT 1`;

const REFRESH_DAYS: Record<DayKind, string> = {
  customer: customerSql(PARAM_DAYS),
  cost: costSql(PARAM_DAYS),
};
const REFRESH_ALL: Record<DayKind, string> = {
  customer: customerSql(ALL_DAYS),
  cost: costSql(ALL_DAYS),
};

export interface DirtyDay {
  kind: DayKind;
  day: string;
  /** The ids of the day's marks this refresher read, as a Postgres array literal (deleted once it is recomputed). */
  ids: string;
}

/**
 * Whether any day is marked dirty: one read outside a transaction, so an idle poll of the day refresher (every
 * 100 ms per replica) does not open a transaction, take the rebuild lock and claim nothing.
 */
export async function anyDirtyDays(db: Db): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<unknown[]>('SELECT 1 FROM "reporting"."dirty_days" LIMIT 1');
  return rows.length > 0;
}

/** Key space of the per-day refresh locks (advisory locks on hashtextextended of this + kind + day). */
const DAY_LOCK = 'reporting:dirty-day:';

/**
 * Takes up to `limit` dirty days, those marked longest ago first, each with the ids of the marks read: a day is
 * taken only if its advisory lock (transaction-scoped) is free, so another replica's refresher recomputing it right
 * now is skipped, not waited for. The lock is tried row by row as rows pass the filter and the LIMIT stops there, so
 * only the days returned are locked (the grouped subquery is not flattened, and a volatile qual is never pushed
 * into it).
 */
export async function claimDirtyDays(tx: Tx, limit: number): Promise<DirtyDay[]> {
  return tx.$queryRawUnsafe<DirtyDay[]>(
    `SELECT "kind", "day"::text AS day, "ids"::text AS ids FROM (
       SELECT "kind", "day", array_agg("id") AS ids, min("id") AS first FROM "reporting"."dirty_days"
        GROUP BY "kind", "day" ORDER BY first
     ) AS d
      WHERE pg_try_advisory_xact_lock(hashtextextended('${DAY_LOCK}' || "kind" || ':' || "day"::text, 0))
      LIMIT $1::int`,
    limit,
  );
}

/** Recomputes the summaries of `days` of one kind from the facts. */
export async function refreshDays(tx: Tx, kind: DayKind, days: string[]): Promise<void> {
  await tx.$executeRawUnsafe(REFRESH_DAYS[kind], `{${days.join(',')}}`);
}

/** Deletes the marks the refresher read (not the ones committed since: their days are refreshed next time). */
export async function clearDirtyDays(tx: Tx, claimed: DirtyDay[]): Promise<void> {
  const ids = claimed.map((c) => c.ids.slice(1, -1)).filter(Boolean);
  if (ids.length === 0) return;
  await tx.$executeRawUnsafe(
    'DELETE FROM "reporting"."dirty_days" WHERE "id" = ANY($1::bigint[])',
    `{${ids.join(',')}}`,
  );
}

/**
 * While a backlog is folded, one refresher at a time across replicas, pause included (see the day refresher): a
 * session-level advisory lock (two-key space, next to the rebuild lock) on a connection of its own, held for the run
 * and the pause after it. Refreshes during a backlog are mostly redone (the batches keep dirtying the same days), so
 * their cost must not grow with the number of replicas. Undefined when another replica holds it. If this process
 * dies, the connection closes and the lock goes with it.
 */
export async function tryBacklogRefreshSlot(
  pool: pg.Pool,
): Promise<{ release(): Promise<void> } | undefined> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_lock($1::int, $2::int) AS ok',
      BACKLOG_REFRESH_LOCK,
    );
    if (!rows[0]?.ok) {
      client.release();
      return undefined;
    }
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  return {
    async release() {
      try {
        await client.query('SELECT pg_advisory_unlock($1::int, $2::int)', BACKLOG_REFRESH_LOCK);
        client.release();
      } catch (err) {
        // Not unlocked: the connection is thrown away, which releases the lock.
        client.release(err as Error);
      }
    },
  };
}

/** The backlog slot's key ('repo', 2; the rebuild lock is 'repo', 1). */
const BACKLOG_REFRESH_LOCK = [0x7265_706f, 2];

/** Recomputes every day from the facts (rebuild: the summary tables are empty, the rebuild lock is held). */
export async function refreshAllDays(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe(REFRESH_ALL.customer);
  await tx.$executeRawUnsafe(REFRESH_ALL.cost);
}
