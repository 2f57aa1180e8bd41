import { createLogger, runMain } from '@tyres/service-kit';
import { startTelemetry } from '@tyres/telemetry';
import { loadServiceConfig } from './config';
import { startJobsService } from './service';

// The composition is src/service.ts; what the service consumes is listed in src/events/subscriptions.ts.
runMain('jobs', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('jobs', { level: config.LOG_LEVEL });
  // Before anything serves: the trace context must be in place for the first request (OTEL_* variables).
  const telemetry = startTelemetry('jobs', { warn: (msg) => logger.warn({ component: 'telemetry' }, msg) });
  const runtime = await startJobsService(config, logger);
  runtime.lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
