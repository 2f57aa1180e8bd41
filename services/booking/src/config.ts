import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import { z } from 'zod';

export const configSchema = serviceEnvSchema(3001)
  .extend({
    /** How long a prepaid quote holds its slot while the customer pays (README: decisions). */
    BOOKING_HOLD_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(30),
    /**
     * The most unpaid, unexpired prepaid holds one client (the gateway's x-client-address) may have at once; at the
     * cap POST /api/bookings/quote answers 429 with Retry-After until the oldest one runs out (issue 14 item 5).
     */
    MAX_OPEN_HOLDS_PER_CLIENT: z.coerce.number().int().min(1).max(1000).default(3),
    /**
     * How far ahead customers and staff may book: today (Perth) plus this many days. Later dates list no bookable
     * slots, and quotes, holds, bookings and moves to them are refused (issue 14 item 6).
     */
    BOOKING_HORIZON_DAYS: z.coerce.number().int().positive().max(3660).default(90),
    /** Photos may be added to a booking for this long after it was made. */
    PHOTO_UPLOAD_WINDOW_MINUTES: z.coerce.number().positive().default(60),
    /**
     * The most a photo upload request may carry, in bytes. Above the gateway's MAX_UPLOAD_BYTES (30 MiB), so a
     * body the gateway lets through is always read to its end before booking answers; only a body past this is
     * cut off (answer, then the connection is closed).
     */
    PHOTO_UPLOAD_MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(6 * 1_048_576)
      .default(32 * 1_048_576),
    /**
     * After an upload has been refused, how long the rest of its body is read and discarded before answering anyway
     * (and closing the connection). Reading it lets a proxy finish sending, so the refusal reaches the customer.
     */
    PHOTO_UPLOAD_DRAIN_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
    /** Issue 18 (privacy): photos are deleted this many months after their job was paid (docs/privacy.md). */
    PHOTO_RETENTION_MONTHS: z.coerce.number().int().min(0).max(120).default(12),
    /** How often the photo retention sweep looks for photos past their time. */
    PHOTO_RETENTION_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(3_600_000),
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
    /**
     * The public site's origin (scheme and host), for the "manage my booking" links in confirmation emails and SMS:
     * `<PUBLIC_SITE_URL>/manage/<token>`. Required when NODE_ENV=production (a link to the local default would reach
     * no customer); elsewhere it falls back to SITE_URL (the shell's setting, compose's .env), then the gateway on
     * port 8080.
     */
    PUBLIC_SITE_URL: z.url().optional(),
    SITE_URL: z.union([z.url(), z.literal('')]).optional(),
    /**
     * The gateway (GET /internal/technicians: the roster's one-off pull of the technicians created before it,
     * app/roster-sync.ts). Required in production (deploy/service-calls.json): in a container the loopback default
     * would be this container itself.
     */
    GATEWAY_URL: z.url().optional(),
    GATEWAY_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    /** First wait before the roster pull is tried again (doubling after each failure, up to the max). */
    ROSTER_SYNC_RETRY_MS: z.coerce.number().int().positive().default(30_000),
    ROSTER_SYNC_RETRY_MAX_MS: z.coerce.number().int().positive().default(900_000),
    /**
     * Tests only (src/test-clock.ts): `header` lets a request move booking's "now" with x-test-clock-offset-ms, so
     * the end-to-end suites can cancel hours before a slot or mark a no-show after it started. Refused in production.
     */
    TEST_CLOCK: z.enum(['off', 'header']).default('off'),
  })
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === 'production' && env.TEST_CLOCK !== 'off')
        ctx.addIssue({
          code: 'custom',
          path: ['TEST_CLOCK'],
          message: 'is for tests only and cannot be enabled when NODE_ENV=production',
        });
      if (env.NODE_ENV === 'production' && !env.GATEWAY_URL)
        ctx.addIssue({
          code: 'custom',
          path: ['GATEWAY_URL'],
          message: 'is required when NODE_ENV=production (the gateway service, e.g. http://gateway:8080)',
        });
      if (env.NODE_ENV === 'production' && !env.PUBLIC_SITE_URL)
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_SITE_URL'],
          message:
            'is required when NODE_ENV=production (the public site customers open their manage-my-booking links on, ' +
            'e.g. https://www.example.com.au)',
        });
    },
    // Also when another variable is bad, so one start names every problem.
    { when: () => true },
  );
export type Config = z.output<typeof configSchema>;

/** Where the manage links point (see PUBLIC_SITE_URL). */
export const publicSiteUrl = (config: Config): string =>
  config.PUBLIC_SITE_URL || config.SITE_URL || 'http://localhost:8080';

/** Where the gateway runs on a developer's machine (`npm start`, tests). */
const LOCAL_GATEWAY_URL = 'http://127.0.0.1:8080';

/** The gateway's URL (see GATEWAY_URL; production refuses to start without it). */
export const gatewayUrl = (config: Pick<Config, 'GATEWAY_URL'>): string => config.GATEWAY_URL ?? LOCAL_GATEWAY_URL;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);
