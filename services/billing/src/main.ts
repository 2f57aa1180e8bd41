import { createLogger, runMain } from '@tyres/service-kit';
import { startTelemetry } from '@tyres/telemetry';
import { loadServiceConfig } from './config';
import { startBilling } from './service';

runMain('billing', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('billing', { level: config.LOG_LEVEL });
  // Before anything serves: the trace context must be in place for the first request (OTEL_* variables).
  const telemetry = startTelemetry('billing', {
    warn: (msg) => logger.warn({ component: 'telemetry' }, msg),
  });
  const { runtime } = await startBilling(config, logger);
  runtime.lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
