import {
  createServiceApp,
  createServiceRuntime,
  identityMiddleware,
  type Logger,
  type ServiceRuntime,
} from '@tyres/service-kit';
import { GstBlockCache } from './app/gst-block-cache';
import { ReportUseCases } from './app/reports';
import type { Config } from './config';
import { createDb, DB_SCHEMA, type Db } from './db/client';
import { reportingHandlers } from './events/handlers';
import { REPORTING_BATCH, subscribeReporting } from './events/subscriptions';
import { erasureHandlers } from './events/erasure-handlers';
import { mountRoutes } from './http/routes';
import { createDayRefresher } from './workers/day-refresher';

export interface ReportingOverrides {
  clock?: () => Date;
}

/**
 * The composition root shared by main.ts and the integration tests, in plain order: runtime → day refresher and
 * report use cases → subscriptions → HTTP. Everything closes in order on shutdown (service-kit's runtime, which
 * also purges old inbox rows).
 */
export async function startReporting(
  config: Config,
  logger: Logger,
  overrides: ReportingOverrides = {},
): Promise<ServiceRuntime<Db>> {
  const db = createDb(config.DATABASE_URL);
  const clock = overrides.clock ?? (() => new Date());
  const runtime = createServiceRuntime({ name: 'reporting', schema: DB_SCHEMA, config, logger, db });

  // Day summaries follow the facts in the background: recomputed for the days events marked dirty, at once after
  // each handled event (wake) and on a short poll for days other replicas marked.
  const refresher = createDayRefresher({ db, logger });
  const reports = new ReportUseCases({
    db,
    clock,
    gstCache: new GstBlockCache(config.GST_BLOCK_CACHE_MB * 1024 * 1024),
  });

  // A full batch means a backlog: the refresher then refreshes at a slower pace (each day once per round, not once
  // per batch that touched it); otherwise it refreshes at once. A batch that is not full during a backlog may be its
  // end: if the queue has no message ready, the backlog is folded and the refresher's pause ends now (issue 16: it
  // used to run on for up to 4x a refresh after the last batch). Under load a backlog also has short batches (the
  // linger expires before the broker refills the prefetch), hence the queue check rather than the size alone.
  const backlogMaybeDone = () => {
    if (!refresher.inBacklog()) return refresher.wake();
    void runtime.bus.queueDepth().then(
      (ready) => (ready === 0 ? refresher.backlogDone() : refresher.wake()),
      () => refresher.wake(),
    );
  };
  subscribeReporting(
    runtime.bus,
    reportingHandlers({
      db,
      afterCommit: (events) =>
        events >= config.REPORTING_BATCH_SIZE ? refresher.backlog() : backlogMaybeDone(),
    }),
    erasureHandlers({ db, afterCommit: () => refresher.wake() }),
    {
      ...REPORTING_BATCH,
      maxMessages: config.REPORTING_BATCH_SIZE,
      concurrency: config.REPORTING_BATCH_CONCURRENCY,
    },
  );

  // service-kit's serviceHttp, spelled out; the registry goes to the runtime, which adds the pipeline's lag metrics.
  const svc = createServiceApp({ name: 'reporting', logger, readiness: runtime.readiness });
  svc.app.use(identityMiddleware(config.INTERNAL_JWT_PUBLIC_KEY));
  mountRoutes(reports)(svc.app);
  const http = { app: svc.finalize(), setDraining: svc.setDraining, registry: svc.metrics.registry };
  return runtime.listen(http, {
    start: async () => {
      refresher.start();
      runtime.lifecycle.onShutdown('day refresher', () => refresher.stop());
    },
  });
}
