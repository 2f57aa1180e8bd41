import type { Redis } from 'ioredis';
import type { PublicUser } from '../domain/users';

/**
 * The staff user behind a session, kept in Redis so an authenticated API call does not cost a database read.
 *
 * "A deactivated user loses access on their next request" still holds across every gateway replica: a status
 * change overwrites the entry (put) after its transaction commits and before the admin gets the answer, and a
 * request that read the database earlier can only fill an entry that is absent (SET NX), so it never writes an
 * older status over a newer one. Entries expire after `ttlSeconds` as a safety net.
 *
 * Redis down never fails a request: a read that cannot reach Redis is a miss (the caller reads Postgres), a fill is
 * skipped. A `put` that fails (Redis unreachable but not restarted, so it may still hold the old status) is kept
 * here: this process answers that user from Postgres and `repair` rewrites the entry once Redis is back.
 */
export class UserCache {
  /** Changes committed in Postgres whose cache write failed: the newest state per user. */
  private readonly unsynced = new Map<string, PublicUser>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds = 300,
  ) {}

  async get(id: string): Promise<PublicUser | undefined> {
    if (this.unsynced.has(id)) return undefined;
    let raw: string | null;
    try {
      raw = await this.redis.get(this.key(id));
    } catch {
      return undefined;
    }
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as PublicUser;
    } catch {
      return undefined;
    }
  }

  /** Fills a missing entry from a database read; never replaces one. */
  async fill(user: PublicUser): Promise<void> {
    if (this.unsynced.has(user.id)) return;
    await this.redis
      .set(this.key(user.id), JSON.stringify(user), 'EX', this.ttlSeconds, 'NX')
      .catch(() => undefined);
  }

  /** After a committed change: the new state wins over whatever was cached (later, if Redis cannot be reached). */
  async put(user: PublicUser): Promise<void> {
    this.unsynced.set(user.id, user);
    await this.flush(user);
  }

  /** Writes the changes Redis missed; called on a timer. */
  async repair(): Promise<void> {
    await Promise.all([...this.unsynced.values()].map((user) => this.flush(user)));
  }

  private async flush(user: PublicUser) {
    try {
      await this.redis.set(this.key(user.id), JSON.stringify(user), 'EX', this.ttlSeconds);
      // Only forget it if no newer change came in meanwhile.
      if (this.unsynced.get(user.id) === user) this.unsynced.delete(user.id);
    } catch {
      // Kept in `unsynced`: answered from Postgres here, written by the next repair.
    }
  }

  private key(id: string) {
    return `${this.prefix}gateway:user:${id}`;
  }
}
