import { z } from 'zod';
import { baseEnvSchema, loadConfig, pemKey } from '@tyres/service-kit';

const url = z.string().url();
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const gatewayEnvSchema = baseEnvSchema.extend({
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
  BOOKING_URL: url.default('http://127.0.0.1:3001'),
  JOBS_URL: url.default('http://127.0.0.1:3002'),
  BILLING_URL: url.default('http://127.0.0.1:3003'),
  REPORTING_URL: url.default('http://127.0.0.1:3004'),
  NOTIFY_URL: url.default('http://127.0.0.1:3005'),
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
  LOGIN_MAX_FAILURES_PER_USERNAME: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  LOGIN_THROTTLE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
});

export type GatewayConfig = z.output<typeof gatewayEnvSchema> & { cookieSecure: boolean };

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = loadConfig(gatewayEnvSchema, env);
  // Secure cookies everywhere except plain-http local development and tests.
  const cookieSecure = parsed.COOKIE_SECURE ?? parsed.NODE_ENV === 'production';
  return { ...parsed, cookieSecure };
}
