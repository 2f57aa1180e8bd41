import { createLogger, runMain } from '@tyres/service-kit';
import { startTelemetry } from '@tyres/telemetry';
import { loadServiceConfig } from './config';
import { startNotify } from './service';

runMain('notify', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('notify', { level: config.LOG_LEVEL });
  // Before anything serves: the trace context must be in place for the first request (OTEL_* variables).
  const telemetry = startTelemetry('notify', { warn: (msg) => logger.warn({ component: 'telemetry' }, msg) });
  const { runtime } = await startNotify(config, logger);
  runtime.lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
