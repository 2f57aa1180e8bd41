import type { RequestHandler, Request } from 'express';
import { forbidden, unauthorized } from '@tyres/service-kit';
import type { PublicUser } from '../domain/users';
import type { UserRepository } from '../db/users';
import type { Sessions, SessionClaims } from './session';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      user?: PublicUser;
      session?: SessionClaims;
    }
  }
}

/**
 * Resolves the staff user behind the session cookie. The user row is read on every request so a deactivated
 * account loses access on its very next request, not when its cookie expires.
 */
export async function resolveUser(
  req: Request,
  sessions: Sessions,
  users: UserRepository,
): Promise<PublicUser | undefined> {
  if (req.user) return req.user;
  const claims = sessions.verify(req);
  if (!claims) return undefined;
  // Both lookups go out together: one round trip to Redis on the common path.
  const [revoked, user] = await Promise.all([sessions.isRevoked(claims), users.findSessionUser(claims.sub)]);
  if (revoked || !user || !user.isActive) return undefined;
  req.user = user;
  req.session = claims;
  return user;
}

export function authenticate(sessions: Sessions, users: UserRepository): RequestHandler {
  return async (req, _res, next) => {
    try {
      await resolveUser(req, sessions, users);
      next();
    } catch (err) {
      next(err);
    }
  };
}

export const requireUser: RequestHandler = (req, _res, next) => {
  next(req.user ? undefined : unauthorized());
};

export const requireAdminUser: RequestHandler = (req, _res, next) => {
  if (!req.user) return next(unauthorized());
  next(req.user.role === 'admin' ? undefined : forbidden('Only an admin can do that'));
};
