import { z } from 'zod';
import { baseEnvSchema, loadConfig, pemKey } from '@tyres/service-kit';
import { TrustedProxies } from './http/client-address';
import { publicLimitsEnv } from './http/public-limits';

const url = z.string().url();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * The services the gateway forwards to, with their conventional ports. Local runs (`npm start`, tests) default to
 * 127.0.0.1:<port>; production requires every URL (deploy/service-calls.json): in a container a loopback default
 * would be the gateway's own container.
 */
const UPSTREAMS = {
  BOOKING_URL: { service: 'booking', port: 3001 },
  JOBS_URL: { service: 'jobs', port: 3002 },
  BILLING_URL: { service: 'billing', port: 3003 },
  REPORTING_URL: { service: 'reporting', port: 3004 },
  NOTIFY_URL: { service: 'notify', port: 3005 },
} as const;
type UpstreamVariable = keyof typeof UPSTREAMS;
const localUrl = (key: UpstreamVariable) => `http://127.0.0.1:${UPSTREAMS[key].port}`;
/** The front-end containers; not needed when the gateway serves the built files itself (STATIC_DIR). */
const FRONTEND_URLS = ['SHELL_URL', 'PUBLIC_REMOTE_URL', 'DASHBOARD_REMOTE_URL'] as const;

export const gatewayEnvSchema = baseEnvSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters'),
    SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
    INTERNAL_JWT_PRIVATE_KEY: pemKey,
    COOKIE_SECURE: bool.optional(),
    ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ADMIN_USERNAME: z.string().min(3).default('admin'),
    ADMIN_PASSWORD: z.string().min(6).optional(),
    BOOKING_URL: url.optional(),
    JOBS_URL: url.optional(),
    BILLING_URL: url.optional(),
    REPORTING_URL: url.optional(),
    NOTIFY_URL: url.optional(),
    /** Repo folder holding frontends/<name>/dist (local runs); containers use the *_URL upstreams instead. */
    STATIC_DIR: z.string().optional(),
    SHELL_URL: url.optional(),
    PUBLIC_REMOTE_URL: url.optional(),
    DASHBOARD_REMOTE_URL: url.optional(),
    /** Largest request body the gateway forwards (photo uploads get their own, larger cap). */
    MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
    MAX_UPLOAD_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(30 * 1_048_576),
    /** A service that stays silent this long (no answer, or a stalled one) is given up on: 504. */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /**
     * Proxies in front of the gateway whose X-Forwarded-For is believed (comma-separated IPs/CIDRs). Empty: the
     * client is the socket peer. In k8s: the Gateway/ingress pods' addresses (see README).
     */
    TRUSTED_PROXIES: z
      .string()
      .default('')
      .superRefine((v, ctx) => {
        try {
          TrustedProxies.parse(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
        }
      }),
    LOGIN_MAX_FAILURES_PER_USERNAME: z.coerce.number().int().positive().default(5),
    LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
    LOGIN_THROTTLE_WINDOW_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60),
    /** Per-client hourly limits on the public endpoints (http/public-limits.ts). */
    ...publicLimitsEnv,
  })
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV !== 'production') return;
      for (const key of Object.keys(UPSTREAMS) as UpstreamVariable[])
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `is required when NODE_ENV=production (e.g. http://${UPSTREAMS[key].service}:${UPSTREAMS[key].port})`,
          });
      if (!env.STATIC_DIR)
        for (const key of FRONTEND_URLS)
          if (!env[key])
            ctx.addIssue({
              code: 'custom',
              path: [key],
              message:
                'is required when NODE_ENV=production unless STATIC_DIR is set (a front-end container)',
            });
    },
    // Also when another variable is bad, so one start names every problem.
    { when: () => true },
  )
  .transform((env) => ({
    ...env,
    BOOKING_URL: env.BOOKING_URL ?? localUrl('BOOKING_URL'),
    JOBS_URL: env.JOBS_URL ?? localUrl('JOBS_URL'),
    BILLING_URL: env.BILLING_URL ?? localUrl('BILLING_URL'),
    REPORTING_URL: env.REPORTING_URL ?? localUrl('REPORTING_URL'),
    NOTIFY_URL: env.NOTIFY_URL ?? localUrl('NOTIFY_URL'),
  }));

export type GatewayConfig = z.output<typeof gatewayEnvSchema> & { cookieSecure: boolean };

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = loadConfig(gatewayEnvSchema, env);
  // Secure cookies everywhere except plain-http local development and tests.
  const cookieSecure = parsed.COOKIE_SECURE ?? parsed.NODE_ENV === 'production';
  return { ...parsed, cookieSecure };
}
