import { createLogger, runMain } from '@tyres/service-kit';
import { startTelemetry } from '@tyres/telemetry';
import { loadServiceConfig } from './config';
import { startReporting } from './service';

runMain('reporting', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('reporting', { level: config.LOG_LEVEL });
  // Before anything serves: the trace context must be in place for the first request (OTEL_* variables).
  const telemetry = startTelemetry('reporting', {
    warn: (msg) => logger.warn({ component: 'telemetry' }, msg),
  });
  const runtime = await startReporting(config, logger);
  runtime.lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
