import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '@tyres/service-kit';
import type { Db } from './client';

export interface Revocation {
  jti: string;
  userId: string;
  expiresAt: Date;
}

/** How long a warm-up vouches for the Redis copy before it is rebuilt from Postgres (bounds any missed write). */
const WARM_MARKER_TTL_SECONDS = 600;

/**
 * Revoked sessions (logout). Postgres (identity.revoked_sessions) is the record; Redis is a cache of it, so a staff
 * request costs one Redis round trip and no database read.
 *
 * Why a "warm" marker rather than a database read per request: the cache can only be trusted to say "not revoked"
 * when it is known to hold every revocation. A Redis restarted without persistence holds none, and would bring
 * every logged-out cookie back to life. So the cache is only believed for "not revoked" while a marker key is
 * present, and the marker is written in the same MULTI as a full copy of the unexpired rows (warm-up): a Redis that
 * restarted has lost the marker with the rows, and every check goes to Postgres (a primary-key lookup) until the
 * next warm-up, which the first such check starts. An in-process cache of "not revoked" was rejected: it would let a
 * copied cookie keep working on the other replicas for as long as it is cached after a logout.
 *
 * A revocation is written to Postgres first, then Redis. If the Redis write fails (Redis down or unreachable but
 * not restarted), this process stops trusting the cache until it has warmed it again (`repair`, on a timer and on
 * the next check); the marker's TTL bounds the window for other replicas even if this one dies first.
 * With Redis down every check reads Postgres, so staff keep working; with Postgres down too the check throws a
 * database error, which the edge answers 503.
 */
/** KEYS: sentinel, marker, revoked keys…; ARGV: sentinel token, marker value, marker TTL (s), each key's TTL (ms)…. */
const WARM_SCRIPT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 3, #KEYS do redis.call('SET', KEYS[i], '1', 'PX', ARGV[i + 1]) end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
redis.call('DEL', KEYS[1])
return 1`;

export class Revocations {
  /** Bumped on every failed Redis write; a warm-up only clears what it started after. */
  private failedWrites = 0;
  private repairedUpTo = 0;
  private warming?: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
    private readonly markerTtlSeconds = WARM_MARKER_TTL_SECONDS,
  ) {}

  /** Records the revocation durably (throws if Postgres cannot), then caches it in Redis (best effort). */
  async revoke(revocation: Revocation): Promise<void> {
    await this.db.revokedSession.createMany({
      data: [{ jti: revocation.jti, userId: revocation.userId, expiresAt: revocation.expiresAt }],
      skipDuplicates: true,
    });
    try {
      await this.cacheOne(revocation.jti, revocation.expiresAt);
    } catch (err) {
      this.failedWrites++;
      this.logger.warn(
        { err: (err as Error).message },
        'revocation recorded in Postgres only; Redis will be refilled',
      );
    }
  }

  async isRevoked(jti: string): Promise<boolean> {
    let cached: Array<string | null>;
    try {
      cached = await this.redis.mget(this.key(jti), this.markerKey());
    } catch {
      return this.inDatabase(jti);
    }
    if (cached[0] !== null) return true;
    if (cached[1] !== null && !this.suspect()) return false;
    // The cache may be missing revocations (Redis restarted empty, or one of our writes failed): ask Postgres,
    // and rebuild the cache in the background so the next checks are cheap again.
    void this.warm().catch(() => undefined);
    return this.inDatabase(jti);
  }

  /** Rebuilds the Redis copy when this process knows it may be incomplete; called on a timer. */
  async repair(): Promise<void> {
    if (this.suspect()) await this.warm();
  }

  /** Deletes rows whose tokens have expired anyway (safe on every replica at once). */
  async purgeExpired(now = new Date()): Promise<number> {
    const { count } = await this.db.revokedSession.deleteMany({ where: { expiresAt: { lt: now } } });
    return count;
  }

  /**
   * Copies every unexpired revocation into Redis and sets the marker, atomically. Single flight. A sentinel key is
   * written before Postgres is read, and the copy (one Lua script) is applied only if the sentinel is still there:
   * a Redis that restarted between the read and the write has lost it (and any revocation cached in between), so
   * the marker is never set over an incomplete copy; the next check warms again.
   */
  warm(): Promise<void> {
    this.warming ??= (async () => {
      const startedAt = this.failedWrites;
      try {
        const token = randomUUID();
        await this.redis.set(this.sentinelKey(), token, 'EX', 120);
        const rows = await this.db.revokedSession.findMany({
          where: { expiresAt: { gt: new Date() } },
          select: { jti: true, expiresAt: true },
        });
        const keys = [this.sentinelKey(), this.markerKey()];
        const args = [token, new Date().toISOString(), String(this.markerTtlSeconds)];
        for (const row of rows) {
          const ms = row.expiresAt.getTime() - Date.now();
          if (ms <= 0) continue;
          keys.push(this.key(row.jti));
          args.push(String(ms));
        }
        const applied = await this.redis.eval(WARM_SCRIPT, keys.length, ...keys, ...args);
        if (applied !== 1) throw new Error('revocation warm-up abandoned: Redis restarted while it ran');
        this.repairedUpTo = Math.max(this.repairedUpTo, startedAt);
        this.logger.info({ revocations: rows.length }, 'revocation cache warmed from Postgres');
      } finally {
        this.warming = undefined;
      }
    })();
    return this.warming;
  }

  private suspect() {
    return this.failedWrites > this.repairedUpTo;
  }

  private async inDatabase(jti: string): Promise<boolean> {
    const row = await this.db.revokedSession.findUnique({ where: { jti }, select: { jti: true } });
    return row !== null;
  }

  private async cacheOne(jti: string, expiresAt: Date) {
    const ms = Math.max(1000, expiresAt.getTime() - Date.now());
    await this.redis.set(this.key(jti), '1', 'PX', ms);
  }

  private key(jti: string) {
    return `${this.prefix}gateway:session:revoked:${jti}`;
  }

  private sentinelKey() {
    return `${this.prefix}gateway:session:revocations-warming`;
  }

  private markerKey() {
    return `${this.prefix}gateway:session:revocations-warm`;
  }
}
