import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import { z } from 'zod';

export const configSchema = serviceEnvSchema(3001).extend({
  /** How long a prepaid quote holds its slot while the customer pays (README: decisions). */
  BOOKING_HOLD_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(30),
  /** Photos may be added to a booking for this long after it was made. */
  PHOTO_UPLOAD_WINDOW_MINUTES: z.coerce.number().positive().default(60),
  /** How often expired holds are released (and BookingExpired emitted). */
  HOLD_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(15_000),
  /** Connections in this replica's Postgres pool. */
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().max(100).default(10),
  /** Google Places (New) key; without it address suggestions come from the offline gazetteer. */
  GOOGLE_PLACES_API_KEY: z.string().min(10).optional(),
  GOOGLE_PLACES_TIMEOUT_MS: z.coerce.number().int().positive().default(2500),
  /**
   * The business's inbox for bookings that need a person (a payment that arrived after its slot was taken).
   * Without it the customer is still emailed and the case is logged at error level.
   */
  STAFF_ALERT_EMAIL: z.email().optional(),
});
export type Config = z.output<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
