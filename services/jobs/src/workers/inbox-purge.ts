import { purgeInbox } from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import { DB_SCHEMA, type Db } from '../db/client';

/** Inbox rows only need to outlive redeliveries and dead-letter replays. */
export const INBOX_RETENTION_MS = 30 * 24 * 3600_000;
export const INBOX_PURGE_INTERVAL_MS = 12 * 3600_000;

export interface InboxPurger {
  /** One pass: deletes inbox rows older than the retention; returns how many. */
  runOnce(): Promise<number>;
  start(): void;
  stop(): void;
}

/**
 * Keeps `jobs.inbox_events` small: deletes rows older than 30 days, twice a day. A plain timer rather than a BullMQ
 * queue: the work is one idempotent DELETE, safe on every replica at once.
 */
export function createInboxPurger(deps: {
  db: Db;
  logger: Logger;
  intervalMs?: number;
  retentionMs?: number;
}): InboxPurger {
  let timer: NodeJS.Timeout | undefined;
  const runOnce = () => purgeInbox(deps.db, DB_SCHEMA, deps.retentionMs ?? INBOX_RETENTION_MS);
  return {
    runOnce,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        runOnce().catch((err: unknown) => deps.logger.warn({ err }, 'inbox purge failed; will retry'));
      }, deps.intervalMs ?? INBOX_PURGE_INTERVAL_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
