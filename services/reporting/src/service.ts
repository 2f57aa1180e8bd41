import { serviceHttp, startService, type Logger, type ServiceRuntime } from '@tyres/service-kit';
import type { Config } from './config';
import { createDb, DB_SCHEMA, type Db } from './db/client';

import { GstBlockCache } from './db/gst-block-cache';
import { subscribeReporting } from './events/subscriptions';
import { mountRoutes } from './http/routes';
import { startDayRefresher, type DayRefresher } from './workers/day-refresher';
import { startInboxPurge } from './workers/inbox-purge';

export interface ReportingOverrides {
  clock?: () => Date;
}

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
        routes: (app) =>
          mountRoutes(app, {
            db,
            clock,
            gstCache: new GstBlockCache(config.GST_BLOCK_CACHE_MB * 1024 * 1024),
          }),
      }),
    start: async ({ lifecycle }) => {
      // Background work (src/workers): day summaries recomputed for the days events marked dirty; old inbox rows purged.
      refresher = startDayRefresher({ db, logger });
      lifecycle.onShutdown('day refresher', () => refresher?.stop());
      const stopPurge = startInboxPurge(db, logger);
      lifecycle.onShutdown('inbox purge', stopPurge);
    },
  });
}
