import { createLogger, runMain } from '@tyres/service-kit';
import { loadServiceConfig } from './config';
import { startJobsService } from './service';

// Composition root. The event subscriptions are listed in one place: src/service.ts (`subscribe`).
runMain('jobs', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('jobs', { level: config.LOG_LEVEL });
  const runtime = await startJobsService(config, logger);
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
