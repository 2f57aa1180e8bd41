import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import { z } from 'zod';

export const configSchema = serviceEnvSchema(3004).extend({
  /**
   * Budget of the GST report's day-block cache (src/app/gst-block-cache.ts), in MiB; 0 turns it off (every block
   * read from Postgres on every request). A two-year history of 200,000 GST rows takes about 34 MiB.
   */
  GST_BLOCK_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(128),
  /**
   * Event batches folded at once per replica (src/events/subscriptions.ts, REPORTING_BATCH). `npm run
   * bench:reporting` compares 1 and the default 2, on one and on two replicas.
   */
  REPORTING_BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * Most events per batch (one transaction) (src/events/subscriptions.ts, REPORTING_BATCH). The consumer's prefetch
   * follows it (batch size x (concurrency + 1)).
   */
  REPORTING_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
});
export type Config = z.output<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
