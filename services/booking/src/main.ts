import { createLogger, runMain } from '@tyres/service-kit';
import { startTelemetry } from '@tyres/telemetry';
import { loadServiceConfig } from './config';
import { startBooking } from './service';
import { headerTestClock } from './test-clock';

runMain('booking', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('booking', { level: config.LOG_LEVEL });
  // Before anything serves: the trace context must be in place for the first request (OTEL_* variables).
  const telemetry = startTelemetry('booking', {
    warn: (msg) => logger.warn({ component: 'telemetry' }, msg),
  });
  // Tests only (config refuses it in production): a request's x-test-clock-offset-ms moves booking's "now".
  const testClock = config.TEST_CLOCK === 'header' ? headerTestClock() : undefined;
  if (testClock) logger.warn('TEST_CLOCK=header: requests may move the clock (end-to-end tests only)');
  const service = await startBooking(
    config,
    logger,
    testClock ? { clock: testClock.clock, beforeRoutes: testClock.middleware } : {},
  );
  service.runtime.lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  return { lifecycle: service.runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
