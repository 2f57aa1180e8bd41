import type { Outbox } from '@tyres/events';
import { badRequest, conflict, isUniqueViolation, notFound } from '@tyres/service-kit';
import type { Db } from '../db/client';
import type { UserCache } from '../db/user-cache';
import type { Tx, UserRepository } from '../db/users';
import { hashPassword } from '../domain/passwords';
import { normalizeUsername, type PublicUser, type RegisterUserInput } from '../domain/users';
import { userCreated, userStatusChanged } from '../events/builders';

export interface StaffAccountsDeps {
  db: Db;
  users: UserRepository;
  outbox: Pick<Outbox, 'enqueue'>;
  /** Nudges the outbox relay once a transaction that wrote events has committed. */
  wake: () => void;
  /** The session user cache (db/user-cache.ts); without it every session check reads Postgres. */
  cache?: UserCache;
}

/** One technician as GET /internal/technicians states it. */
export interface TechnicianFact {
  userId: string;
  username: string;
  isActive: boolean;
  changedAt: string;
}

/** Staff accounts, managed by admins: create, list, (de)activate; and the user behind a session. */
export class StaffAccounts {
  constructor(private readonly deps: StaffAccountsDeps) {}

  /** 409 when the username (case-insensitive) is taken. */
  async create(input: RegisterUserInput): Promise<PublicUser> {
    const username = normalizeUsername(input.username);
    const passwordHash = await hashPassword(input.password);
    let user: PublicUser;
    try {
      user = await this.deps.db.$transaction((tx) =>
        this.createInTx(tx, { ...input, username, passwordHash }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Username already exists', undefined, 'username_taken');
      throw err;
    }
    this.deps.wake();
    return user;
  }

  /**
   * The user row and its UserCreated event, inside the caller's transaction (also the first-admin seed's,
   * app/first-admin.ts); the caller wakes the relay after its commit.
   */
  async createInTx(tx: Tx, input: RegisterUserInput & { passwordHash: string }): Promise<PublicUser> {
    const user = await this.deps.users.insert(tx, input);
    await this.deps.outbox.enqueue(tx, userCreated(user));
    return user;
  }

  list(): Promise<PublicUser[]> {
    return this.deps.users.list();
  }

  /**
   * The active technicians as facts (GET /internal/technicians, booking's roster sync): `changedAt` is when the
   * user row last changed, so a consumer applying "newest fact wins" keeps any later user event.
   */
  async activeTechnicians(): Promise<TechnicianFact[]> {
    const rows = await this.deps.users.activeTechnicians();
    return rows.map((u) => ({
      userId: u.id,
      username: u.username,
      isActive: u.isActive,
      changedAt: u.updatedAt.toISOString(),
    }));
  }

  /**
   * Activates or deactivates an account. A deactivated user loses access on their next request (the session check
   * reads isActive, db/user-cache.ts) and cannot log in again. An admin cannot deactivate themselves.
   */
  async setStatus(actorId: string | undefined, userId: string, isActive: boolean): Promise<PublicUser> {
    if (!isActive && userId === actorId) throw badRequest('You cannot deactivate your own account');
    const { users, outbox } = this.deps;
    const updated = await this.deps.db.$transaction(async (tx) => {
      const existing = await users.findPublicById(userId, tx);
      if (!existing) return undefined;
      if (existing.isActive === isActive) return existing;
      const user = await users.setActive(tx, userId, isActive);
      await outbox.enqueue(tx, userStatusChanged(user));
      return user;
    });
    this.deps.wake();
    if (!updated) throw notFound('User not found');
    // Also when nothing changed: a retry after a failed cache write must still correct the cache.
    await this.deps.cache?.put(updated);
    return updated;
  }

  /** The user behind a session: from the cache when present (see UserCache), else the database. */
  async sessionUser(id: string): Promise<PublicUser | undefined> {
    const { cache, users } = this.deps;
    const cached = await cache?.get(id);
    if (cached) return cached;
    const user = await users.findPublicById(id);
    if (user) await cache?.fill(user);
    return user;
  }
}
