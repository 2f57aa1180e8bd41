import { badRequest, conflict, isUniqueViolation, notFound } from '@tyres/service-kit';
import type { UserRepository } from '../db/users';
import { hashPassword } from '../domain/passwords';
import { normalizeUsername, type PublicUser, type RegisterUserInput } from '../domain/users';

/** Staff accounts, managed by admins: create, list, (de)activate. */
export class StaffAccounts {
  constructor(private readonly deps: { users: UserRepository }) {}

  /** 409 when the username (case-insensitive) is taken. */
  async create(input: RegisterUserInput): Promise<PublicUser> {
    const username = normalizeUsername(input.username);
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.deps.users.create({ ...input, username, passwordHash });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Username already exists', undefined, 'username_taken');
      throw err;
    }
  }

  list(): Promise<PublicUser[]> {
    return this.deps.users.list();
  }

  /**
   * Activates or deactivates an account. A deactivated user loses access on their next request (the session check
   * reads isActive, db/user-cache.ts) and cannot log in again. An admin cannot deactivate themselves.
   */
  async setStatus(actorId: string | undefined, userId: string, isActive: boolean): Promise<PublicUser> {
    if (!isActive && userId === actorId) throw badRequest('You cannot deactivate your own account');
    const updated = await this.deps.users.setActive(userId, isActive);
    if (!updated) throw notFound('User not found');
    return updated;
  }
}
