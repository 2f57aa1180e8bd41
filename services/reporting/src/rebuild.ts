/**
 * `npm run reporting:rebuild` (node services/reporting/dist/rebuild.js): rebuilds every reporting projection from
 * the stored events. Safe while the service runs: live event handling pauses for the rebuild's transaction and
 * readers see the old facts until the new ones commit. Needs only DATABASE_URL (and LOG_LEVEL).
 */
import { baseEnvSchema, createLogger, loadConfig } from '@tyres/service-kit';
import { createDb } from './db/client';
import { rebuildProjections } from './app/rebuild';

async function main(): Promise<void> {
  const config = loadConfig(baseEnvSchema.pick({ DATABASE_URL: true, LOG_LEVEL: true }));
  const logger = createLogger('reporting-rebuild', { level: config.LOG_LEVEL });
  const db = createDb(config.DATABASE_URL, 2);
  try {
    logger.info('rebuilding reporting projections from reporting.events');
    const result = await rebuildProjections(db, {
      onProgress: (type, events) => {
        if (events % 50_000 === 0) logger.info({ type, events }, 'progress');
      },
    });
    const rate = result.ms > 0 ? Math.round((result.events / result.ms) * 1000) : result.events;
    logger.info({ ...result, eventsPerSecond: rate }, 'projections rebuilt');
    process.stdout.write(
      `reporting: rebuilt ${result.facts} facts from ${result.events} events in ${result.ms} ms (${rate} events/s)\n`,
    );
  } finally {
    await db.$disconnect();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`reporting rebuild failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
