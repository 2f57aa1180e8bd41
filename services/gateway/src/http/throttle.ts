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
 * Counts failed logins per username and per client address in Redis (shared by every gateway replica). A
 * successful login clears the username counter. If Redis is briefly down, an in-memory limiter stands in.
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

  /** Throws 429 when either counter is exhausted, before any password work is done. */
  async assertAllowed(username: string, address: string): Promise<void> {
    const [u, a] = await Promise.all([this.byUsername.get(username), this.byAddress.get(address)]);
    const blocked = [
      u && u.consumedPoints >= this.byUsername.points ? u : undefined,
      a && a.consumedPoints >= this.byAddress.points ? a : undefined,
    ].filter((r): r is RateLimiterRes => r !== undefined);
    if (blocked.length > 0) throw this.tooMany(Math.max(...blocked.map((r) => r.msBeforeNext)));
  }

  async recordFailure(username: string, address: string): Promise<void> {
    await Promise.all([
      this.byUsername.penalty(username, 1).catch(() => undefined),
      this.byAddress.penalty(address, 1).catch(() => undefined),
    ]);
  }

  async recordSuccess(username: string): Promise<void> {
    await this.byUsername.delete(username).catch(() => undefined);
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
