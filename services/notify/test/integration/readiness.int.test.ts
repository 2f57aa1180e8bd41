import { startStack, type Stack } from './harness';

/**
 * Readiness = this replica can serve its own requests (its database, not draining). The broker- and Redis-backed
 * parts (live feed, user-message channel, BullMQ workers) are dependencies: with one of them down /readyz stays 200
 * and says "ready (degraded)", and /metrics exports dependency_up 0 for it (issue 15: a broker restart must not
 * pull every notify pod from its Service).
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('notify-readiness');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

interface Readiness {
  status: string;
  checks: Record<string, string>;
}

async function readiness(url: string): Promise<{ status: number; body: Readiness }> {
  const res = await fetch(`${url}/readyz`);
  return { status: res.status, body: (await res.json()) as Readiness };
}

const gauge = async (url: string, dependency: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = new RegExp(`^dependency_up\\{dependency="${dependency}",service="notify"\\} (\\d)`, 'm').exec(
    text,
  );
  return m ? Number(m[1]) : undefined;
};

it('is ready with every dependency up, and reports each of them', async () => {
  const { url } = stack.notify[0]!;
  const { status, body } = await readiness(url);
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
  expect(await gauge(url, 'liveFeed')).toBe(1);
  expect(await gauge(url, 'userMessages')).toBe(1);
  expect(await gauge(url, 'deliveryWorkers')).toBe(1);
});

it('stays ready, degraded, with the live feed and the user-message channel down; the gauges show 0', async () => {
  const { url, service } = stack.notify[0]!;
  await service.liveFeed.close();
  await service.userMessages.close();

  const { status, body } = await readiness(url);
  expect(status).toBe(200);
  expect(body.status).toBe('ready (degraded)');
  expect(body.checks.database).toBe('ok');
  expect(body.checks.liveFeed).toMatch(/live notification feed not consuming/);
  expect(body.checks.userMessages).toMatch(/not subscribed to user messages/);
  expect(await gauge(url, 'liveFeed')).toBe(0);
  expect(await gauge(url, 'userMessages')).toBe(0);
  expect(await gauge(url, 'database')).toBe(1);

  // It still serves its own requests: the delivery log through the gateway.
  const admin = await stack.admin();
  const log = await admin.request('GET', '/api/dashboard/notifications/deliveries');
  expect(log.status).toBe(200);
});
