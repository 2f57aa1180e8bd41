import { createLogger, runMain } from '@tyres/service-kit';
import { loadServiceConfig } from './config';
import { startJobsService } from './service';

// The composition is src/service.ts; what the service consumes is listed in src/events/subscriptions.ts.
runMain('jobs', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('jobs', { level: config.LOG_LEVEL });
  const runtime = await startJobsService(config, logger);
  return { lifecycle: runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
