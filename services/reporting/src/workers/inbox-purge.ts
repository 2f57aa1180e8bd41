import { purgeInbox } from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import { DB_SCHEMA, type Db } from '../db/client';

/** Inbox rows older than this are purged (far beyond any retry or DLQ replay); the event store's unique event id
 * still refuses a duplicate after that. */
export const INBOX_RETENTION_MS = 30 * 24 * 3600_000;
const INBOX_PURGE_EVERY_MS = 6 * 3600_000;

/** Purges old inbox rows every few hours; returns the stop function. */
export function startInboxPurge(db: Db, logger: Logger, everyMs = INBOX_PURGE_EVERY_MS): () => void {
  const purge = () =>
    purgeInbox(db, DB_SCHEMA, INBOX_RETENTION_MS)
      .then((n) => (n > 0 ? logger.info({ purged: n }, 'old inbox rows purged') : undefined))
      .catch((err: unknown) => logger.warn({ err }, 'inbox purge failed; retrying later'));
  const timer = setInterval(purge, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
