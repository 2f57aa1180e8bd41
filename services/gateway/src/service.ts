import { createServiceRuntime, type Logger, type ServiceRuntime } from '@tyres/service-kit';
import { seedFirstAdmin } from './app/first-admin';
import { SignIn } from './app/sign-in';
import { StaffAccounts } from './app/staff-accounts';
import type { GatewayConfig } from './config';
import { createDb, DB_SCHEMA, type Db } from './db/client';
import { Revocations } from './db/revocations';
import { UserCache } from './db/user-cache';
import { UserRepository } from './db/users';
import { subscribeGateway } from './events/subscriptions';
import { createGatewayApp } from './http/app';
import { TrustedProxies } from './http/client-address';
import { hourlyLimits } from './http/public-limits';
import { Sessions } from './http/session';
import { LoginThrottle } from './http/throttle';
import { sessionHousekeeping } from './workers/session-housekeeping';

/**
 * The gateway's composition, in plain order: runtime → repositories → use cases (and the first admin) →
 * subscriptions → the edge and its express app → listen (with the session housekeeping timers). main.ts runs it;
 * the integration tests start it on port 0.
 */
export async function startGateway(config: GatewayConfig, logger: Logger): Promise<ServiceRuntime<Db>> {
  const db = createDb(config.DATABASE_URL);
  const runtime = createServiceRuntime({ name: 'gateway', schema: DB_SCHEMA, config, logger, db });
  const { redis, outbox, wake, readiness, lifecycle } = runtime;

  const users = new UserRepository(db);
  const userCache = new UserCache(redis, config.REDIS_PREFIX);
  const revocations = new Revocations(db, redis, config.REDIS_PREFIX, logger);

  const accounts = new StaffAccounts({ db, users, outbox, wake, cache: userCache });
  const sessions = new Sessions({
    secret: config.SESSION_SECRET,
    ttlHours: config.SESSION_TTL_HOURS,
    secure: config.cookieSecure,
    revocations,
  });
  const throttle = new LoginThrottle({
    redis,
    prefix: config.REDIS_PREFIX,
    maxPerUsername: config.LOGIN_MAX_FAILURES_PER_USERNAME,
    maxPerAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
    windowSeconds: config.LOGIN_THROTTLE_WINDOW_SECONDS,
  });
  const signIn = new SignIn({ users, throttle, revocations, logger });

  const seeded = await seedFirstAdmin(
    { db, users, accounts },
    { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD, logger },
  );
  if (seeded.generatedPassword) {
    // Shown once, on the console only: the password is never stored in clear anywhere.
    process.stdout.write(
      `\n  First admin account created: ${seeded.username} / ${seeded.generatedPassword}\n  Change it or set ADMIN_PASSWORD; this password will not be shown again.\n\n`,
    );
  }
  wake();

  subscribeGateway(runtime.bus);

  const frontends = config.STATIC_DIR
    ? { staticDir: config.STATIC_DIR }
    : config.SHELL_URL && config.PUBLIC_REMOTE_URL && config.DASHBOARD_REMOTE_URL
      ? { shell: config.SHELL_URL, public: config.PUBLIC_REMOTE_URL, dashboard: config.DASHBOARD_REMOTE_URL }
      : undefined;
  const gateway = createGatewayApp({
    logger,
    accounts,
    signIn,
    sessions,
    trustedProxies: TrustedProxies.parse(config.TRUSTED_PROXIES),
    publicLimits: { redis, prefix: config.REDIS_PREFIX, limits: hourlyLimits(config) },
    upstreams: {
      booking: config.BOOKING_URL,
      jobs: config.JOBS_URL,
      billing: config.BILLING_URL,
      reporting: config.REPORTING_URL,
      notify: config.NOTIFY_URL,
    },
    internalPrivateKey: config.INTERNAL_JWT_PRIVATE_KEY,
    allowedOrigins: config.ALLOWED_ORIGINS,
    secureCookies: config.cookieSecure,
    maxBodyBytes: config.MAX_BODY_BYTES,
    maxUploadBytes: config.MAX_UPLOAD_BYTES,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    readiness,
    frontends,
    apiDocs: { adminOnly: config.NODE_ENV === 'production' },
  });

  return runtime.listen(
    { app: gateway.listener, setDraining: gateway.setDraining, onUpgrade: gateway.handleUpgrade },
    {
      start: async () => {
        lifecycle.onShutdown('session housekeeping', sessionHousekeeping(revocations, userCache, logger));
      },
    },
  );
}
