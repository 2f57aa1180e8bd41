import pg from 'pg';
import {
  createRedisClient,
  getRedisUrl,
  startTcpProxy,
  waitFor,
  waitForExpect,
  type TcpProxy,
} from '@tyres/testkit';
import type { Redis } from 'ioredis';
import { Client, startTestGateway, type GatewayUnderTest } from './harness';

jest.setTimeout(90_000);

// The gateway reaches the shared Redis through a proxy this suite can cut (an outage) without touching Redis
// itself; "Redis restarted empty" is this gateway's keys deleted, which is all such a restart means to it.
let proxy: TcpProxy;
let gw: GatewayUnderTest;
let redis: Redis;
let database: pg.Client;

beforeAll(async () => {
  proxy = await startTcpProxy(await getRedisUrl());
  gw = await startTestGateway('session-durability', {
    REDIS_URL: proxy.rewrite(await getRedisUrl()),
    LOGIN_MAX_FAILURES_PER_USERNAME: '3',
  });
  redis = await createRedisClient();
  database = new pg.Client({ connectionString: gw.databaseUrl });
  await database.connect();
});
afterAll(async () => {
  // Before the gateway's database is dropped.
  await database?.end();
  await proxy?.resume();
  await gw?.stop();
  await proxy?.close();
  await redis?.quit();
});

const client = () => new Client(gw.baseUrl);
const marker = () => `${gw.prefix}gateway:session:revocations-warm`;
const revokedKey = (jti: string) => `${gw.prefix}gateway:session:revoked:${jti}`;
const userKey = (id: string) => `${gw.prefix}gateway:user:${id}`;

async function loggedInAdmin() {
  const c = client();
  const res = await c.login('boss', gw.adminPassword);
  expect(res.status).toBe(200);
  return c;
}

/** Every key this gateway has in Redis, gone: what a Redis restart without persistence does to it. */
async function redisRestartedEmpty() {
  const keys = await redis.keys(`${gw.prefix}*`);
  if (keys.length) await redis.del(...keys);
}

const jtiOf = (cookie: string | undefined) => {
  const token = decodeURIComponent((cookie ?? '').split('=')[1] ?? '');
  return (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }).jti;
};

async function revokedRows(jti: string) {
  const { rows } = await database.query<{ user_id: string; expires_at: Date }>(
    'SELECT user_id, expires_at FROM identity.revoked_sessions WHERE jti = $1',
    [jti],
  );
  return rows;
}

describe('revocations are durable', () => {
  it('a logged-out cookie stays refused after Redis restarts empty, and the cache is rebuilt from Postgres', async () => {
    const c = await loggedInAdmin();
    const copied = c.cookie;
    const jti = jtiOf(copied);
    expect((await c.request('POST', '/api/logout')).status).toBe(200);
    const rows = await revokedRows(jti);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.expires_at.getTime()).toBeGreaterThan(Date.now() + 11 * 3600_000);

    await redisRestartedEmpty();
    const thief = client();
    thief.cookie = copied;
    for (let i = 0; i < 3; i++) expect((await thief.request('GET', '/api/user')).status).toBe(401);
    // The first check that found no warm marker rebuilt the cache: the revocation is back in Redis.
    await waitFor(async () => (await redis.exists(marker(), revokedKey(jti))) === 2, {
      message: 'revocation cache warmed',
    });
    expect((await thief.request('GET', '/api/user')).status).toBe(401);
    // A session that was never revoked keeps working throughout.
    const other = await loggedInAdmin();
    await redisRestartedEmpty();
    expect((await other.request('GET', '/api/user')).status).toBe(200);
  });
});

describe('with Redis unreachable', () => {
  it('staff keep working from Postgres, logins give usable sessions, and nothing answers 500', async () => {
    const before = await loggedInAdmin();
    const tech = client();
    const created = await before.request('POST', '/api/admin/users', {
      username: 'outage-tech',
      password: 'secret12',
      role: 'technician',
    });
    expect(created.status).toBe(201);
    const techId = (created.body as unknown as { id: string }).id;
    expect((await tech.login('outage-tech', 'secret12')).status).toBe(200);
    expect((await tech.request('GET', '/api/user')).status).toBe(200);
    await waitFor(async () => (await redis.exists(marker())) === 1, {
      message: 'cache warm before the outage',
    });

    await proxy.pause();
    try {
      const ready = await fetch(`${gw.baseUrl}/readyz`);
      expect(ready.status).toBe(200);

      // A session from before the outage, and a new one made during it, both work.
      expect((await before.request('GET', '/api/user')).status).toBe(200);
      expect((await before.request('GET', '/api/admin/users')).status).toBe(200);
      const during = await loggedInAdmin();
      expect((await during.request('GET', '/api/user')).status).toBe(200);

      // Logout is recorded (Postgres) and takes effect at once.
      const loggedOut = await loggedInAdmin();
      const copied = loggedOut.cookie;
      expect((await loggedOut.request('POST', '/api/logout')).status).toBe(200);
      const thief = client();
      thief.cookie = copied;
      expect((await thief.request('GET', '/api/user')).status).toBe(401);

      // Deactivation takes effect at once too.
      const off = await during.request('PATCH', `/api/admin/users/${techId}/status`, { isActive: false });
      expect(off.status).toBe(200);
      expect((await tech.request('GET', '/api/user')).status).toBe(401);

      // Guessing stays limited (the in-memory stand-in limiter), answered 401 then 429, never 500.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await client().login('boss', 'wrong-password')).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);

      // Redis comes back with its data (it was unreachable, not restarted): the writes it missed are replayed,
      // so the logged-out cookie and the deactivated user stay refused.
      await proxy.resume();
      await waitForExpect(
        async () => {
          expect(await redis.exists(revokedKey(jtiOf(copied)))).toBe(1);
          expect(JSON.parse((await redis.get(userKey(techId))) ?? '{}')).toMatchObject({ isActive: false });
        },
        { timeoutMs: 20_000, message: 'missed writes replayed' },
      );
      expect((await thief.request('GET', '/api/user')).status).toBe(401);
      expect((await tech.request('GET', '/api/user')).status).toBe(401);
      expect((await during.request('GET', '/api/user')).status).toBe(200);
    } finally {
      await proxy.resume();
    }
  });
});
