import { quoteIdent, type SqlExecutor } from '@tyres/events';
import type { Logger } from 'pino';
import { IDEMPOTENCY_RETENTION_MS } from './idempotency';

/** Inbox rows only need to outlive redeliveries and dead-letter replays. */
export const INBOX_RETENTION_MS = 30 * 24 * 3600_000;
export const MAINTENANCE_INTERVAL_MS = 12 * 3600_000;

/** Rows per DELETE: small enough that one batch is a short transaction even on a never-purged table. */
export const PURGE_BATCH_SIZE = 5000;
/** Pause between batches, so a large first purge leaves room for the service's own writes and for vacuum. */
export const PURGE_BATCH_PAUSE_MS = 50;

export interface MaintenanceResult {
  inboxRows: number;
  idempotencyKeys: number;
}

export interface BatchedPurgeOptions {
  batchSize?: number;
  pauseMs?: number;
  /** Checked between batches: a stopping runtime does not wait for a long purge to finish. */
  shouldStop?: () => boolean;
}

/**
 * Deletes the rows of `schema.table` whose `column` is older than `olderThanMs`, `batchSize` rows per statement
 * (each its own short transaction) until a batch comes back short. The cutoff is read once from the database clock
 * so rows aging past it during the loop wait for the next run, and the loop always ends. Safe on every replica at
 * once: a row another replica deleted first is simply skipped.
 */
export async function purgeInBatches(
  db: SqlExecutor,
  target: { schema: string; table: string; column: string },
  olderThanMs: number,
  options: BatchedPurgeOptions = {},
): Promise<{ rows: number; batches: number }> {
  const table = `${quoteIdent(target.schema)}.${quoteIdent(target.table)}`;
  const column = quoteIdent(target.column);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? PURGE_BATCH_SIZE));
  const pauseMs = options.pauseMs ?? PURGE_BATCH_PAUSE_MS;
  const [cut] = await db.$queryRawUnsafe<{ cutoff: Date }[]>(
    `SELECT now() - $1::bigint * interval '1 millisecond' AS cutoff`,
    Math.floor(olderThanMs),
  );
  let rows = 0;
  let batches = 0;
  for (;;) {
    // ctid: DELETE has no LIMIT; the sub-select picks one batch by physical row address (via the column's index).
    const deleted = Number(
      await db.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${column} < $1 LIMIT $2)`,
        cut?.cutoff,
        batchSize,
      ),
    );
    rows += deleted;
    batches += 1;
    if (deleted < batchSize || options.shouldStop?.()) break;
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return { rows, batches };
}

export interface Maintenance {
  /** One pass: purges old inbox rows and idempotency keys of this service's schema. */
  runOnce(): Promise<MaintenanceResult>;
  start(): void;
  stop(): void;
}

/**
 * The table housekeeping every service needs, run by the runtime so no service can forget it (issue 13: booking's
 * and billing's inbox tables grew forever): inbox rows older than 30 days, idempotency keys older than a day.
 * Idempotent batched DELETEs on a timer (indexed on the age column), safe on every replica at once.
 */
export function createMaintenance(deps: {
  db: SqlExecutor;
  schema: string;
  logger: Logger;
  intervalMs?: number;
  inboxRetentionMs?: number;
  idempotencyRetentionMs?: number;
  batchSize?: number;
  batchPauseMs?: number;
}): Maintenance {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let hasIdempotency: boolean | undefined;
  const batching: BatchedPurgeOptions = {
    batchSize: deps.batchSize,
    pauseMs: deps.batchPauseMs,
    shouldStop: () => stopped,
  };
  const runOnce = async (): Promise<MaintenanceResult> => {
    const inbox = await purgeInBatches(
      deps.db,
      { schema: deps.schema, table: 'inbox_events', column: 'handled_at' },
      deps.inboxRetentionMs ?? INBOX_RETENTION_MS,
      batching,
    );
    if (hasIdempotency === undefined) {
      const rows = await deps.db.$queryRawUnsafe<{ exists: boolean }[]>(
        `SELECT to_regclass($1) IS NOT NULL AS exists`,
        `${quoteIdent(deps.schema)}.idempotency_keys`,
      );
      hasIdempotency = rows[0]?.exists === true;
    }
    const keys = hasIdempotency
      ? await purgeInBatches(
          deps.db,
          { schema: deps.schema, table: 'idempotency_keys', column: 'created_at' },
          deps.idempotencyRetentionMs ?? IDEMPOTENCY_RETENTION_MS,
          batching,
        )
      : { rows: 0, batches: 0 };
    const result = { inboxRows: inbox.rows, idempotencyKeys: keys.rows };
    if (result.inboxRows || result.idempotencyKeys)
      deps.logger.info({ ...result, batches: inbox.batches + keys.batches }, 'maintenance purged old rows');
    return result;
  };
  return {
    runOnce,
    start() {
      if (timer) return;
      stopped = false;
      const interval = deps.intervalMs ?? MAINTENANCE_INTERVAL_MS;
      // First pass soon after start (jittered, so replicas do not all run at once), then on the interval.
      const first = setTimeout(
        () => {
          void runOnce().catch((err: unknown) => deps.logger.warn({ err }, 'maintenance failed; will retry'));
          timer = setInterval(() => {
            runOnce().catch((err: unknown) => deps.logger.warn({ err }, 'maintenance failed; will retry'));
          }, interval);
          timer.unref();
        },
        Math.min(interval, 60_000 + Math.random() * 60_000),
      );
      first.unref();
      timer = first;
    },
    stop() {
      stopped = true;
      if (timer) {
        clearTimeout(timer);
        clearInterval(timer);
      }
      timer = undefined;
    },
  };
}
