import { createLogger, runMain } from '@tyres/service-kit';
import { loadGatewayConfig } from './config';
import { startGateway } from './service';

runMain('gateway', async () => {
  const config = loadGatewayConfig();
  const runtime = await startGateway(config, createLogger('gateway', { level: config.LOG_LEVEL }));
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
