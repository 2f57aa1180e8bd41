import pino from 'pino';
import {
  createRabbitAdmin,
  deleteRedisKeysByPrefix,
  getAmqpUrl,
  getRedisUrl,
  startTcpProxy,
  uniquePrefix,
  waitForExpect,
  type TcpProxy,
  type TestDatabase,
} from '@tyres/testkit';
import { loadGatewayConfig } from '../../src/config';
import { startGateway } from '../../src/service';
import { Client, fakeUpstream, keyPair, migratedGatewayDatabase } from './harness';

jest.setTimeout(90_000);

// Postgres restarting under the gateway, played by a proxy in front of it that this suite cuts.
let proxy: TcpProxy;
let db: TestDatabase;
let prefix: string;
let baseUrl: string;
let stop: () => Promise<void>;
const password = 'correct-horse-battery';

beforeAll(async () => {
  db = await migratedGatewayDatabase('database-outage');
  proxy = await startTcpProxy(db.url);
  prefix = uniquePrefix('database-outage');
  const keys = keyPair();
  const upstream = await fakeUpstream(keys.publicKey);
  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: proxy.rewrite(db.url),
    AMQP_URL: await getAmqpUrl(),
    REDIS_URL: await getRedisUrl(),
    EVENT_PREFIX: prefix,
    REDIS_PREFIX: prefix,
    SESSION_SECRET: 'x'.repeat(48),
    INTERNAL_JWT_PRIVATE_KEY: keys.privateKey,
    ADMIN_USERNAME: 'Boss',
    ADMIN_PASSWORD: password,
    BOOKING_URL: upstream.url,
    JOBS_URL: upstream.url,
    BILLING_URL: upstream.url,
    REPORTING_URL: upstream.url,
    NOTIFY_URL: upstream.url,
    LOG_LEVEL: 'silent',
  });
  const runtime = await startGateway(config, pino({ level: 'silent' }));
  baseUrl = `http://127.0.0.1:${runtime.server.port}`;
  stop = async () => {
    await runtime.shutdown('test done');
    await upstream.close();
  };
});
afterAll(async () => {
  await proxy?.resume();
  await stop?.();
  await proxy?.close();
  await deleteRedisKeysByPrefix(prefix);
  const admin = await createRabbitAdmin();
  await admin.cleanup(prefix).catch(() => undefined);
  await admin.close();
  await db?.drop();
});

describe('with Postgres unreachable (a restart)', () => {
  it('answers 503 with Retry-After where it needs the database, never 500, and recovers by itself', async () => {
    const staff = new Client(baseUrl);
    expect((await staff.login('boss', password)).status).toBe(200);
    expect((await staff.request('GET', '/api/user')).status).toBe(200);

    await proxy.pause();
    try {
      const answers = [
        await new Client(baseUrl).login('boss', password),
        await staff.request('GET', '/api/user'),
        await staff.request('GET', '/api/admin/users'),
        await staff.request('GET', '/api/dashboard/jobs'),
        await new Client(baseUrl).request('GET', '/api/time-slots'),
      ];
      for (const res of answers) {
        expect([200, 503]).toContain(res.status);
        if (res.status === 503) expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      // Signing in needs the user row: a clear "try again", not a session that cannot be used.
      expect(answers[0]?.status).toBe(503);
      // Public traffic never waits on the gateway's database.
      expect(answers[4]?.status).toBe(200);
      // Logging out cannot be recorded durably: 503, and the session is not reported as ended.
      const out = await staff.request('POST', '/api/logout');
      expect(out.status).toBe(503);
    } finally {
      await proxy.resume();
    }
    await waitForExpect(
      async () => expect((await new Client(baseUrl).login('boss', password)).status).toBe(200),
      { timeoutMs: 20_000 },
    );
    expect((await staff.request('POST', '/api/logout')).status).toBe(200);
    expect((await staff.request('GET', '/api/user')).status).toBe(401);
  });
});
