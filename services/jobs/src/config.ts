import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import { z } from 'zod';

export const configSchema = serviceEnvSchema(3002).extend({
  /** The booking service (slot reservations), called synchronously for reschedule, cancel and delete. */
  BOOKING_URL: z.string().url().default('http://127.0.0.1:3001'),
  /** Longest wait for one booking call; the job's row lock is held meanwhile, so keep it short. */
  BOOKING_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
  /** Postgres connections of this replica. */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
});
export type Config = z.output<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
