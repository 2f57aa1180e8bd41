import { startService, type Logger } from '@tyres/service-kit';
import type { GatewayConfig } from './config';
import { createDb, DB_SCHEMA } from './db/client';
import { seedFirstAdmin } from './db/seed-admin';
import { Revocations } from './db/revocations';
import { UserCache } from './db/user-cache';
import { UserRepository } from './db/users';
import { userEvents } from './events/user-events';
import { createGatewayApp } from './http/app';
import { Sessions } from './http/session';
import { LoginThrottle } from './http/throttle';
import { TrustedProxies } from './http/client-address';
import { hourlyLimits } from './http/public-limits';

/** Composition of the gateway; main.ts runs it, integration tests start it on port 0. */
export async function startGateway(config: GatewayConfig, logger: Logger) {
  const db = createDb(config.DATABASE_URL);
  return startService({
    name: 'gateway',
    schema: DB_SCHEMA,
    config,
    logger,
    db,
    http: async ({ outbox, relay, redis, readiness, lifecycle }) => {
      const userCache = new UserCache(redis, config.REDIS_PREFIX);
      const users = new UserRepository(db, userEvents(outbox.enqueue), () => relay.wake(), userCache);
      const revocations = new Revocations(db, redis, config.REDIS_PREFIX, logger);
      const stopHousekeeping = sessionHousekeeping(revocations, userCache, logger);
      lifecycle.onShutdown('session housekeeping', stopHousekeeping);
      const seeded = await seedFirstAdmin(db, users, {
        username: config.ADMIN_USERNAME,
        password: config.ADMIN_PASSWORD,
        logger,
      });
      if (seeded.generatedPassword) {
        // Shown once, on the console only: the password is never stored in clear anywhere.
        process.stdout.write(
          `\n  First admin account created: ${seeded.username} / ${seeded.generatedPassword}\n  Change it or set ADMIN_PASSWORD; this password will not be shown again.\n\n`,
        );
      }
      relay.wake();
      const frontends = config.STATIC_DIR
        ? { staticDir: config.STATIC_DIR }
        : config.SHELL_URL && config.PUBLIC_REMOTE_URL && config.DASHBOARD_REMOTE_URL
          ? {
              shell: config.SHELL_URL,
              public: config.PUBLIC_REMOTE_URL,
              dashboard: config.DASHBOARD_REMOTE_URL,
            }
          : undefined;
      const gateway = createGatewayApp({
        logger,
        users,
        sessions: new Sessions({
          secret: config.SESSION_SECRET,
          ttlHours: config.SESSION_TTL_HOURS,
          secure: config.cookieSecure,
          revocations,
        }),
        throttle: new LoginThrottle({
          redis,
          prefix: config.REDIS_PREFIX,
          maxPerUsername: config.LOGIN_MAX_FAILURES_PER_USERNAME,
          maxPerAddress: config.LOGIN_MAX_FAILURES_PER_ADDRESS,
          windowSeconds: config.LOGIN_THROTTLE_WINDOW_SECONDS,
        }),
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
      });
      return { app: gateway.listener, setDraining: gateway.setDraining, onUpgrade: gateway.handleUpgrade };
    },
  });
}

/** How often writes that Redis missed are replayed (it was down); cheap when there are none. */
const REPAIR_INTERVAL_MS = 5_000;
/** Revocations of expired tokens prove nothing; purged hourly (idempotent DELETE, safe on every replica). */
const PURGE_INTERVAL_MS = 3600_000;
const FIRST_PURGE_DELAY_MS = 60_000;

function sessionHousekeeping(revocations: Revocations, userCache: UserCache, logger: Logger) {
  const repair = setInterval(() => {
    void Promise.all([revocations.repair(), userCache.repair()]).catch(() => undefined);
  }, REPAIR_INTERVAL_MS);
  const purgeOnce = () => {
    revocations
      .purgeExpired()
      .then((count) => count && logger.info({ count }, 'purged expired session revocations'))
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'revocation purge failed'));
  };
  const purge = setInterval(purgeOnce, PURGE_INTERVAL_MS);
  // Also soon after start: a gateway redeployed more often than hourly still purges.
  const firstPurge = setTimeout(purgeOnce, FIRST_PURGE_DELAY_MS);
  for (const timer of [repair, purge, firstPurge]) timer.unref();
  return () => {
    clearInterval(repair);
    clearInterval(purge);
    clearTimeout(firstPurge);
  };
}
