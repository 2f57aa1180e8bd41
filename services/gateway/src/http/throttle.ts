import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { tooManyRequests } from '@tyres/service-kit';

export interface ThrottleOptions {
  redis: Redis;
  prefix: string;
  maxPerUsername: number;
  maxPerAddress: number;
  windowSeconds: number;
}

/**
 * Counts login attempts per username and per client address in Redis (shared by every gateway replica); a
 * successful one is given back, so what remains are failures. A successful login clears the username counter.
 *
 * Redis down: an in-memory limiter with the same limits stands in (rate-limiter-flexible's insuranceLimiter), so
 * staff can still sign in (their sessions work from Postgres, db/revocations.ts) and guessing stays limited: per
 * replica rather than shared, which at worst multiplies the limit by the number of replicas for the outage.
 * Failing closed (503 for every login) was rejected: it would lock every staff member out for a cache outage.
 */
export class LoginThrottle {
  private readonly byUsername: RateLimiterRedis;
  private readonly byAddress: RateLimiterRedis;

  constructor(opts: ThrottleOptions) {
    const common = {
      storeClient: opts.redis,
      duration: opts.windowSeconds,
      blockDuration: opts.windowSeconds,
    };
    this.byUsername = new RateLimiterRedis({
      ...common,
      keyPrefix: `${opts.prefix}gateway:login-fail:user`,
      points: opts.maxPerUsername,
      insuranceLimiter: new RateLimiterMemory({ points: opts.maxPerUsername, duration: opts.windowSeconds }),
    });
    this.byAddress = new RateLimiterRedis({
      ...common,
      keyPrefix: `${opts.prefix}gateway:login-fail:ip`,
      points: opts.maxPerAddress,
      insuranceLimiter: new RateLimiterMemory({ points: opts.maxPerAddress, duration: opts.windowSeconds }),
    });
  }

  /**
   * Takes one attempt from both counters before any password work is done, atomically in Redis, so parallel
   * guesses cannot all pass a check made before any of them was recorded. Throws 429 when either counter is
   * exhausted (and gives back the point taken from the other, so a blocked address does not also lock out
   * every username it tries). A successful login gives its attempt back: recordSuccess.
   */
  async consumeAttempt(username: string, address: string): Promise<void> {
    const [u, a] = await Promise.allSettled([
      this.byUsername.consume(username, 1),
      this.byAddress.consume(address, 1),
    ]);
    const refused = [u, a].flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (refused.length === 0) return;
    const error = refused.find((r) => !(r instanceof RateLimiterRes));
    if (error) throw error;
    if (u.status === 'fulfilled') await this.byUsername.reward(username, 1).catch(() => undefined);
    if (a.status === 'fulfilled') await this.byAddress.reward(address, 1).catch(() => undefined);
    throw this.tooMany(Math.max(...(refused as RateLimiterRes[]).map((r) => r.msBeforeNext)));
  }

  /** The attempt was a good login: it is not a failure for either counter, and the username starts afresh. */
  async recordSuccess(username: string, address: string): Promise<void> {
    await Promise.all([
      this.byUsername.delete(username).catch(() => undefined),
      this.byAddress.reward(address, 1).catch(() => undefined),
    ]);
  }

  private tooMany(ms: number) {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    const minutes = Math.ceil(seconds / 60);
    return tooManyRequests(
      `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      seconds,
    );
  }
}
