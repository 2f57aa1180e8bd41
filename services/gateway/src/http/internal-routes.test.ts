import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import pino from 'pino';
import type { SignIn } from '../app/sign-in';
import type { StaffAccounts } from '../app/staff-accounts';
import { createGatewayApp } from './app';
import { INTERNAL_ROUTES } from './internal-routes';
import { gatewayInternalPaths, gatewayPaths } from './openapi';
import type { Sessions } from './session';

// GET /internal/technicians through the gateway's whole request path (edge → express): a caller inside the cluster
// (booking, no proxy in front) gets the technicians; nothing that came through the edge proxy does, signed in as an
// admin or not, and the path is not an API route either.

const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const technicians = [
  {
    userId: '5a0f3f5e-8d1c-4d7e-9d3f-0c6b1b1f2a11',
    username: 'tina',
    isActive: true,
    changedAt: '2026-01-02T03:04:05.000Z',
  },
];
const admin = {
  id: 'b7e1f7a4-2f3b-4c55-8a77-2d9b7f4f0c22',
  username: 'boss',
  email: null,
  role: 'admin' as const,
  isActive: true,
  createdAt: new Date(0).toISOString(),
};

let server: http.Server;
let base: string;
let asked = 0;

beforeAll(async () => {
  const accounts = {
    activeTechnicians: () => {
      asked++;
      return Promise.resolve(technicians);
    },
    // Any session cookie is the admin's: even a signed-in admin cannot read the internal route from outside.
    sessionUser: () => Promise.resolve(admin),
  } as unknown as StaffAccounts;
  const sessions = {
    verify: (req: http.IncomingMessage) =>
      req.headers.cookie ? { sub: admin.id, jti: 'j', iat: 0, exp: 0 } : undefined,
    isRevoked: () => Promise.resolve(false),
  } as unknown as Sessions;
  const gateway = createGatewayApp({
    logger: pino({ level: 'silent' }),
    accounts,
    signIn: {} as SignIn,
    sessions,
    upstreams: {
      booking: 'http://127.0.0.1:9',
      jobs: 'http://127.0.0.1:9',
      billing: 'http://127.0.0.1:9',
      reporting: 'http://127.0.0.1:9',
      notify: 'http://127.0.0.1:9',
    },
    internalPrivateKey: privateKey,
    allowedOrigins: ['https://shop.example'],
    secureCookies: false,
    maxBodyBytes: 1024 * 1024,
    maxUploadBytes: 1024 * 1024,
    upstreamTimeoutMs: 1000,
    readiness: {},
    apiDocs: { adminOnly: true },
  });
  server = http.createServer(gateway.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  asked = 0;
});

/** A raw request: the path exactly as written (fetch would resolve dot segments first). */
const get = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; text: () => Promise<string>; json: () => Promise<unknown> }>(
    (resolve, reject) => {
      http
        .get(base + '/', { path, headers }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: () => Promise.resolve(body),
              json: () => Promise.resolve(JSON.parse(body) as unknown),
            }),
          );
        })
        .on('error', reject);
    },
  );

describe('GET /internal/technicians', () => {
  it('answers a caller no proxy forwarded (booking inside the cluster) with the active technicians', async () => {
    const res = await get('/internal/technicians');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ technicians });
    expect(asked).toBe(1);
  });

  it.each([
    ['X-Forwarded-For', { 'x-forwarded-for': '203.0.113.9' }],
    ['Forwarded', { forwarded: 'for=203.0.113.9;proto=https' }],
    ['X-Forwarded-For and an admin session', { 'x-forwarded-for': '203.0.113.9', cookie: 'session=x' }],
  ])('is not there for a request through the edge proxy (%s)', async (_what, headers) => {
    const res = await get('/internal/technicians', headers);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('tina');
    expect(asked).toBe(0);
  });

  it('is not reachable as an API path, signed in as an admin or not', async () => {
    for (const path of [
      '/api/internal/technicians',
      '/api/technicians',
      '/api/../internal/technicians',
      '/api/%2e%2e/internal/technicians',
    ]) {
      for (const headers of [{}, { cookie: 'session=x' }] as Record<string, string>[]) {
        const res = await get(path, headers);
        expect(res.status).not.toBe(200);
        expect(await res.text()).not.toContain('tina');
      }
    }
    expect(asked).toBe(0);
  });

  it('answers GET only', async () => {
    const res = await fetch(base + '/internal/technicians', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(asked).toBe(0);
  });
});

describe('the internal routes are documented (responses checked against it in the strict suites)', () => {
  it('gatewayInternalPaths describes exactly GET of each internal route, none of them public', () => {
    expect(Object.keys(gatewayInternalPaths)).toEqual(Object.values(INTERNAL_ROUTES));
    for (const item of Object.values(gatewayInternalPaths)) expect(Object.keys(item ?? {})).toEqual(['get']);
    for (const path of Object.keys(gatewayInternalPaths)) expect(gatewayPaths[path]).toBeUndefined();
  });
});
