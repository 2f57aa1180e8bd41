import { createLogger, runMain } from '@tyres/service-kit';
import { loadServiceConfig } from './config';
import { startBilling } from './service';

runMain('billing', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('billing', { level: config.LOG_LEVEL });
  const { runtime } = await startBilling(config, logger);
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
