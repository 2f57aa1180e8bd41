import { randomBytes } from 'node:crypto';
import type { Logger } from '@tyres/service-kit';
import { hashPassword } from '../domain/passwords';
import { normalizeUsername } from '../domain/users';
import type { UserRepository } from './users';
import type { Db } from './client';

export interface SeedResult {
  created: boolean;
  username: string;
  /** Only set when the password was generated here; it is shown once and never stored in clear. */
  generatedPassword?: string;
}

/**
 * The first admin comes from ADMIN_USERNAME / ADMIN_PASSWORD on first start. Without a password a random one is
 * generated and printed once. An advisory lock keeps two replicas starting together from both seeding.
 */
export async function seedFirstAdmin(
  db: Db,
  users: UserRepository,
  opts: { username: string; password?: string; logger: Logger },
): Promise<SeedResult> {
  const username = normalizeUsername(opts.username);
  return db.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('identity.seed-first-admin'))`);
    const admins = await tx.user.count({ where: { role: 'admin' } });
    if (admins > 0) return { created: false, username };
    const password = opts.password ?? randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    // Written through the repository's transaction-aware path so UserCreated reaches the outbox too.
    await users.createInTx(tx, { username, password, email: null, role: 'admin', passwordHash });
    opts.logger.info({ username }, 'created first admin account');
    return { created: true, username, generatedPassword: opts.password ? undefined : password };
  });
}
