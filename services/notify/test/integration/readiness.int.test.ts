import { randomUUID } from 'node:crypto';
import { getAmqpUrl, getRedisUrl, startTcpProxy, waitFor, type TcpProxy } from '@tyres/testkit';
import { startNotifyInstance, startStack, type NotifyInstance, type Stack } from './harness';

/**
 * Readiness = this replica can serve its own requests (its database, not draining). The broker- and Redis-backed
 * parts (live feed, user-message channel, BullMQ workers) are dependencies: with RabbitMQ or Redis gone /readyz
 * stays 200 and says "ready (degraded)", /metrics exports dependency_up 0 for them, and once they are back the
 * replica is fully ready again (issue 15: a broker restart must not pull every notify pod from its Service).
 *
 * The replica under test reaches RabbitMQ and Redis through TCP proxies whose outage the test controls.
 */
jest.setTimeout(90_000);

let stack: Stack;
let amqp: TcpProxy;
let redis: TcpProxy;
let replica: NotifyInstance;

beforeAll(async () => {
  stack = await startStack('notify-readiness');
  const [amqpUrl, redisUrl] = [await getAmqpUrl(), await getRedisUrl()];
  amqp = await startTcpProxy(amqpUrl);
  redis = await startTcpProxy(redisUrl);
  replica = await startNotifyInstance(
    { databaseUrl: stack.db.url, prefix: stack.prefix, publicKey: stack.keys.publicKey },
    { AMQP_URL: amqp.rewrite(amqpUrl), REDIS_URL: redis.rewrite(redisUrl) },
  );
}, 120_000);

afterAll(async () => {
  await amqp?.resume();
  await redis?.resume();
  await replica?.stop().catch(() => undefined);
  await amqp?.close();
  await redis?.close();
  await stack?.stop();
});

interface Readiness {
  status: string;
  checks: Record<string, string>;
}

async function readiness(): Promise<{ status: number; body: Readiness }> {
  const res = await fetch(`${replica.url}/readyz`);
  return { status: res.status, body: (await res.json()) as Readiness };
}

async function gauges(): Promise<Record<string, number>> {
  const text = await (await fetch(`${replica.url}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^dependency_up\{dependency="(\w+)",service="notify"\} (\d)/gm))
    out[m[1] as string] = Number(m[2]);
  return out;
}

/** An admin's request straight to the replica (the identity the gateway would sign). */
function asAdmin(path: string) {
  const token = stack.identityToken({ id: randomUUID(), username: 'Boss', role: 'admin' });
  return fetch(`${replica.url}${path}`, { headers: { 'x-identity-token': token } });
}

const waitForStatus = (status: string) =>
  waitFor(async () => (await readiness()).body.status === status, { timeoutMs: 45_000, intervalMs: 200 });

it('is ready with every dependency up, and reports each of them', async () => {
  const { status, body } = await readiness();
  expect(status).toBe(200);
  expect(body.status).toBe('ready');
  expect(body.checks).toEqual({
    database: 'ok',
    redis: 'ok',
    broker: 'ok',
    liveFeed: 'ok',
    userMessages: 'ok',
    deliveryWorkers: 'ok',
  });
  expect(await gauges()).toEqual({
    database: 1,
    redis: 1,
    broker: 1,
    liveFeed: 1,
    userMessages: 1,
    deliveryWorkers: 1,
  });
});

it('RabbitMQ down: stays ready (degraded), the live feed gauge shows 0, the delivery log answers; ready again after', async () => {
  await amqp.pause();
  await waitFor(async () => (await readiness()).body.checks.liveFeed !== 'ok', { timeoutMs: 20_000 });

  const { status, body } = await readiness();
  expect(status).toBe(200);
  expect(body.status).toBe('ready (degraded)');
  expect(body.checks.database).toBe('ok');
  expect(body.checks.liveFeed).toMatch(/live notification feed not consuming/);
  const down = await gauges();
  expect(down.liveFeed).toBe(0);
  expect(down.database).toBe(1);
  expect((await asAdmin('/api/dashboard/notifications/deliveries')).status).toBe(200);

  await amqp.resume();
  await waitForStatus('ready');
  expect((await gauges()).liveFeed).toBe(1);
});

it('Redis down: stays ready (degraded), user messages and workers show 0, nothing answers 500; ready again after', async () => {
  await redis.pause();
  await waitFor(async () => (await readiness()).body.checks.userMessages !== 'ok', { timeoutMs: 20_000 });

  const { status, body } = await readiness();
  expect(status).toBe(200);
  expect(body.status).toBe('ready (degraded)');
  expect(body.checks.database).toBe('ok');
  expect(body.checks.userMessages).toMatch(/not subscribed to user messages/);
  const down = await gauges();
  expect(down.userMessages).toBe(0);
  expect(down.redis).toBe(0);
  expect(down.deliveryWorkers).toBe(0);
  expect(down.database).toBe(1);
  // The delivery log is Postgres: it keeps answering. The queue counts live in Redis: 503 with a reason, not 500.
  expect((await asAdmin('/api/dashboard/notifications/deliveries')).status).toBe(200);
  const counts = await asAdmin('/api/dashboard/notifications');
  expect(counts.status).toBe(503);
  expect(((await counts.json()) as { message: string }).message).toMatch(/Redis/);

  await redis.resume();
  await waitForStatus('ready');
  expect((await asAdmin('/api/dashboard/notifications')).status).toBe(200);
});
