import { Writable } from 'node:stream';
import pino from 'pino';
import { Client as PgClient } from 'pg';
import { currentCorrelationId } from '@tyres/service-kit';
import { deleteRedisKeysByPrefix } from '@tyres/testkit';
import { Client, silentUpstream, startTestGateway, type GatewayUnderTest } from './harness';

// The edge policy on the proxied routes of a real gateway (Postgres, Redis, RabbitMQ): CSRF and CORS,
// timeouts, and the request id on what it logs. CORS is open to one listed origin here.

jest.setTimeout(60_000);

const SHOP = 'https://shop.example';
let gw: GatewayUnderTest;
let silent: Awaited<ReturnType<typeof silentUpstream>>;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  silent = await silentUpstream();
  // As service-kit's createLogger: the current request id on every line.
  const logger = pino(
    {
      level: 'debug',
      mixin: () => {
        const correlationId = currentCorrelationId();
        return correlationId ? { correlationId } : {};
      },
    },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  gw = await startTestGateway(
    'gateway-edge',
    { ALLOWED_ORIGINS: SHOP, UPSTREAM_TIMEOUT_MS: '500', JOBS_URL: silent.url },
    logger,
  );
});
afterAll(async () => {
  await gw?.stop();
  await silent?.close();
});

async function loggedInAdmin() {
  const c = new Client(gw.baseUrl);
  expect((await c.login('boss', gw.adminPassword)).status).toBe(200);
  return c;
}

describe('proxied routes', () => {
  it('refuse a cross-site state change before it reaches the service', async () => {
    const admin = await loggedInAdmin();
    const before = gw.upstream.seen.length;
    const staff = await admin.request(
      'POST',
      '/api/dashboard/purchase-invoices',
      { total: '10.00' },
      {
        Origin: 'https://evil.example',
      },
    );
    expect(staff.status).toBe(403);
    expect(staff.body).toEqual({ message: 'Cross-site request refused', code: 'forbidden' });
    const anonymous = await new Client(gw.baseUrl).request(
      'POST',
      '/api/bookings',
      {},
      {
        Origin: 'https://evil.example',
      },
    );
    expect(anonymous.status).toBe(403);
    expect(gw.upstream.seen.length).toBe(before);

    const fromShop = await new Client(gw.baseUrl).request('POST', '/api/bookings', {}, { Origin: SHOP });
    expect(fromShop.status).toBe(200);
    expect(fromShop.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(gw.upstream.seen.length).toBe(before + 1);
  });

  it('answer the listed origin’s CORS preflight at the edge, with the security headers', async () => {
    const before = gw.upstream.seen.length;
    const res = await fetch(`${gw.baseUrl}/api/dashboard/jobs`, {
      method: 'OPTIONS',
      headers: {
        Origin: SHOP,
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,PATCH,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'Content-Type, Idempotency-Key, X-Request-Id',
    );
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(gw.upstream.seen.length).toBe(before);

    // Any other origin gets no CORS headers at all.
    const foreign = await fetch(`${gw.baseUrl}/api/time-slots?date=2030-01-07`, {
      headers: { Origin: 'https://evil.example' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answer 504 when a service does not answer in time', async () => {
    const admin = await loggedInAdmin();
    const started = Date.now();
    const res = await admin.request('GET', '/api/dashboard/jobs?status=new');
    expect(res.status).toBe(504);
    expect(res.body).toEqual({
      message: 'The jobs service did not answer in time. Please try again shortly.',
      code: 'upstream_timeout',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('request id', () => {
  it('is on every line a request causes, including the ones written during the session lookup', async () => {
    const admin = await loggedInAdmin();
    const db = new PgClient({ connectionString: gw.databaseUrl });
    await db.connect();
    const from = lines.length;
    const statuses: Record<string, number> = {};
    const send = async (id: string, method: string, path: string, headers: Record<string, string> = {}) => {
      statuses[id] = (
        await admin.request(method, path, undefined, { ...headers, 'x-request-id': id })
      ).status;
    };
    try {
      await send('edge-own', 'GET', '/api/user');
      await send('edge-proxied', 'GET', '/api/time-slots?date=2030-01-07');
      await send('edge-timeout', 'GET', '/api/dashboard/jobs');
      await send('edge-csrf', 'POST', '/api/bookings', { Origin: 'https://evil.example' });
      // The session is valid but its user can be read neither from the cache (emptied) nor from the database
      // (the table is away for a moment): the lookup fails.
      await deleteRedisKeysByPrefix(`${gw.prefix}gateway:user:`);
      await db.query('ALTER TABLE identity.users RENAME TO users_away');
      try {
        await send('edge-lookup', 'GET', '/api/dashboard/technicians');
      } finally {
        await db.query('ALTER TABLE identity.users_away RENAME TO users');
      }
    } finally {
      await db.end();
    }
    expect(statuses).toMatchObject({
      'edge-own': 200,
      'edge-proxied': 200,
      'edge-timeout': 504,
      'edge-csrf': 403,
      'edge-lookup': 500,
    });

    const written = lines.slice(from).filter((l) => l.msg !== 'login');
    const byId = (id: string) => written.filter((l) => l.correlationId === id).map((l) => l.msg);
    expect(byId('edge-own')).toEqual(['request']);
    expect(byId('edge-proxied')).toEqual(['request']);
    expect(byId('edge-timeout')).toEqual(['upstream timed out', 'request']);
    expect(byId('edge-csrf')).toEqual(['request']);
    expect(byId('edge-lookup')).toEqual(['session lookup failed', 'request']);
    expect(written.filter((l) => !String(l.correlationId ?? '').startsWith('edge-'))).toEqual([]);
  });
});
