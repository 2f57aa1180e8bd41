import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { generateKeyPairSync } from 'node:crypto';
import pino from 'pino';
import { Histogram, Registry } from 'prom-client';
import { currentCorrelationId, serviceUnavailable } from '@tyres/service-kit';
import type { PublicUser } from '../domain/users';
import { createEdge } from './edge';
import { createForwarder } from './forwarder';
import { clientAddress, TrustedProxies } from './client-address';
import { IdentityTokens } from './identity';
import type { LimitGroup, LimitRefusal } from './public-limits';

// The edge on a real socket, with a stand-in service behind it and a stand-in for what the gateway answers
// itself: what a browser or a service would see.

const ALLOWED = 'https://shop.example';
const privateKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

const admin: PublicUser = {
  id: '5a0f3f5e-8d1c-4d7e-9d3f-0c6b1b1f2a11',
  username: 'boss',
  email: null,
  role: 'admin',
  isActive: true,
  createdAt: new Date(0).toISOString(),
};
const technician: PublicUser = {
  ...admin,
  id: 'b7e1f7a4-2f3b-4c55-8a77-2d9b7f4f0c22',
  username: 'tina',
  role: 'technician',
};

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

async function listen(server: http.Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: http.Server) {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

let service: http.Server;
let serviceUrl: string;
let silent: http.Server;
let silentUrl: string;
let gateway: http.Server;
let baseUrl: string;
const seen: Seen[] = [];
const local: Seen[] = [];
let lines: Array<Record<string, unknown>> = [];
let logger: pino.Logger;
/** What the session lookup does for the next request (the cookie value picks the user). */
let sessionLookup: (cookie: string) => Promise<PublicUser | undefined>;
/** What the public limits answer for the next call (undefined: within the limit); every call they count. */
let limitAnswer: (group: LimitGroup, address: string) => LimitRefusal | undefined;
const counted: string[] = [];
/** How long the public limits take to answer. */
let limitDelayMs = 0;

beforeAll(async () => {
  service = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ upstream: true }));
    });
  });
  serviceUrl = await listen(service);
  // Accepts the call and never answers.
  silent = http.createServer(() => undefined);
  silentUrl = await listen(silent);

  logger = pino(
    {
      level: 'debug',
      // As service-kit's createLogger: the request id of the current context on every line.
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
  const forwarder = createForwarder({
    upstreams: {
      booking: serviceUrl,
      jobs: silentUrl,
      billing: serviceUrl,
      reporting: 'http://127.0.0.1:9',
      notify: serviceUrl,
    },
    logger,
    timeoutMs: 300,
  });
  const edge = createEdge({
    logger,
    allowedOrigins: [ALLOWED],
    secureCookies: false,
    maxBodyBytes: 1000,
    maxUploadBytes: 5000,
    ownBodyBytes: 100,
    session: (req) => {
      const cookie = req.headers.cookie;
      return cookie ? sessionLookup(cookie) : undefined;
    },
    identity: new IdentityTokens(privateKey),
    // The test client stands behind a trusted proxy: X-Forwarded-For names the client.
    clientAddress: (req) => clientAddress(req, new TrustedProxies(['127.0.0.1'])),
    publicLimits: {
      consume: async (group, address) => {
        counted.push(`${group} ${address}`);
        if (limitDelayMs) await new Promise((resolve) => setTimeout(resolve, limitDelayMs));
        return limitAnswer(group, address);
      },
    },
    forwarder,
    local: (req, res) => {
      local.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      logger.info('answered by the gateway itself');
      res.writeHead(req.url?.startsWith('/api/nothing') ? 404 : 200, { 'Content-Type': 'text/plain' });
      res.end(req.user ? `hello ${req.user.username}` : 'hello');
    },
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'test',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [new Registry()],
    }),
  });
  gateway = http.createServer(edge.handle);
  baseUrl = await listen(gateway);
});

afterAll(async () => {
  await Promise.all([close(gateway), close(service), close(silent)]);
});

beforeEach(() => {
  seen.length = 0;
  local.length = 0;
  lines = [];
  counted.length = 0;
  limitDelayMs = 0;
  limitAnswer = () => undefined;
  sessionLookup = async (cookie) =>
    cookie === 'session=admin' ? admin : cookie === 'session=tech' ? technician : undefined;
});

const call = (path: string, init: RequestInit = {}) => fetch(baseUrl + path, init);

/** Waits (up to 5 s) until the condition holds. */
async function until(condition: () => boolean) {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('proxied routes', () => {
  it('refuses a cross-site state change before it reaches the service, for anonymous and staff callers', async () => {
    const anonymous = await call('/api/bookings', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toEqual({ message: 'Cross-site request refused', code: 'forbidden' });
    const staff = await call('/api/dashboard/customer-invoices', {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        Cookie: 'session=admin',
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    expect(staff.status).toBe(403);
    // A Referer from another site counts like an Origin.
    const referred = await call('/api/bookings', {
      method: 'DELETE',
      headers: { Referer: 'https://evil.example/page' },
    });
    expect(referred.status).toBe(403);
    expect(seen).toHaveLength(0);

    // The listed origin and the gateway's own host get through; so does a read from anywhere.
    for (const origin of [ALLOWED, baseUrl]) {
      const ok = await call('/api/bookings', { method: 'POST', headers: { Origin: origin }, body: '{}' });
      expect(ok.status).toBe(200);
    }
    expect((await call('/api/time-slots', { headers: { Origin: 'https://evil.example' } })).status).toBe(200);
    expect(seen).toHaveLength(3);
  });

  it('answers an allowed origin’s CORS preflight itself and forwards the call that follows', async () => {
    const preflight = await call('/api/bookings', {
      method: 'OPTIONS',
      headers: {
        Origin: ALLOWED,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type,idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,PATCH,DELETE');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'Content-Type, Idempotency-Key, X-Request-Id',
    );
    expect(preflight.headers.get('access-control-max-age')).toBe('600');
    expect(preflight.headers.get('vary')).toBe('Origin');
    expect(preflight.headers.get('x-content-type-options')).toBe('nosniff');
    expect(preflight.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(seen).toHaveLength(0);

    const real = await call('/api/bookings', {
      method: 'POST',
      headers: { Origin: ALLOWED, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(real.status).toBe(200);
    expect(real.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(real.headers.get('access-control-allow-credentials')).toBe('true');
    expect(seen).toHaveLength(1);
  });

  it('keeps CORS closed to origins that are not listed: their preflight goes on like any request', async () => {
    const res = await call('/api/bookings', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(seen.map((s) => s.method)).toEqual(['OPTIONS']);
  });

  it('answers 504 when the service does not answer in time, 502 when it cannot be reached', async () => {
    const slow = await call('/api/dashboard/jobs', { headers: { Cookie: 'session=admin' } });
    expect(slow.status).toBe(504);
    expect(await slow.json()).toEqual({
      message: 'The jobs service did not answer in time. Please try again shortly.',
      code: 'upstream_timeout',
    });
    const down = await call('/api/dashboard/reports/gst', { headers: { Cookie: 'session=admin' } });
    expect(down.status).toBe(502);
    expect(await down.json()).toEqual({
      message: 'The reporting service is unavailable right now. Please try again shortly.',
      code: 'upstream_unavailable',
    });
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['upstream timed out', 'upstream unavailable']),
    );
  });

  it('applies the route’s access rule and forwards the signed identity, never the one a client sent', async () => {
    expect((await call('/api/dashboard/jobs-with-details')).status).toBe(401);
    const tech = await call('/api/dashboard/reports/gst', { headers: { Cookie: 'session=tech' } });
    expect(tech.status).toBe(403);
    expect(await tech.json()).toEqual({ message: 'Only an admin can do that', code: 'forbidden' });
    expect(seen).toHaveLength(0);

    const ok = await call('/api/dashboard/customer-invoices?x=1', {
      headers: { Cookie: 'session=tech', 'x-identity-token': 'forged', 'x-request-id': 'trace-1' },
    });
    expect(ok.status).toBe(200);
    const forwarded = seen[0]!;
    expect(forwarded.url).toBe('/api/dashboard/customer-invoices?x=1');
    expect(forwarded.headers['x-identity-token']).not.toBe('forged');
    expect(forwarded.headers['x-identity-token']).toEqual(expect.any(String));
    expect(forwarded.headers['x-request-id']).toBe('trace-1');
    expect(forwarded.headers['x-forwarded-for']).toBe('127.0.0.1');

    await call('/api/time-slots', { headers: { 'x-identity-token': 'forged' } });
    expect(seen[1]!.headers['x-identity-token']).toBeUndefined();
  });

  it('caps bodies by route: declared lengths up front, photo uploads higher', async () => {
    const big = await call('/api/bookings', { method: 'POST', body: 'x'.repeat(1001) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: 'Request body is too large', code: 'payload_too_large' });
    expect(seen).toHaveLength(0);
    const photo = await call('/api/bookings/abc/photos', { method: 'POST', body: 'x'.repeat(4000) });
    expect(photo.status).toBe(200);
  });

  it('refuses paths the service could read differently than the routing table', async () => {
    // fetch normalises dot segments itself; a raw client (curl --path-as-is, a script) does not.
    const { port } = new URL(baseUrl);
    const raw = (path: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });
    for (const path of [
      '/api/time-slots/../dashboard/jobs',
      '/api/time-slots/%2e%2E/x',
      '/api/bookings//photos',
    ])
      expect(await raw(path)).toBe(404);
    expect(seen).toHaveLength(0);
  });

  it('refuses a chunked DELETE body without a length, which the proxy would pass on unframed', async () => {
    const { port } = new URL(baseUrl);
    const smuggled = 'GET /api/time-slots HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.write(
          'DELETE /api/bookings/abc HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n' +
            `${smuggled.length.toString(16)}\r\n${smuggled}\r\n0\r\n\r\n`,
        ),
      );
      socket.once('data', (data) => {
        resolve(data.toString());
        socket.destroy();
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 411 /);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen).toHaveLength(0);
  });
});

describe('public limits', () => {
  it('counts anonymous calls to limited endpoints per client and answers 429 with Retry-After past the limit', async () => {
    limitAnswer = (group, address) =>
      group === 'bookings' && address === '203.0.113.7'
        ? { retryAfterSeconds: 1200, message: 'Too many requests. Please try again in 20 minutes.' }
        : undefined;
    const post = (path: string, client: string, headers: Record<string, string> = {}) =>
      call(path, { method: 'POST', body: '{}', headers: { 'X-Forwarded-For': client, ...headers } });

    const refused = await post('/api/bookings', '203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1200');
    expect(await refused.json()).toEqual({
      message: 'Too many requests. Please try again in 20 minutes.',
      code: 'too_many_requests',
      details: { retryAfterSeconds: 1200 },
    });
    expect(seen).toHaveLength(0);

    expect((await post('/api/bookings/', '198.51.100.2')).status).toBe(200);
    expect((await post('/api/bookings/quote', '203.0.113.7')).status).toBe(200);
    expect(
      (await call('/api/addresses/suggestions?q=1', { headers: { 'X-Forwarded-For': '192.0.2.1' } })).status,
    ).toBe(200);
    expect(counted).toEqual([
      'bookings 203.0.113.7',
      'bookings 198.51.100.2',
      'quotes 203.0.113.7',
      'addressSuggestions 192.0.2.1',
    ]);
  });

  it('never counts staff calls or endpoints outside the limited groups', async () => {
    limitAnswer = () => ({ retryAfterSeconds: 60, message: 'Too many requests.' });
    const staff = await call('/api/bookings', {
      method: 'POST',
      body: '{}',
      headers: { Cookie: 'session=tech' },
    });
    expect(staff.status).toBe(200);
    expect((await call('/api/time-slots?date=2030-01-07')).status).toBe(200);
    expect((await call('/api/payments/webhook', { method: 'POST', body: '{}' })).status).toBe(200);
    expect(counted).toEqual([]);
  });

  it('forwards nothing for a client that left while its limit was looked up', async () => {
    limitDelayMs = 300;
    const gone = new AbortController();
    const booking = call('/api/bookings', {
      method: 'POST',
      body: '{}',
      headers: { 'x-request-id': 'trace-left' },
      signal: gone.signal,
    }).catch((err: Error) => err.name);
    await until(() => counted.length > 0);
    gone.abort();
    expect(await booking).toBe('AbortError');
    // Past the upstream timeout too: no call was left waiting on the service.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(counted).toEqual(['bookings 127.0.0.1']);
    expect(seen).toHaveLength(0);
    expect(lines.filter((l) => l.correlationId === 'trace-left')).toEqual([
      expect.objectContaining({ msg: 'request', status: 499 }),
    ]);
  });

  it('tells the service the client address it computed, never the one a client wrote', async () => {
    await call('/api/bookings/quote', {
      method: 'POST',
      body: '{}',
      headers: { 'X-Forwarded-For': '203.0.113.9', 'X-Client-Address': '10.9.9.9' },
    });
    await call('/api/dashboard/customer-invoices', {
      headers: { Cookie: 'session=tech', 'X-Client-Address': '10.9.9.9' },
    });
    expect(seen.map((s) => s.headers['x-client-address'])).toEqual(['203.0.113.9', '127.0.0.1']);
    await call('/api/user', { headers: { Cookie: 'session=tech', 'X-Client-Address': '10.9.9.9' } });
    expect(local[0]!.headers['x-client-address']).toBeUndefined();
  });
});

describe('what the gateway answers itself', () => {
  it('passes the same headers, CSRF check and access rules before the handler runs', async () => {
    const anonymous = await call('/api/user');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('content-security-policy')).toContain("default-src 'self'");
    const tech = await call('/api/admin/users', { headers: { Cookie: 'session=tech' } });
    expect(tech.status).toBe(403);
    const csrf = await call('/api/admin/users', {
      method: 'POST',
      headers: { Cookie: 'session=admin', Origin: 'https://evil.example' },
      body: '{}',
    });
    expect(csrf.status).toBe(403);
    const tooBig = await call('/api/login', { method: 'POST', body: 'x'.repeat(101) });
    expect(tooBig.status).toBe(413);
    expect(local).toHaveLength(0);

    const me = await call('/api/USER/', { headers: { Cookie: 'session=tech' } });
    expect(me.status).toBe(200);
    expect(await me.text()).toBe('hello tina');
    // A method the route does not have is express's to answer (404, or the OPTIONS list).
    expect((await call('/api/user', { method: 'DELETE' })).status).toBe(200);
    expect((await call('/api/nothing-here')).status).toBe(404);
    const page = await call('/about', { headers: { Origin: 'https://evil.example' } });
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(local.map((l) => `${l.method} ${l.url}`)).toEqual([
      'GET /api/USER/',
      'DELETE /api/user',
      'GET /api/nothing-here',
      'GET /about',
    ]);
  });
});

describe('request id and access log', () => {
  it('puts the request id on every line, including the ones written during the session lookup', async () => {
    sessionLookup = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      // As a store or a database retry would: no id passed by hand.
      logger.warn('session store was slow');
      return admin;
    };
    await call('/api/dashboard/customer-invoices', {
      headers: { Cookie: 'session=admin', 'x-request-id': 'trace-a' },
    });
    await call('/api/dashboard/jobs', { headers: { Cookie: 'session=admin', 'x-request-id': 'trace-b' } });
    await call('/api/user', { headers: { Cookie: 'session=admin', 'x-request-id': 'trace-c' } });
    await call('/api/time-slots', { headers: { 'x-request-id': 'trace-d' } });
    const byId = (id: string) => lines.filter((l) => l.correlationId === id).map((l) => l.msg);
    expect(byId('trace-a')).toEqual(['session store was slow', 'request']);
    expect(byId('trace-b')).toEqual(['session store was slow', 'upstream timed out', 'request']);
    expect(byId('trace-c')).toEqual(['session store was slow', 'answered by the gateway itself', 'request']);
    expect(byId('trace-d')).toEqual(['request']);
    expect(lines.filter((l) => !String(l.correlationId ?? '').startsWith('trace-'))).toEqual([]);
  });

  it('logs a request whose client went away before its answer (499), and drops the upstream call quietly', async () => {
    let looked = false;
    sessionLookup = async () => {
      looked = true;
      return admin;
    };
    const gone = new AbortController();
    const call1 = call('/api/dashboard/jobs', {
      headers: { Cookie: 'session=admin', 'x-request-id': 'trace-gone' },
      signal: gone.signal,
    }).catch((err: Error) => err.name);
    await until(() => looked);
    await new Promise((resolve) => setTimeout(resolve, 20));
    gone.abort();
    expect(await call1).toBe('AbortError');
    await until(() => lines.some((l) => l.correlationId === 'trace-gone'));
    // Past the upstream timeout: the dropped call neither times out nor logs anything more.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(lines.filter((l) => l.correlationId === 'trace-gone')).toEqual([
      expect.objectContaining({ msg: 'request', status: 499, url: '/api/dashboard/jobs' }),
    ]);
  });

  it('answers a failed session lookup as the services answer errors, with the request id on its line', async () => {
    sessionLookup = async () => {
      throw serviceUnavailable('The database is unavailable right now.', 2, 'database_unavailable');
    };
    const outage = await call('/api/dashboard/jobs', {
      headers: { Cookie: 'session=x', 'x-request-id': 'trace-e' },
    });
    expect(outage.status).toBe(503);
    expect(outage.headers.get('retry-after')).toBe('2');
    sessionLookup = async () => {
      throw new Error('boom');
    };
    const bug = await call('/api/user', { headers: { Cookie: 'session=x', 'x-request-id': 'trace-f' } });
    expect(bug.status).toBe(500);
    expect(await bug.json()).toEqual({
      message: 'Something went wrong. Please try again.',
      code: 'internal_error',
    });
    expect(lines.filter((l) => l.msg !== 'request').map((l) => [l.correlationId, l.msg])).toEqual([
      ['trace-e', 'session lookup failed: database unavailable'],
      ['trace-f', 'session lookup failed'],
    ]);
  });
});
