import { createLogger, runMain } from '@tyres/service-kit';
import { startTelemetry } from '@tyres/telemetry';
import { loadGatewayConfig } from './config';
import { startGateway } from './service';

runMain('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', { level: config.LOG_LEVEL });
  // Before anything serves: the trace context must be in place for the first request (OTEL_* variables).
  const telemetry = startTelemetry('gateway', {
    warn: (msg) => logger.warn({ component: 'telemetry' }, msg),
  });
  const runtime = await startGateway(config, logger);
  runtime.lifecycle.onShutdown('telemetry', () => telemetry.shutdown());
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
