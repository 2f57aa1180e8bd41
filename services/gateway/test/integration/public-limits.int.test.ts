import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Counter, Registry } from 'prom-client';
import { createRedis } from '@tyres/service-kit';
import { deleteRedisKeysByPrefix, getRedisUrl, uniquePrefix } from '@tyres/testkit';
import { DEFAULT_HOURLY_LIMITS, PublicLimits } from '../../src/http/public-limits';
import { Client, startTestGateway, type GatewayUnderTest } from './harness';

// The public limits of a real gateway, counted in the real Redis under this run's own key prefix. The test
// client stands behind a trusted proxy (127.0.0.1), so X-Forwarded-For names the client.

jest.setTimeout(60_000);

let gw: GatewayUnderTest;

beforeAll(async () => {
  gw = await startTestGateway('gateway-limits', { TRUSTED_PROXIES: '127.0.0.1' });
});
afterAll(async () => {
  await gw?.stop();
});

const book = (client: Client, address: string) =>
  client.request('POST', '/api/bookings', { customer: {} }, { 'X-Forwarded-For': address });

describe('bookings from one client', () => {
  it('are refused past 10 in an hour with 429 and Retry-After; another client is unaffected', async () => {
    const anonymous = new Client(gw.baseUrl);
    const before = gw.upstream.seen.length;
    for (let i = 0; i < DEFAULT_HOURLY_LIMITS.bookings; i++)
      expect((await book(anonymous, '203.0.113.7')).status).toBe(200);

    const eleventh = await book(anonymous, '203.0.113.7');
    expect(eleventh.status).toBe(429);
    const retryAfter = Number(eleventh.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(eleventh.body).toMatchObject({
      message: expect.stringMatching(/^Too many requests\. Please try again in \d+ minutes\.$/),
      code: 'too_many_requests',
    });
    // The refused call never reached booking.
    expect(gw.upstream.seen.length - before).toBe(DEFAULT_HOURLY_LIMITS.bookings);
    expect(gw.upstream.seen.at(-1)!.headers['x-client-address']).toBe('203.0.113.7');

    expect((await book(anonymous, '198.51.100.4')).status).toBe(200);
    expect(gw.upstream.seen.at(-1)!.headers['x-client-address']).toBe('198.51.100.4');
    // Other groups keep their own count for the refused client.
    const quote = await anonymous.request(
      'POST',
      '/api/bookings/quote',
      {},
      { 'X-Forwarded-For': '203.0.113.7' },
    );
    expect(quote.status).toBe(200);

    const redis = new Redis(await getRedisUrl());
    try {
      expect(await redis.exists(`${gw.prefix}gateway:public-limit:bookings:203.0.113.7`)).toBe(1);
    } finally {
      await redis.quit();
    }
  });

  it('are never limited for signed-in staff', async () => {
    const staff = new Client(gw.baseUrl);
    expect((await staff.login('boss', gw.adminPassword)).status).toBe(200);
    for (let i = 0; i < DEFAULT_HOURLY_LIMITS.bookings + 2; i++)
      expect((await book(staff, '192.0.2.50')).status).toBe(200);
  });
});

describe('without Redis', () => {
  it('lets calls through (fails open), with a warning and a metric', async () => {
    // A port nothing listens on: the real Redis is never touched.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const redis = createRedis(`redis://127.0.0.1:${port}`);
    redis.on('error', () => undefined);

    const warnings: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk: Buffer, _enc, done) {
          warnings.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
          done();
        },
      }),
    );
    const registry = new Registry();
    const failedOpen = new Counter({
      name: 'gateway_public_limit_failed_open_total',
      help: 'test',
      labelNames: ['group'] as const,
      registers: [registry],
    });
    const prefix = uniquePrefix('gateway-limits-down');
    const limits = new PublicLimits({
      redis,
      prefix,
      limits: { ...DEFAULT_HOURLY_LIMITS, bookings: 1 },
      logger,
      failedOpen,
    });
    try {
      const started = Date.now();
      for (let i = 0; i < 3; i++) expect(await limits.consume('bookings', '203.0.113.7')).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(warnings.map((w) => w.msg)).toEqual(
        Array(3).fill('public limit not checked (Redis unavailable): call let through'),
      );
      expect((await failedOpen.get()).values).toEqual([
        expect.objectContaining({ labels: { group: 'bookings' }, value: 3 }),
      ]);
    } finally {
      redis.disconnect();
      await deleteRedisKeysByPrefix(prefix);
    }
  });
});
