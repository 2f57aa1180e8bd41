import http from 'node:http';
import WebSocket from 'ws';
import { connect } from 'amqplib';
import { createRedisClient, getAmqpUrl, waitFor } from '@tyres/testkit';
import { UserCache } from '../../src/db/user-cache';
import { Client, startTestGateway, type GatewayUnderTest } from './harness';

jest.setTimeout(60_000);

let gw: GatewayUnderTest;

beforeAll(async () => {
  // Reporting points at a port nothing listens on, to see how an outage looks to a caller.
  gw = await startTestGateway('gateway-int', {
    LOGIN_MAX_FAILURES_PER_USERNAME: '3',
    REPORTING_URL: 'http://127.0.0.1:9',
  });
});
afterAll(async () => {
  await gw?.stop();
});

const client = () => new Client(gw.baseUrl);

async function loggedInAdmin() {
  const c = client();
  const res = await c.login('boss', gw.adminPassword);
  expect(res.status).toBe(200);
  return c;
}

async function createUser(admin: Client, username: string, role: 'admin' | 'technician' = 'technician') {
  const res = await admin.request('POST', '/api/admin/users', {
    username,
    password: 'secret12',
    email: '',
    role,
  });
  expect(res.status).toBe(201);
  return res.body as unknown as { id: string; username: string; role: string };
}

describe('session', () => {
  it('answers 401 on /api/user without a session', async () => {
    const res = await client().request('GET', '/api/user');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Not authenticated');
  });

  it('logs the seeded admin in with an httpOnly SameSite cookie, case-insensitively', async () => {
    const c = client();
    const res = await c.login('BOSS', gw.adminPassword);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ username: 'boss', role: 'admin', isActive: true, email: null });
    expect(res.body).not.toHaveProperty('password');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const me = await c.request('GET', '/api/user');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('boss');
  });

  it('gives the same message for a wrong password and an unknown user', async () => {
    const wrong = await client().login('boss', 'not-the-password');
    const unknown = await client().login('nobody-here', 'whatever1');
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Invalid username or password');
    }
  });

  it('validates login input with the spec messages', async () => {
    const res = await client().request('POST', '/api/login', { username: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Username is required');
    expect(res.body.details).toEqual(
      expect.arrayContaining([{ path: 'password', message: 'Password is required' }]),
    );
  });

  it('throttles repeated failures for a username, even with the right password afterwards', async () => {
    const admin = await loggedInAdmin();
    await createUser(admin, 'throttled');
    for (let i = 0; i < 3; i++) expect((await client().login('throttled', 'bad-password')).status).toBe(401);
    const blocked = await client().login('throttled', 'secret12');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(
      /^Too many failed login attempts\. Please try again in \d+ minutes?\.$/,
    );
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('logout revokes the session, even for a copied cookie', async () => {
    const c = await loggedInAdmin();
    const copied = c.cookie;
    expect((await c.request('POST', '/api/logout')).status).toBe(200);
    expect((await c.request('GET', '/api/user')).status).toBe(401);
    const thief = client();
    thief.cookie = copied;
    expect((await thief.request('GET', '/api/user')).status).toBe(401);
  });
});

describe('staff accounts', () => {
  it('creates users with the spec validation messages and refuses duplicates', async () => {
    const admin = await loggedInAdmin();
    const bad = await admin.request('POST', '/api/admin/users', {
      username: 'ab',
      password: '123',
      email: 'nope',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(
      expect.arrayContaining([
        { path: 'username', message: 'Username must be at least 3 characters' },
        { path: 'password', message: 'Password must be at least 6 characters' },
        { path: 'email', message: 'Invalid email address' },
      ]),
    );
    const created = await createUser(admin, 'Tina');
    expect(created).toMatchObject({ username: 'tina', role: 'technician' });
    const dup = await admin.request('POST', '/api/admin/users', { username: 'TINA', password: 'secret12' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('Username already exists');
    const list = await admin.request('GET', '/api/admin/users');
    expect((list.body as unknown as Array<{ username: string }>).map((u) => u.username)).toEqual(
      expect.arrayContaining(['boss', 'tina']),
    );
    expect(JSON.stringify(list.body)).not.toMatch(/argon2/);
  });

  it('keeps technicians out of admin routes, at the gateway and for proxied admin areas', async () => {
    const admin = await loggedInAdmin();
    await createUser(admin, 'tech-roles');
    const tech = client();
    expect((await tech.login('tech-roles', 'secret12')).status).toBe(200);
    expect((await tech.request('GET', '/api/admin/users')).status).toBe(403);
    expect(
      (
        await tech.request('POST', '/api/register', {
          username: 'sneaky',
          password: 'secret12',
          role: 'admin',
        })
      ).status,
    ).toBe(403);
    expect((await tech.request('GET', '/api/dashboard/reports/gst')).status).toBe(403);
    expect((await tech.request('GET', '/api/dashboard/business-expenses')).status).toBe(403);
    expect((await client().request('GET', '/api/dashboard/jobs')).status).toBe(401);
    const jobs = await tech.request('GET', '/api/dashboard/jobs?status=new');
    expect(jobs.status).toBe(200);
    expect(jobs.body).toMatchObject({
      upstream: true,
      url: '/api/dashboard/jobs?status=new',
      identity: { username: 'tech-roles', role: 'technician' },
    });
  });

  it('a deactivated user loses access on the next request and cannot log in again', async () => {
    const admin = await loggedInAdmin();
    const tech = await createUser(admin, 'leaver');
    const session = client();
    expect((await session.login('leaver', 'secret12')).status).toBe(200);
    expect((await session.request('GET', '/api/user')).status).toBe(200);

    const off = await admin.request('PATCH', `/api/admin/users/${tech.id}/status`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body.isActive).toBe(false);

    expect((await session.request('GET', '/api/user')).status).toBe(401);
    expect((await session.request('GET', '/api/dashboard/jobs')).status).toBe(401);
    const again = await client().login('leaver', 'secret12');
    expect(again.status).toBe(403);
    expect(again.body.message).toMatch(/deactivated/);

    const on = await admin.request('PATCH', `/api/admin/users/${tech.id}/status`, { isActive: true });
    expect(on.body.isActive).toBe(true);
    expect((await client().login('leaver', 'secret12')).status).toBe(200);
  });

  it('refuses to let an admin deactivate themselves and 404s unknown users', async () => {
    const admin = await loggedInAdmin();
    const me = await admin.request('GET', '/api/user');
    const self = await admin.request('PATCH', `/api/admin/users/${me.body.id}/status`, { isActive: false });
    expect(self.status).toBe(400);
    const missing = await admin.request(
      'PATCH',
      '/api/admin/users/00000000-0000-4000-8000-000000000000/status',
      { isActive: false },
    );
    expect(missing.status).toBe(404);
    const junk = await admin.request('PATCH', '/api/admin/users/not-a-uuid/status', { isActive: false });
    expect(junk.status).toBe(404);
  });

  it('publishes UserCreated and UserStatusChanged through the outbox', async () => {
    const conn = await connect(await getAmqpUrl());
    const ch = await conn.createChannel();
    const exchange = `${gw.prefix}tyres.events`;
    await ch.assertExchange(exchange, 'topic', { durable: true });
    const { queue } = await ch.assertQueue('', { exclusive: true });
    await ch.bindQueue(queue, exchange, 'user.#');
    const received: Array<{ type: string; data: { username: string; isActive: boolean } }> = [];
    await ch.consume(
      queue,
      (msg) => {
        if (msg) received.push(JSON.parse(msg.content.toString()));
      },
      { noAck: true },
    );

    const admin = await loggedInAdmin();
    const user = await createUser(admin, 'evented');
    await admin.request('PATCH', `/api/admin/users/${user.id}/status`, { isActive: false });
    await waitFor(() => received.filter((e) => e.data.username === 'evented').length >= 2, {
      timeoutMs: 10_000,
    });
    const mine = received.filter((e) => e.data.username === 'evented');
    expect(mine.map((e) => e.type)).toEqual(['user.created.v1', 'user.status-changed.v1']);
    expect(mine[1]?.data.isActive).toBe(false);
    expect(JSON.stringify(mine)).not.toMatch(/secret12|argon2/);
    await conn.close();
  });
});

describe('edge protection and proxying', () => {
  it('proxies public routes with a request id and strips identities the client made up', async () => {
    const res = await client().request('GET', '/api/time-slots?date=2030-01-07', undefined, {
      'x-identity-token': 'forged',
      'x-request-id': 'trace-123',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ upstream: true, identity: null });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    const seen = gw.upstream.seen.at(-1)!;
    expect(seen.headers['x-request-id']).toBe('trace-123');
    expect(seen.headers['x-identity-token']).toBeUndefined();
  });

  it('refuses cross-site state changes and oversized bodies', async () => {
    const admin = await loggedInAdmin();
    const csrf = await admin.request(
      'POST',
      '/api/admin/users',
      { username: 'csrf-user', password: 'secret12' },
      { Origin: 'https://evil.example' },
    );
    expect(csrf.status).toBe(403);
    const sameSite = await admin.request(
      'POST',
      '/api/admin/users',
      { username: 'same-origin', password: 'secret12' },
      { Origin: gw.baseUrl },
    );
    expect(sameSite.status).toBe(201);
    const big = await client().request('POST', '/api/bookings', { notes: 'x'.repeat(1_100_000) });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('Request body is too large');
    // The same cap for a chunked body, which has no Content-Length to check up front.
    const seenBefore = gw.upstream.seen.length;
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: gw.port,
          path: '/api/bookings',
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 2_000_000) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).message).toBe('Request body is too large');
    expect(gw.upstream.seen.length).toBeLessThanOrEqual(seenBefore + 1);
  });

  it('answers 404 JSON for unknown API paths and 502 JSON when a service is down', async () => {
    const unknown = await client().request('GET', '/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('/api/nothing-here');
    const admin = await loggedInAdmin();
    const down = await admin.request('GET', '/api/dashboard/reports/gst');
    expect(down.status).toBe(502);
    expect(down.body).toEqual({
      message: 'The reporting service is unavailable right now. Please try again shortly.',
      code: 'upstream_unavailable',
    });
  });

  it('serves metrics to direct scrapes only, never to requests that came through the ingress', async () => {
    const direct = await fetch(`${gw.baseUrl}/metrics`);
    expect(direct.status).toBe(200);
    expect(await direct.text()).toContain('http_request_duration_seconds');
    const viaIngress = await fetch(`${gw.baseUrl}/metrics`, {
      headers: { 'X-Forwarded-For': '203.0.113.9' },
    });
    expect(viaIngress.status).not.toBe(200);
  });

  it('sends security headers and keeps CORS closed', async () => {
    // /api/user is the gateway's own route (express); /api/time-slots is proxied (the fast path): both the same.
    for (const path of ['/api/user', '/api/time-slots?date=2030-01-07']) {
      const res = await fetch(`${gw.baseUrl}${path}`, { headers: { Origin: 'https://evil.example' } });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('forwards a logged-in user on public routes and refuses dot segments that could confuse routing', async () => {
    const admin = await loggedInAdmin();
    const res = await admin.request('GET', '/api/time-slots?date=2030-01-07');
    expect(res.status).toBe(200);
    expect(gw.upstream.seen.at(-1)!.headers['x-identity-token']).toEqual(expect.any(String));
    const before = gw.upstream.seen.length;
    // fetch normalises dot segments itself; a raw client (curl --path-as-is, a script) does not.
    const rawStatus = (path: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: gw.port, path }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });
    for (const path of [
      '/api/time-slots/../dashboard/reports/gst',
      '/api/time-slots/%2E%2e/dashboard/reports/gst',
    ])
      expect(await rawStatus(path)).toBe(404);
    expect(gw.upstream.seen.length).toBe(before);
  });

  it('upgrades /ws/notifications for staff only, forwarding the verified identity', async () => {
    const anonymous = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/notifications`);
    const refused = await new Promise<number>((resolve) => {
      anonymous.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      anonymous.on('open', () => resolve(101));
    });
    expect(refused).toBe(401);

    const admin = await loggedInAdmin();
    const ws = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/notifications`, {
      headers: { Cookie: admin.cookie! },
    });
    const first = await new Promise<{ type: string; identity: { username: string; role: string } }>(
      (resolve, reject) => {
        ws.once('message', (data) => resolve(JSON.parse(String(data))));
        ws.once('error', reject);
      },
    );
    expect(first).toMatchObject({ type: 'hello', identity: { username: 'boss', role: 'admin' } });
    ws.close();

    const foreign = new WebSocket(`ws://127.0.0.1:${gw.port}/ws/notifications`, {
      headers: { Cookie: admin.cookie!, Origin: 'https://evil.example' },
    });
    const status = await new Promise<number>((resolve) => {
      foreign.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      foreign.on('open', () => resolve(101));
    });
    expect(status).toBe(403);
  });
});

describe('user cache (shared by every gateway replica)', () => {
  it('a database read never overwrites a newer status written after a change', async () => {
    const redis = await createRedisClient();
    try {
      const cache = new UserCache(redis, `test-cache-${process.pid}-${Date.now()}:`);
      const user = {
        id: 'u-1',
        username: 'tech',
        email: null,
        role: 'technician' as const,
        isActive: true,
        createdAt: new Date(0).toISOString(),
      };
      await cache.put({ ...user, isActive: false }); // an admin deactivated the user
      await cache.fill(user); // a request that read the database just before the change
      expect(await cache.get('u-1')).toMatchObject({ isActive: false });
      await cache.put(user); // reactivated
      expect(await cache.get('u-1')).toMatchObject({ isActive: true });
    } finally {
      await redis.quit();
    }
  });
});
