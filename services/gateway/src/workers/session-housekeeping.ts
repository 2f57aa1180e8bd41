import type { Logger } from '@tyres/service-kit';
import type { Revocations } from '../db/revocations';
import type { UserCache } from '../db/user-cache';

/** How often writes that Redis missed are replayed (it was down); cheap when there are none. */
const REPAIR_INTERVAL_MS = 5_000;
/** Revocations of expired tokens prove nothing; purged hourly (idempotent DELETE, safe on every replica). */
const PURGE_INTERVAL_MS = 3600_000;
const FIRST_PURGE_DELAY_MS = 60_000;

/** The session stores' timers: Redis repair of revocations and the user cache, and the revocation purge. Returns stop. */
export function sessionHousekeeping(revocations: Revocations, userCache: UserCache, logger: Logger) {
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
