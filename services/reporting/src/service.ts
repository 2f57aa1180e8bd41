import { purgeInbox } from '@tyres/events';
import { serviceHttp, startService, type Logger, type ServiceRuntime } from '@tyres/service-kit';
import type { Config } from './config';
import { createDb, DB_SCHEMA, type Db } from './db/client';
import { startDayRefresher, type DayRefresher } from './db/day-summaries';
import { subscribeReporting } from './events/subscriptions';
import { mountRoutes } from './http/routes';

export interface ReportingOverrides {
  clock?: () => Date;
}

/** Inbox rows older than this are purged (far beyond any retry or DLQ replay); the event store's unique event id
 * still refuses a duplicate after that. */
export const INBOX_RETENTION_MS = 30 * 24 * 3600_000;
const INBOX_PURGE_EVERY_MS = 6 * 3600_000;

/**
 * The composition root shared by main.ts and the integration tests: config → db → bus subscriptions → HTTP.
 * Everything closes in order on shutdown (service-kit's runtime).
 */
export async function startReporting(
  config: Config,
  logger: Logger,
  overrides: ReportingOverrides = {},
): Promise<ServiceRuntime<Db>> {
  const db = createDb(config.DATABASE_URL);
  const clock = overrides.clock ?? (() => new Date());
  let refresher: DayRefresher | undefined;
  return startService<Db>({
    name: 'reporting',
    schema: DB_SCHEMA,
    config,
    logger,
    db,
    subscribe: ({ bus }) => subscribeReporting(bus, db, () => refresher?.wake()),
    http: ({ readiness }) =>
      serviceHttp({
        name: 'reporting',
        logger,
        readiness,
        identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
        routes: (app) => mountRoutes(app, { db, clock }),
      }),
    start: async ({ lifecycle }) => {
      // Day summaries: recomputed from the facts for the days events marked dirty (src/db/day-summaries.ts).
      refresher = startDayRefresher({ db, logger });
      lifecycle.onShutdown('day refresher', () => refresher?.stop());
      const purge = () =>
        purgeInbox(db, DB_SCHEMA, INBOX_RETENTION_MS)
          .then((n) => (n > 0 ? logger.info({ purged: n }, 'old inbox rows purged') : undefined))
          .catch((err: unknown) => logger.warn({ err }, 'inbox purge failed; retrying later'));
      const timer = setInterval(purge, INBOX_PURGE_EVERY_MS);
      timer.unref();
      lifecycle.onShutdown('inbox purge', () => clearInterval(timer));
    },
  });
}
