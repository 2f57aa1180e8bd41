import { loadConfig, serviceEnvSchema } from '@tyres/service-kit';
import { z } from 'zod';

const url = z.string().url();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const positiveInt = z.coerce.number().int().positive();
/** Where booking runs on a developer's machine (`npm start`, tests). */
const LOCAL_BOOKING_URL = 'http://127.0.0.1:3001';

export const configSchema = serviceEnvSchema(3003)
  .extend({
    /**
     * The booking service (booking-token lookups for payment intents). Required in production
     * (deploy/service-calls.json): in a container the loopback default would be this container itself.
     */
    BOOKING_URL: url.optional(),

    // --- Card payments --------------------------------------------------------------------------------------
    /** Stripe secret key. Without it (PAYMENTS_MODE=auto) the checkout runs in the labelled test mode. */
    STRIPE_SECRET_KEY: z.string().startsWith('sk_', 'must be a Stripe secret key (sk_...)').optional(),
    /**
     * Signing secret of the Stripe webhook endpoint (POST /api/payments/webhook). Required in production and with a
     * secret key; without it (development, tests) the webhook answers 400 to every call.
     */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .startsWith('whsec_', 'must be a Stripe webhook signing secret (whsec_...)')
      .optional(),
    /** auto: live with STRIPE_SECRET_KEY, test without. live: refuse to start without keys. test: never call Stripe. */
    PAYMENTS_MODE: z.enum(['auto', 'live', 'test']).default('auto'),
    /** Stripe API base URL override (a local fake in tests; Stripe's own API otherwise). */
    STRIPE_API_BASE: url.optional(),

    /**
     * The public site's origin, for the "Pay now" links on invoice emails and PDFs: `<PUBLIC_SITE_URL>/pay/<token>`
     * (issue 18). Falls back to SITE_URL; locally the gateway on port 8080.
     */
    PUBLIC_SITE_URL: url.optional(),
    SITE_URL: z.union([url, z.literal('')]).optional(),

    // --- Invoice email ----------------------------------------------------------------------------------------
    /** smtp://user:pass@host:587 or smtps://...:465. Without it emails go to the local transport (email log). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** From address of invoice emails. */
    EMAIL_FROM: z.string().min(3).default('Mobile Tyres Perth <invoices@localhost>'),

    // --- What invoices print (spec: business name, ABN, contact) ---------------------------------------------
    BUSINESS_NAME: z.string().min(1).default('Mobile Tyres Perth'),
    BUSINESS_ABN: z.string().min(1).default('ABN not configured'),
    BUSINESS_PHONE: z.string().default(''),
    BUSINESS_EMAIL: z.string().default(''),
    BUSINESS_ADDRESS: z.string().default('Perth & Peel, Western Australia'),
    BUSINESS_WEBSITE: z.string().default(''),

    // --- Background work ----------------------------------------------------------------------------------------
    /** Run the pdf and email workers in this process (default); false for an HTTP-only replica. */
    RUN_WORKERS: bool.default(true),
    PDF_CONCURRENCY: positiveInt.default(4),
    EMAIL_CONCURRENCY: positiveInt.default(2),
    /** How long POST .../pdf and .../email wait for their job before answering 202 (still queued). */
    JOB_WAIT_MS: z.coerce.number().int().min(0).default(15_000),
    /** Attempts of a pdf/email job before it fails (exponential backoff from 1 s). */
    JOB_ATTEMPTS: positiveInt.default(5),
    /** Attempts of a refund request to the provider before the refund shows as failed (staff can retry it). */
    REFUND_ATTEMPTS: positiveInt.default(6),
    /** First backoff of a refund request (exponential: 5 s, 10 s, 20 s, …). */
    REFUND_BACKOFF_MS: positiveInt.default(5_000),
  })
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === 'production' && !env.BOOKING_URL)
        ctx.addIssue({
          code: 'custom',
          path: ['BOOKING_URL'],
          message: 'is required when NODE_ENV=production (the booking service, e.g. http://booking:3001)',
        });
      // Issue 14 item 8: in production the webhook endpoint is public, and only a verified signature makes a call
      // Stripe's; development answers 400 to every call it cannot verify.
      if (env.NODE_ENV === 'production' && !env.STRIPE_WEBHOOK_SECRET)
        ctx.addIssue({
          code: 'custom',
          path: ['STRIPE_WEBHOOK_SECRET'],
          message:
            'is required when NODE_ENV=production (the signing secret of the Stripe webhook endpoint, whsec_...)',
        });
    },
    // Also when another variable is bad, so one start names every problem.
    { when: () => true },
  )
  .superRefine((env, ctx) => {
    if (env.PAYMENTS_MODE === 'live' && !env.STRIPE_SECRET_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_SECRET_KEY'],
        message: 'is required when PAYMENTS_MODE=live',
      });
    const live = env.PAYMENTS_MODE === 'live' || (env.PAYMENTS_MODE === 'auto' && env.STRIPE_SECRET_KEY);
    if (live && !env.STRIPE_WEBHOOK_SECRET && env.NODE_ENV !== 'production')
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message: 'is required with STRIPE_SECRET_KEY (payments are confirmed by the webhook)',
      });
  })
  .transform((env) => ({ ...env, BOOKING_URL: env.BOOKING_URL ?? LOCAL_BOOKING_URL }));

export type Config = z.output<typeof configSchema>;

export const loadServiceConfig = (env: NodeJS.ProcessEnv = process.env): Config =>
  loadConfig(configSchema, env);

/** live when Stripe keys are configured (and not forced to test), otherwise the labelled test mode. */
export function paymentsMode(config: Pick<Config, 'PAYMENTS_MODE' | 'STRIPE_SECRET_KEY'>): 'live' | 'test' {
  if (config.PAYMENTS_MODE === 'test') return 'test';
  return config.STRIPE_SECRET_KEY ? 'live' : 'test';
}

/** Where the pay links point (see PUBLIC_SITE_URL). */
export const publicSiteUrl = (config: Pick<Config, 'PUBLIC_SITE_URL' | 'SITE_URL'>): string =>
  config.PUBLIC_SITE_URL || config.SITE_URL || 'http://localhost:8080';
