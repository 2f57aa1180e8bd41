import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import { z } from 'zod';

/** Where booking runs on a developer's machine (`npm start`, tests). */
const LOCAL_BOOKING_URL = 'http://127.0.0.1:3001';

export const configSchema = serviceEnvSchema(3002)
  .extend({
    /**
     * The booking service (slot reservations), called synchronously for reschedule, cancel and delete. Required in
     * production (deploy/service-calls.json): in a container the loopback default would be this container itself.
     */
    BOOKING_URL: z.string().url().optional(),
    /** Longest wait for one booking call; the job's row lock is held meanwhile, so keep it short. */
    BOOKING_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(3000),
    /** Postgres connections of this replica. */
    DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  })
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === 'production' && !env.BOOKING_URL)
        ctx.addIssue({
          code: 'custom',
          path: ['BOOKING_URL'],
          message: 'is required when NODE_ENV=production (the booking service, e.g. http://booking:3001)',
        });
    },
    // Also when another variable is bad, so one start names every problem.
    { when: () => true },
  )
  .transform((env) => ({ ...env, BOOKING_URL: env.BOOKING_URL ?? LOCAL_BOOKING_URL }));
export type Config = z.output<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
