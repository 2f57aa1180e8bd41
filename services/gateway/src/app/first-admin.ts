import { randomBytes } from 'node:crypto';
import type { Logger } from '@tyres/service-kit';
import type { Db } from '../db/client';
import type { UserRepository } from '../db/users';
import { hashPassword } from '../domain/passwords';
import { normalizeUsername } from '../domain/users';
import type { StaffAccounts } from './staff-accounts';

export interface SeedResult {
  created: boolean;
  username: string;
  /** Only set when the password was generated here; it is shown once and never stored in clear. */
  generatedPassword?: string;
}

/**
 * The first admin comes from ADMIN_USERNAME / ADMIN_PASSWORD on first start. Without a password a random one is
 * generated and printed once. An advisory lock keeps two replicas starting together from both seeding. The caller
 * wakes the outbox relay afterwards (UserCreated is written with the row).
 */
export async function seedFirstAdmin(
  deps: { db: Db; users: UserRepository; accounts: StaffAccounts },
  opts: { username: string; password?: string; logger: Logger },
): Promise<SeedResult> {
  const { db, users, accounts } = deps;
  const username = normalizeUsername(opts.username);
  return db.$transaction(async (tx) => {
    await users.lockFirstAdminSeed(tx);
    const admins = await users.countAdmins(tx);
    if (admins > 0) return { created: false, username };
    const password = opts.password ?? randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    // Through the use case's transaction-aware path so UserCreated reaches the outbox too.
    await accounts.createInTx(tx, { username, password, email: null, role: 'admin', passwordHash });
    opts.logger.info({ username }, 'created first admin account');
    return { created: true, username, generatedPassword: opts.password ? undefined : password };
  });
}
