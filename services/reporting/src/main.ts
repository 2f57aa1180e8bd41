import { createLogger, runMain } from '@tyres/service-kit';
import { loadServiceConfig } from './config';
import { startReporting } from './service';

runMain('reporting', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('reporting', { level: config.LOG_LEVEL });
  const runtime = await startReporting(config, logger);
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
