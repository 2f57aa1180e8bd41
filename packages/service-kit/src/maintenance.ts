import { purgeInbox, quoteIdent, type SqlExecutor } from '@tyres/events';
import type { Logger } from 'pino';
import { IDEMPOTENCY_RETENTION_MS, purgeIdempotencyKeys } from './idempotency';

/** Inbox rows only need to outlive redeliveries and dead-letter replays. */
export const INBOX_RETENTION_MS = 30 * 24 * 3600_000;
export const MAINTENANCE_INTERVAL_MS = 12 * 3600_000;

export interface MaintenanceResult {
  inboxRows: number;
  idempotencyKeys: number;
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
 * Plain idempotent DELETEs on a timer, safe on every replica at once.
 */
export function createMaintenance(deps: {
  db: SqlExecutor;
  schema: string;
  logger: Logger;
  intervalMs?: number;
  inboxRetentionMs?: number;
  idempotencyRetentionMs?: number;
}): Maintenance {
  let timer: NodeJS.Timeout | undefined;
  let hasIdempotency: boolean | undefined;
  const runOnce = async (): Promise<MaintenanceResult> => {
    const inboxRows = await purgeInbox(deps.db, deps.schema, deps.inboxRetentionMs ?? INBOX_RETENTION_MS);
    if (hasIdempotency === undefined) {
      const rows = await deps.db.$queryRawUnsafe<{ exists: boolean }[]>(
        `SELECT to_regclass($1) IS NOT NULL AS exists`,
        `${quoteIdent(deps.schema)}.idempotency_keys`,
      );
      hasIdempotency = rows[0]?.exists === true;
    }
    const idempotencyKeys = hasIdempotency
      ? await purgeIdempotencyKeys(
          deps.db,
          deps.schema,
          deps.idempotencyRetentionMs ?? IDEMPOTENCY_RETENTION_MS,
        )
      : 0;
    if (inboxRows || idempotencyKeys)
      deps.logger.info({ inboxRows, idempotencyKeys }, 'maintenance purged old rows');
    return { inboxRows, idempotencyKeys };
  };
  return {
    runOnce,
    start() {
      if (timer) return;
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
      if (timer) {
        clearTimeout(timer);
        clearInterval(timer);
      }
      timer = undefined;
    },
  };
}
