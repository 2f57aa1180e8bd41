import { Router } from 'express';
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
import { requireAdminUser, requireUser } from './auth';
import { HttpError } from '@tyres/service-kit';

export interface AuthRoutesDeps {
  users: UserRepository;
  sessions: Sessions;
  throttle: LoginThrottle;
  logger: Logger;
}

const INVALID_LOGIN = 'Invalid username or password';

export function authRoutes({ users, sessions, throttle, logger }: AuthRoutesDeps): Router {
  const router = Router();

  router.post('/api/login', async (req, res) => {
    const input = parseOr400(loginSchema, req.body);
    const username = normalizeUsername(input.username);
    const address = req.ip ?? 'unknown';
    await throttle.assertAllowed(username, address);

    const user = await users.findByUsername(username);
    const ok = user
      ? await verifyPassword(user.password, input.password)
      : await verifyAgainstDummy(input.password);
    if (!user || !ok) {
      await throttle.recordFailure(username, address);
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
    await throttle.recordSuccess(username);
    sessions.issue(res, user.id);
    logger.info({ userId: user.id, username }, 'login');
    res.json(toPublicUser(user));
  });

  router.post('/api/logout', async (req, res) => {
    const claims = await sessions.read(req);
    if (claims) await sessions.revoke(claims);
    sessions.clear(res);
    res.json({ message: 'Logged out' });
  });

  router.get('/api/user', requireUser, (req, res) => {
    res.json(req.user);
  });

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

  // Staff accounts are never self-service: registering is an admin action (docs/decisions.md).
  router.post('/api/register', requireAdminUser, async (req, res) => {
    res.status(201).json(await createUser(req.body));
  });

  router.get('/api/admin/users', requireAdminUser, async (_req, res) => {
    res.json(await users.list());
  });

  router.post('/api/admin/users', requireAdminUser, async (req, res) => {
    res.status(201).json(await createUser(req.body));
  });

  router.patch('/api/admin/users/:userId/status', requireAdminUser, async (req, res) => {
    const id = userIdSchema.safeParse(req.params.userId);
    if (!id.success) throw notFound('User not found');
    const { isActive } = parseOr400(userStatusSchema, req.body);
    if (!isActive && id.data === req.user?.id) throw badRequest('You cannot deactivate your own account');
    const updated = await users.setActive(id.data, isActive);
    if (!updated) throw notFound('User not found');
    res.json(updated);
  });

  return router;
}
