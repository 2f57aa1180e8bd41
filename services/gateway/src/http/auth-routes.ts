import { Router, type Request, type RequestHandler } from 'express';
import { notFound, parseOr400 } from '@tyres/service-kit';
import { loginSchema, registerUserSchema, userIdSchema, userStatusSchema } from '../domain/users';
import type { SignIn } from '../app/sign-in';
import type { StaffAccounts } from '../app/staff-accounts';
import { revocationOf, type Sessions } from './session';
import { OWN_ROUTES, type OwnRoute, type OwnRouteName } from './routing';

export interface AuthRoutesDeps {
  signIn: SignIn;
  accounts: StaffAccounts;
  sessions: Sessions;
  /** Who is asking (the socket peer unless it is a trusted proxy: client-address.ts). */
  clientAddress: (req: Request) => string;
}

/**
 * The gateway's own routes, one handler per entry of OWN_ROUTES (routing.ts). Who may call each one is decided
 * by the edge from the same table before the handler runs, so a handler can rely on req.user for staff routes.
 * Handlers parse, call one use case (src/app) and serialise; the session cookie is theirs.
 */
export function authRoutes({ signIn, accounts, sessions, clientAddress }: AuthRoutesDeps): Router {
  const handlers: Record<OwnRouteName, RequestHandler> = {
    login: async (req, res) => {
      const input = parseOr400(loginSchema, req.body);
      const user = await signIn.login(input, clientAddress(req));
      sessions.issue(res, user.id);
      res.json(user);
    },

    logout: async (req, res) => {
      const claims = await sessions.read(req);
      await signIn.logout(claims && revocationOf(claims));
      sessions.clear(res);
      res.json({ message: 'Logged out' });
    },

    currentUser: (req, res) => {
      res.json(req.user);
    },

    register: async (req, res) => {
      res.status(201).json(await accounts.create(parseOr400(registerUserSchema, req.body)));
    },

    listUsers: async (_req, res) => {
      res.json(await accounts.list());
    },

    createUser: async (req, res) => {
      res.status(201).json(await accounts.create(parseOr400(registerUserSchema, req.body)));
    },

    setUserStatus: async (req, res) => {
      const id = userIdSchema.safeParse(req.params.userId);
      if (!id.success) throw notFound('User not found');
      const { isActive } = parseOr400(userStatusSchema, req.body);
      res.json(await accounts.setStatus(req.user?.id, id.data, isActive));
    },
  };

  const router = Router();
  for (const [name, route] of Object.entries(OWN_ROUTES) as Array<[OwnRouteName, OwnRoute]>) {
    const method = route.method.toLowerCase() as Lowercase<OwnRoute['method']>;
    router[method](route.path, handlers[name]);
  }
  return router;
}
