import { createLogger, runMain } from '@tyres/service-kit';
import { loadServiceConfig } from './config';
import { startNotify } from './service';

runMain('notify', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('notify', { level: config.LOG_LEVEL });
  const { runtime } = await startNotify(config, logger);
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
