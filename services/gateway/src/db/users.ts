import type { Db } from './client';
import type { Prisma } from './generated/client';
import { toPublicUser, type PublicUser, type RegisterUserInput } from '../domain/users';

export type Tx = Prisma.TransactionClient;

/**
 * The users table (schema identity): queries only. Transactions, events and the session cache are the use
 * cases' (src/app/staff-accounts.ts); methods that take `tx` run inside the caller's transaction.
 */
export class UserRepository {
  constructor(private readonly db: Db) {}

  findByUsername(username: string) {
    return this.db.user.findUnique({ where: { username } });
  }

  async findPublicById(id: string, tx: Tx = this.db): Promise<PublicUser | undefined> {
    const user = await tx.user.findUnique({ where: { id } });
    return user ? toPublicUser(user) : undefined;
  }

  async list(): Promise<PublicUser[]> {
    const users = await this.db.user.findMany({ orderBy: [{ createdAt: 'asc' }, { username: 'asc' }] });
    return users.map(toPublicUser);
  }

  /** Throws Prisma's unique violation on a taken username; the use case maps it to 409. */
  async insert(tx: Tx, input: RegisterUserInput & { passwordHash: string }): Promise<PublicUser> {
    const created = await tx.user.create({
      data: { username: input.username, password: input.passwordHash, email: input.email, role: input.role },
    });
    return toPublicUser(created);
  }

  async setActive(tx: Tx, id: string, isActive: boolean): Promise<PublicUser> {
    return toPublicUser(await tx.user.update({ where: { id }, data: { isActive } }));
  }

  /**
   * Every active technician with the time their row last changed (GET /internal/technicians: booking's roster sync).
   * updated_at is set by the same update whose event carries a changedAt no earlier than it, so booking never lets
   * this snapshot undo a later event.
   */
  activeTechnicians(): Promise<{ id: string; username: string; isActive: boolean; updatedAt: Date }[]> {
    return this.db.user.findMany({
      where: { role: 'technician', isActive: true },
      select: { id: true, username: true, isActive: true, updatedAt: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  countActiveAdmins() {
    return this.db.user.count({ where: { role: 'admin', isActive: true } });
  }

  countAdmins(tx: Tx) {
    return tx.user.count({ where: { role: 'admin' } });
  }

  /** Held until the transaction ends: two replicas starting together do not both seed the first admin. */
  async lockFirstAdminSeed(tx: Tx): Promise<void> {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('identity.seed-first-admin'))`);
  }
}
