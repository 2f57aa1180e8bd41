import { Router, type Request, type RequestHandler } from 'express';
import {
  badRequest,
  conflict,
  isUniqueViolation,
  notFound,
  parseOr400,
  type Logger,
} from '@tyres/service-kit';
import {
  loginSchema,
  normalizeUsername,
  registerUserSchema,
  toPublicUser,
  userIdSchema,
  userStatusSchema,
} from '../domain/users';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../domain/passwords';
import type { UserRepository } from '../db/users';
import type { Sessions } from './session';
import type { LoginThrottle } from './throttle';
import { HttpError } from '@tyres/service-kit';
import { OWN_ROUTES, type OwnRoute, type OwnRouteName } from './routing';

export interface AuthRoutesDeps {
  users: UserRepository;
  sessions: Sessions;
  throttle: LoginThrottle;
  /** Who is asking (the socket peer unless it is a trusted proxy: client-address.ts). */
  clientAddress: (req: Request) => string;
  logger: Logger;
}

const INVALID_LOGIN = 'Invalid username or password';

/**
 * The gateway's own routes, one handler per entry of OWN_ROUTES (routing.ts). Who may call each one is decided
 * by the edge from the same table before the handler runs, so a handler can rely on req.user for staff routes.
 */
export function authRoutes({ users, sessions, throttle, clientAddress, logger }: AuthRoutesDeps): Router {
  const createUser = async (body: unknown) => {
    const input = parseOr400(registerUserSchema, body);
    const username = normalizeUsername(input.username);
    const passwordHash = await hashPassword(input.password);
    try {
      return await users.create({ ...input, username, passwordHash });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Username already exists', undefined, 'username_taken');
      throw err;
    }
  };

  const handlers: Record<OwnRouteName, RequestHandler> = {
    login: async (req, res) => {
      const input = parseOr400(loginSchema, req.body);
      const username = normalizeUsername(input.username);
      const address = clientAddress(req);
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
      sessions.issue(res, user.id);
      logger.info({ userId: user.id, username }, 'login');
      res.json(toPublicUser(user));
    },

    logout: async (req, res) => {
      const claims = await sessions.read(req);
      if (claims) await sessions.revoke(claims);
      sessions.clear(res);
      res.json({ message: 'Logged out' });
    },

    currentUser: (req, res) => {
      res.json(req.user);
    },

    register: async (req, res) => {
      res.status(201).json(await createUser(req.body));
    },

    listUsers: async (_req, res) => {
      res.json(await users.list());
    },

    createUser: async (req, res) => {
      res.status(201).json(await createUser(req.body));
    },

    setUserStatus: async (req, res) => {
      const id = userIdSchema.safeParse(req.params.userId);
      if (!id.success) throw notFound('User not found');
      const { isActive } = parseOr400(userStatusSchema, req.body);
      if (!isActive && id.data === req.user?.id) throw badRequest('You cannot deactivate your own account');
      const updated = await users.setActive(id.data, isActive);
      if (!updated) throw notFound('User not found');
      res.json(updated);
    },
  };

  const router = Router();
  for (const [name, route] of Object.entries(OWN_ROUTES) as Array<[OwnRouteName, OwnRoute]>) {
    const method = route.method.toLowerCase() as Lowercase<OwnRoute['method']>;
    router[method](route.path, handlers[name]);
  }
  return router;
}
