import type { Redis } from 'ioredis';
import type { PublicUser } from '../domain/users';

/**
 * The staff user behind a session, kept in Redis so an authenticated API call does not cost a database read.
 *
 * "A deactivated user loses access on their next request" still holds across every gateway replica: a status
 * change overwrites the entry (put) after its transaction commits and before the admin gets the answer, and a
 * request that read the database earlier can only fill an entry that is absent (SET NX), so it never writes an
 * older status over a newer one. Entries expire after `ttlSeconds` as a safety net.
 */
export class UserCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds = 300,
  ) {}

  async get(id: string): Promise<PublicUser | undefined> {
    const raw = await this.redis.get(this.key(id));
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as PublicUser;
    } catch {
      return undefined;
    }
  }

  /** Fills a missing entry from a database read; never replaces one. */
  async fill(user: PublicUser): Promise<void> {
    await this.redis.set(this.key(user.id), JSON.stringify(user), 'EX', this.ttlSeconds, 'NX');
  }

  /** After a committed change: the new state wins over whatever was cached. */
  async put(user: PublicUser): Promise<void> {
    await this.redis.set(this.key(user.id), JSON.stringify(user), 'EX', this.ttlSeconds);
  }

  private key(id: string) {
    return `${this.prefix}gateway:user:${id}`;
  }
}
