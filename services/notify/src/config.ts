import { parseQuietWindow } from './domain/quiet-hours';
import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import { z } from 'zod';

const url = z.string().url();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const positiveInt = z.coerce.number().int().positive();

export const configSchema = serviceEnvSchema(3005)
  .extend({
    // --- SMS (Twilio) -----------------------------------------------------------------------------------------
    /** All three set: SMS go through Twilio. None set: the local transport records them in the delivery log. */
    TWILIO_ACCOUNT_SID: z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC + 32 hex digits)')
      .optional(),
    TWILIO_AUTH_TOKEN: z.string().min(16, 'must be a Twilio auth token').optional(),
    /** Sender: an E.164 number (+61...) or an alphanumeric sender id (up to 11 characters, e.g. "MobileTyres"). */
    TWILIO_FROM_NUMBER: z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|[A-Za-z0-9 ]{1,11})$/,
        'must be an E.164 number (+61...) or an alphanumeric sender id',
      )
      .optional(),
    /** Twilio API base URL override (a local fake in tests); Twilio's own hosts otherwise. */
    TWILIO_API_BASE: url.optional(),

    // --- Email (SMTP) -----------------------------------------------------------------------------------------
    /** smtp://user:pass@host:587 or smtps://...:465. Without it emails go to the local transport (delivery log). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    EMAIL_FROM: z.string().min(3).default('Mobile Tyres Perth <bookings@localhost>'),
    /** Where customer replies go (defaults to EMAIL_FROM). */
    EMAIL_REPLY_TO: z.string().min(3).optional(),

    // --- What the booking confirmation says ---------------------------------------------------------------------
    BUSINESS_NAME: z.string().min(1).default('Mobile Tyres Perth'),
    /** The spec's contact phone ({phone}); shown as the way to cancel or reschedule. */
    BUSINESS_PHONE: z.string().default(''),

    /**
     * The business's review page (e.g. its Google review link). Set: a paid, completed job's customer is emailed a
     * review request with it (once per job, with an unsubscribe link). Unset or empty: no review requests.
     */
    REVIEW_URL: z
      .union([z.url(), z.literal('')])
      .optional()
      .transform((v) => v || null),
    /**
     * The public site's origin, where the unsubscribe page and its API are (`<PUBLIC_SITE_URL>/unsubscribe/<token>`).
     * Falls back to SITE_URL, then the local gateway (booking's manage links use the same setting).
     */
    PUBLIC_SITE_URL: z.url().optional(),
    SITE_URL: z.union([z.url(), z.literal('')]).optional(),
    /**
     * How long a booking's confirmation waits for its manage link (booking sends it with the booking, so it is
     * normally there within a second) before it goes without one.
     */
    CONFIRMATION_LINK_WAIT_MS: positiveInt.default(60_000),

    /**
     * Quiet hours, Perth time: nothing but the en route SMS is sent between these times; the rest waits for the
     * morning. `off` sends at once (the tracing and end-to-end stacks, whose own tests do not wait until 8 am).
     */
    QUIET_HOURS: z
      .string()
      .default('20:00-08:00')
      .transform((value, ctx) => {
        try {
          return parseQuietWindow(value);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }),

    // --- Background work ----------------------------------------------------------------------------------------
    /** Run the sms and email workers in this process (default); false for a WebSocket-only replica. */
    RUN_WORKERS: bool.default(true),
    SMS_CONCURRENCY: positiveInt.default(5),
    EMAIL_CONCURRENCY: positiveInt.default(5),
    /** Attempts per message (first one included) before it is marked failed. */
    SMS_ATTEMPTS: positiveInt.default(5),
    EMAIL_ATTEMPTS: positiveInt.default(5),
    /** First retry delay; doubled for each further attempt (BullMQ exponential backoff). */
    SMS_BACKOFF_MS: positiveInt.default(5_000),
    EMAIL_BACKOFF_MS: positiveInt.default(5_000),
    /** Time limit of one provider call, so a hung connection cannot hold a worker. */
    SEND_TIMEOUT_MS: positiveInt.default(20_000),

    // --- WebSocket ------------------------------------------------------------------------------------------------
    /** Server ping interval; a client that has not answered the previous ping is dropped. */
    WS_HEARTBEAT_MS: positiveInt.default(30_000),
    /** Largest client message (bytes); bigger ones close the socket with 1009. */
    WS_MAX_PAYLOAD_BYTES: positiveInt.default(16 * 1024),
    /** Open sockets per replica; further upgrades get 503 (the client reconnects, possibly to another replica). */
    WS_MAX_CONNECTIONS: positiveInt.default(10_000),
    /** Client messages allowed per 10 s window; beyond it they get an error, beyond 5x the socket is closed. */
    WS_MAX_MESSAGES_PER_10S: positiveInt.default(30),
    /**
     * Sockets are closed (4000, "reconnect") after about this long so the session behind them is re-checked at
     * the gateway: a revoked or expired session stops receiving notifications within this time. 0 = never.
     */
    WS_MAX_LIFETIME_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(60 * 60_000),
    /** A client whose unsent data exceeds this (a stalled connection) is dropped rather than buffered. */
    WS_MAX_BUFFERED_BYTES: positiveInt.default(1024 * 1024),
  })
  .superRefine((env, ctx) => {
    // A review request's unsubscribe link must reach the public site, never a developer's localhost.
    if (env.NODE_ENV === 'production' && env.REVIEW_URL && !env.PUBLIC_SITE_URL && !env.SITE_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_SITE_URL'],
        message: "is required in production when REVIEW_URL is set (the unsubscribe link's site)",
      });
    const twilio = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'] as const;
    const set = twilio.filter((k) => env[k] !== undefined);
    if (set.length > 0 && set.length < twilio.length) {
      for (const k of twilio)
        if (env[k] === undefined)
          ctx.addIssue({
            code: 'custom',
            path: [k],
            message: `is required when ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set`,
          });
    }
  });

export type Config = z.output<typeof configSchema>;

/** Where the unsubscribe links point (see PUBLIC_SITE_URL). */
export const publicSiteUrl = (config: Config): string =>
  config.PUBLIC_SITE_URL || config.SITE_URL || 'http://localhost:8080';

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);

export function twilioCredentials(
  config: Config,
): { accountSid: string; authToken: string; from: string } | undefined {
  if (!config.TWILIO_ACCOUNT_SID || !config.TWILIO_AUTH_TOKEN || !config.TWILIO_FROM_NUMBER) return undefined;
  return {
    accountSid: config.TWILIO_ACCOUNT_SID,
    authToken: config.TWILIO_AUTH_TOKEN,
    from: config.TWILIO_FROM_NUMBER,
  };
}
