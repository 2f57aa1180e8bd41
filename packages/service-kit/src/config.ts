import { z } from 'zod';

/** Raised when the environment does not satisfy a service's config schema; names every bad variable. */
export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables every service reads. Defaults are the standard local ports so `npm start` works out of the box. */
export const baseEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/tyres'),
  AMQP_URL: z.string().url().default('amqp://guest:guest@127.0.0.1:5672'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  EVENT_PREFIX: z.string().default(''),
  REDIS_PREFIX: z.string().default(''),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});

/** PEM keys are often passed through env files with literal "\n"; accept both forms. */
export const pemKey = z
  .string()
  .min(1)
  .transform((v) => v.replace(/\\n/g, '\n'))
  .refine((v) => v.includes('-----BEGIN'), 'must be a PEM encoded key');

export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.output<S> {
  // Empty strings mean "not set" (docker-compose passes VAR= for unset optional values).
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') cleaned[k] = v;
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(root)';
    const missing = issue.code === 'invalid_type' && cleaned[String(issue.path[0])] === undefined;
    return missing ? `${name} is required but not set` : `${name}: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** The environment of a domain service behind the gateway: base variables, its port and the gateway's public key. */
export function serviceEnvSchema(defaultPort: number) {
  return baseEnvSchema.extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(defaultPort),
    HOST: z.string().default('0.0.0.0'),
    INTERNAL_JWT_PUBLIC_KEY: pemKey,
  });
}
