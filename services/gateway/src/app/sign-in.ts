import { HttpError, type Logger } from '@tyres/service-kit';
import type { UserRepository } from '../db/users';
import type { Revocation, Revocations } from '../db/revocations';
import { verifyAgainstDummy, verifyPassword } from '../domain/passwords';
import { normalizeUsername, toPublicUser, type PublicUser } from '../domain/users';

/** The login throttle (http/throttle.ts LoginThrottle): throws 429 when an attempt is refused. */
export interface LoginAttempts {
  consumeAttempt(username: string, address: string): Promise<void>;
  recordSuccess(username: string, address: string): Promise<void>;
}

const INVALID_LOGIN = 'Invalid username or password';

/** Signing staff in and out. The cookie itself is the HTTP layer's (http/session.ts). */
export class SignIn {
  constructor(
    private readonly deps: {
      users: UserRepository;
      throttle: LoginAttempts;
      revocations: Pick<Revocations, 'revoke'>;
      logger: Logger;
    },
  ) {}

  /**
   * The user whose password this is, or 401 (one message for a wrong password and an unknown user), 403 when
   * deactivated, 429 when throttled. The attempt is counted before any password work.
   */
  async login(input: { username: string; password: string }, address: string): Promise<PublicUser> {
    const { users, throttle, logger } = this.deps;
    const username = normalizeUsername(input.username);
    await throttle.consumeAttempt(username, address);

    const user = await users.findByUsername(username);
    const ok = user
      ? await verifyPassword(user.password, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !ok) {
      logger.info({ username, address }, 'login failed');
      throw new HttpError(401, INVALID_LOGIN, 'invalid_credentials');
    }
    // Only reveal deactivation to someone who proved they know the password.
    if (!user.isActive)
      throw new HttpError(
        403,
        'This account has been deactivated. Please contact an administrator.',
        'account_inactive',
      );
    await throttle.recordSuccess(username, address);
    logger.info({ userId: user.id, username }, 'login');
    return toPublicUser(user);
  }

  /**
   * Ends a session for good: recorded in Postgres before the answer (a database error here is a 503, and the
   * caller must not tell the user they are logged out). No session: nothing to record.
   */
  async logout(session: Revocation | undefined): Promise<void> {
    if (session) await this.deps.revocations.revoke(session);
  }
}
