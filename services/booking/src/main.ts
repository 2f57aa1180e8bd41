import { createLogger, runMain } from '@tyres/service-kit';
import { startTelemetry } from '@tyres/telemetry';
import { loadServiceConfig } from './config';
import { startBooking } from './service';

runMain('booking', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('booking', { level: config.LOG_LEVEL });
  // Before anything serves: the trace context must be in place for the first request (OTEL_* variables).
  const telemetry = startTelemetry('booking', {
    warn: (msg) => logger.warn({ component: 'telemetry' }, msg),
  });
  const service = await startBooking(config, logger);
  service.runtime.lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  return { lifecycle: service.runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
