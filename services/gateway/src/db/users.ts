import type { Db } from './client';
import type { Prisma } from './generated/client';
import type { UserCache } from './user-cache';
import { toPublicUser, type PublicUser, type RegisterUserInput } from '../domain/users';

export type Tx = Prisma.TransactionClient;

/** Called inside the same transaction as the change so the event is written with it (outbox). */
export type UserEventSink = {
  userCreated(tx: Tx, user: PublicUser): Promise<void>;
  userStatusChanged(tx: Tx, user: PublicUser): Promise<void>;
};

export class UserRepository {
  constructor(
    private readonly db: Db,
    private readonly events: UserEventSink,
    /** Nudges the outbox relay once a transaction that wrote events has committed. */
    private readonly afterCommit: () => void = () => undefined,
    private readonly cache?: UserCache,
  ) {}

  findByUsername(username: string) {
    return this.db.user.findUnique({ where: { username } });
  }

  async findPublicById(id: string): Promise<PublicUser | undefined> {
    const user = await this.db.user.findUnique({ where: { id } });
    return user ? toPublicUser(user) : undefined;
  }

  /** The user behind a session: from the cache when present (see UserCache), else the database. */
  async findSessionUser(id: string): Promise<PublicUser | undefined> {
    const cached = await this.cache?.get(id);
    if (cached) return cached;
    const user = await this.findPublicById(id);
    if (user) await this.cache?.fill(user);
    return user;
  }

  async list(): Promise<PublicUser[]> {
    const users = await this.db.user.findMany({ orderBy: [{ createdAt: 'asc' }, { username: 'asc' }] });
    return users.map(toPublicUser);
  }

  /** Throws Prisma's unique violation on a taken username; the caller maps it to 409. */
  async create(input: RegisterUserInput & { passwordHash: string }): Promise<PublicUser> {
    const user = await this.db.$transaction((tx) => this.createInTx(tx, input));
    this.afterCommit();
    return user;
  }

  async createInTx(tx: Tx, input: RegisterUserInput & { passwordHash: string }): Promise<PublicUser> {
    const created = await tx.user.create({
      data: { username: input.username, password: input.passwordHash, email: input.email, role: input.role },
    });
    const user = toPublicUser(created);
    await this.events.userCreated(tx, user);
    return user;
  }

  async setActive(id: string, isActive: boolean): Promise<PublicUser | undefined> {
    const result = await this.db.$transaction(async (tx) => {
      const existing = await tx.user.findUnique({ where: { id } });
      if (!existing) return undefined;
      if (existing.isActive === isActive) return toPublicUser(existing);
      const updated = await tx.user.update({ where: { id }, data: { isActive } });
      const user = toPublicUser(updated);
      await this.events.userStatusChanged(tx, user);
      return user;
    });
    this.afterCommit();
    // Also when nothing changed: a retry after a failed cache write must still correct the cache.
    if (result) await this.cache?.put(result);
    return result;
  }

  countActiveAdmins() {
    return this.db.user.count({ where: { role: 'admin', isActive: true } });
  }
}
