import { createLogger, runMain } from '@tyres/service-kit';
import { loadServiceConfig } from './config';
import { startBooking } from './service';

runMain('booking', async () => {
  const config = loadServiceConfig();
  const logger = createLogger('booking', { level: config.LOG_LEVEL });
  const service = await startBooking(config, logger);
  return { lifecycle: service.runtime.lifecycle, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS };
});
