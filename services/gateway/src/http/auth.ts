import type { IncomingMessage } from 'node:http';
import type { PublicUser } from '../domain/users';
import type { StaffAccounts } from '../app/staff-accounts';
import type { SessionClaims, Sessions } from './session';

declare module 'http' {
  interface IncomingMessage {
    /** The staff user behind the session cookie; the edge sets it before the gateway's own routes run. */
    user?: PublicUser;
  }
}

/**
 * The staff user behind the session cookie, or undefined. Without a valid cookie it answers at once (no
 * Redis, no database), so anonymous booking traffic never waits on either. The user row is read on every
 * request (through UserCache) so a deactivated account loses access on its very next request, not when its
 * cookie expires.
 */
export function sessionUser(
  req: Pick<IncomingMessage, 'headers'>,
  sessions: Sessions,
  accounts: Pick<StaffAccounts, 'sessionUser'>,
): PublicUser | undefined | Promise<PublicUser | undefined> {
  const claims = sessions.verify(req);
  return claims ? activeUser(claims, sessions, accounts) : undefined;
}

async function activeUser(
  claims: SessionClaims,
  sessions: Sessions,
  accounts: Pick<StaffAccounts, 'sessionUser'>,
) {
  // Both lookups go out together: one round trip to Redis on the common path. With Redis down both read Postgres
  // instead (staff keep working); with Postgres down too they throw a database error, which the edge answers 503.
  const [revoked, user] = await Promise.all([sessions.isRevoked(claims), accounts.sessionUser(claims.sub)]);
  return revoked || !user || !user.isActive ? undefined : user;
}
