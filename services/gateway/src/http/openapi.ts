/**
 * The gateway's own routes as OpenAPI 3.1 (issue 17): sign-in and out, the session user, staff accounts, and the API
 * reference itself. Staff routes are authenticated by the session cookie (`staffSession`); the edge answers 401/403
 * before the handler runs (edge.ts, replies.ts). The combined document (every service's routes as the gateway's
 * clients reach them) is built from this one and the services' (app/api-reference.ts).
 * test/integration/api-docs.int.test.ts fails when the gateway's router has a route this file does not describe.
 */
import {
  errors,
  json,
  jsonBody,
  serviceOpenApiDocument,
  UNAVAILABLE,
  type OpenApiDocument,
  type RoutePaths,
} from '@tyres/service-kit';
import { z } from 'zod';
import { loginSchema, registerUserSchema, ROLES, userStatusSchema } from '../domain/users';
import { ADMIN_ONLY, NOT_AUTHENTICATED } from './replies';
import { SESSION_COOKIE } from './session';

export const PublicUserSchema = z
  .object({
    id: z.string(),
    username: z.string(),
    email: z.string().nullable(),
    role: z.enum(ROLES),
    isActive: z.boolean(),
    createdAt: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'StaffUser', description: 'The signed-in staff member (spec section 3, "User (session)").' });

const session = [{ staffSession: [] }];
const STAFF = { 401: NOT_AUTHENTICATED.message } as const;
const ADMIN = { 401: NOT_AUTHENTICATED.message, 403: ADMIN_ONLY.message } as const;
const ACCOUNT_VALIDATION = [
  'Username is required',
  'Username must be at least 3 characters',
  'Username must be at most 50 characters',
  'Username may only contain letters, numbers, dots, dashes and underscores',
  'Password is required',
  'Password must be at least 6 characters',
  'Password must be at most 200 characters',
  'Invalid email address',
  'Role must be admin or technician',
];
const DOCS_ACCESS =
  'Anyone in development; in production only a signed-in admin (401 "Not authenticated", 403 "Only an admin can do that").';

const createAccount = {
  tags: ['Staff accounts'],
  security: session,
  requestBody: jsonBody(registerUserSchema),
  responses: {
    '201': json('The new account', PublicUserSchema),
    ...errors({ 400: ACCOUNT_VALIDATION, ...ADMIN, 409: 'Username already exists', ...UNAVAILABLE }),
  },
};

export const gatewayPaths: RoutePaths = {
  '/api/login': {
    post: {
      summary: 'Sign in: sets the session cookie',
      tags: ['Session'],
      requestBody: jsonBody(loginSchema),
      responses: {
        '200': {
          ...json('Signed in; the answer carries Set-Cookie', PublicUserSchema),
          headers: {
            'Set-Cookie': {
              schema: { type: 'string' },
              description: `${SESSION_COOKIE}=…; HttpOnly; SameSite=Lax`,
            },
          },
        },
        ...errors({
          400: ['Username is required', 'Password is required'],
          401: 'Invalid username or password',
          403: 'This account has been deactivated. Please contact an administrator.',
          429: [
            'Too many failed login attempts. Please try again in {minutes} minutes.',
            'Too many failed login attempts. Please try again in 1 minute.',
          ],
          ...UNAVAILABLE,
        }),
      },
    },
  },
  '/api/logout': {
    post: {
      summary: 'Sign out: revokes the session and clears the cookie',
      tags: ['Session'],
      responses: {
        '200': json('Signed out (also without a session)', z.object({ message: z.literal('Logged out') })),
        ...errors(UNAVAILABLE),
      },
    },
  },
  '/api/user': {
    get: {
      summary: 'The signed-in staff member',
      tags: ['Session'],
      security: session,
      responses: { '200': json('The session user', PublicUserSchema), ...errors(STAFF) },
    },
  },
  '/api/register': {
    post: { ...createAccount, summary: 'Create a staff account (admin; same as POST /api/admin/users)' },
  },
  '/api/admin/users': {
    get: {
      summary: 'All staff accounts',
      tags: ['Staff accounts'],
      security: session,
      responses: {
        '200': json('The accounts', z.array(PublicUserSchema)),
        ...errors({ ...ADMIN, ...UNAVAILABLE }),
      },
    },
    post: { ...createAccount, summary: 'Create a staff account' },
  },
  '/api/admin/users/{userId}/status': {
    patch: {
      summary: 'Activate or deactivate a staff account',
      tags: ['Staff accounts'],
      security: session,
      requestParams: { path: z.object({ userId: z.string() }) },
      requestBody: jsonBody(userStatusSchema),
      responses: {
        '200': json('The account now', PublicUserSchema),
        ...errors({
          400: ['isActive must be true or false', 'You cannot deactivate your own account'],
          ...ADMIN,
          404: 'User not found',
          ...UNAVAILABLE,
        }),
      },
    },
  },
  '/api/docs': {
    get: {
      summary: 'This API reference, rendered',
      description: DOCS_ACCESS,
      tags: ['API reference'],
      responses: {
        '200': { description: 'The reference page', content: { 'text/html': { schema: z.string() } } },
        ...errors(ADMIN),
      },
    },
  },
  '/api/docs/openapi.json': {
    get: {
      summary: 'The combined OpenAPI document: the gateway and every service, as clients reach them',
      description:
        `${DOCS_ACCESS} A service whose document cannot be fetched is left out and named in ` +
        '`x-unavailable-services`.',
      tags: ['API reference'],
      responses: {
        '200': json(
          'OpenAPI 3.1',
          z
            .object({
              openapi: z.string(),
              info: z.object({ title: z.string(), version: z.string() }).catchall(z.unknown()),
              paths: z.record(z.string(), z.unknown()),
              'x-services': z.array(z.string()),
              'x-unavailable-services': z.array(z.object({ service: z.string(), reason: z.string() })),
            })
            // The rest of an OpenAPI document (components, tags, servers, …): OpenAPI's own schema describes it.
            .catchall(z.unknown())
            .meta({ id: 'CombinedOpenApiDocument' }),
        ),
        ...errors(ADMIN),
      },
    },
  },
  '/api/docs/assets/{file}': {
    get: {
      summary: "The reference page's scripts and styles (swagger-ui-dist, served from the gateway itself)",
      tags: ['API reference'],
      requestParams: { path: z.object({ file: z.string() }) },
      responses: {
        '200': {
          description: 'The file',
          content: { 'text/css': { schema: z.string() }, 'text/javascript': { schema: z.string() } },
        },
        ...errors({ ...ADMIN, 404: 'Not found' }),
      },
    },
  },
};

/**
 * The gateway's service-to-service routes (internal-routes.ts). Not part of the public document or the combined
 * reference (clients never reach them: a forwarded request is refused); documented here so the response check
 * and the route coverage test see them.
 */
export const gatewayInternalPaths: RoutePaths = {
  '/internal/technicians': {
    get: {
      summary: "Every active technician (booking's roster sync, once after its upgrade)",
      description:
        'Service-to-service only: a request that came through a proxy (X-Forwarded-For or Forwarded) gets the ' +
        "answer of an unknown path. `changedAt` is when the user row last changed: booking keeps a user event's " +
        'fact when it is newer.',
      tags: ['Internal'],
      responses: {
        '200': json(
          'The active technicians',
          z
            .object({
              technicians: z.array(
                z.object({
                  userId: z.string(),
                  username: z.string(),
                  isActive: z.boolean(),
                  changedAt: z.string().meta({ format: 'date-time' }),
                }),
              ),
            })
            .meta({ id: 'InternalTechnicians' }),
        ),
        ...errors(UNAVAILABLE),
      },
    },
  },
};

export const gatewayOpenApi = (): OpenApiDocument => {
  const document = serviceOpenApiDocument({
    service: 'gateway',
    description:
      'The one public entry point of the mobile tyre business: the customer site and the staff dashboard call every ' +
      'API through it. It answers sign-in, the session and staff accounts itself and forwards everything else to ' +
      "the service that owns it, after checking the route's access rule (public, staff or admin) against the " +
      'session cookie. Any route may also answer 413 (body too large), 403 "Cross-site request refused" (a ' +
      'state-changing request from another origin), 429 on the limited public endpoints, 502/504 when a service ' +
      'is unreachable or silent, or 503 while a database is unavailable, with the same error body.',
    paths: gatewayPaths,
  });
  // Clients authenticate with the session cookie; the signed x-identity header is between the gateway and services.
  return {
    ...document,
    info: { ...document.info, title: 'Mobile tyres API' },
    components: {
      ...document.components,
      securitySchemes: {
        staffSession: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description:
            'The session cookie POST /api/login sets (HttpOnly, SameSite=Lax, 12 hours by default).',
        },
      },
    },
  };
};
