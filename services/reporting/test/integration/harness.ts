/**
 * A real reporting service (Postgres, RabbitMQ, Redis, its own consumer) on a random port, with its own migrated
 * database and EVENT_PREFIX. Tests drive it the way production does: contract-valid events published to the topic
 * exchange (as billing's/jobs' outbox relays do), then HTTP requests carrying a gateway-signed identity.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import pino from 'pino';
import { createPublisher, type EventEnvelope, type Publisher } from '@tyres/events';
import { signIdentity, type Identity, type ServiceRuntime } from '@tyres/service-kit';
import {
  createRabbitAdmin,
  deleteRedisKeysByPrefix,
  getAmqpUrl,
  getRedisUrl,
  uniquePrefix,
  waitFor,
  type RabbitAdmin,
  type TestDatabase,
} from '@tyres/testkit';
import { migratedServiceDatabase } from '@tyres/testkit';
import { configSchema, type Config } from '../../src/config';
import type { Db } from '../../src/db/client';
import { startReporting } from '../../src/service';

export function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export interface HttpAnswer {
  status: number;
  text: string;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface TestReporting {
  runtime: ServiceRuntime<Db>;
  db: Db;
  baseUrl: string;
  prefix: string;
  database: TestDatabase;
  rabbit: RabbitAdmin;
  publisher: Publisher;
  admin: Identity;
  technician: Identity;
  token(identity: Identity): string;
  /** A gateway-signed identity that expired a minute ago. */
  expiredToken(identity: Identity): string;
  /** GET as the admin (or as `identity`, or with no identity when null). */
  get(pathAndQuery: string, identity?: Identity | null): Promise<HttpAnswer>;
  /** Publishes events (confirmed) and waits until the service has stored `expectStored` more of them (default: all). */
  publish(events: EventEnvelope[], options?: { expectStored?: number }): Promise<void>;
  storedCount(): Promise<number>;
  sql<T = Record<string, unknown>>(query: string, ...values: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** "Today" for every suite: 21 Nov 2026, 11:00 in Perth. */
export const TODAY = '2026-11-21';
export const NOW = new Date('2026-11-21T03:00:00.000Z');

export async function startTestReporting(
  label: string,
  options: { clock?: () => Date } = {},
): Promise<TestReporting> {
  const database = await migratedServiceDatabase('reporting', label);
  const prefix = uniquePrefix(label);
  const keys = keyPair();
  const amqpUrl = await getAmqpUrl();
  const config: Config = {
    ...configSchema.parse({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl,
      REDIS_URL: await getRedisUrl(),
      EVENT_PREFIX: prefix,
      REDIS_PREFIX: prefix,
      INTERNAL_JWT_PUBLIC_KEY: keys.publicKey,
      LOG_LEVEL: 'silent',
    }),
    PORT: 0,
    HOST: '127.0.0.1',
  };
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const runtime = await startReporting(config, logger, { clock: options.clock ?? (() => NOW) });
  const baseUrl = `http://127.0.0.1:${runtime.server.port}`;
  const publisher = createPublisher({ url: amqpUrl, prefix, name: `${label}-test-publisher` });
  const rabbit = await createRabbitAdmin(amqpUrl);
  // Events published before the queue and its bindings exist would be dropped by the exchange.
  await waitFor(() => runtime.bus.isReady(), { timeoutMs: 15_000, message: 'reporting consumer ready' });

  const admin: Identity = { id: randomUUID(), username: 'boss', role: 'admin' };
  const technician: Identity = { id: randomUUID(), username: 'tech', role: 'technician' };
  const token = (identity: Identity) => signIdentity(keys.privateKey, identity);
  const db = runtime.db;
  const storedCount = async () =>
    Number(
      (await db.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM "reporting"."events"'))[0]?.n ??
        0,
    );

  return {
    runtime,
    db,
    baseUrl,
    prefix,
    database,
    rabbit,
    publisher,
    admin,
    technician,
    token,
    expiredToken: (identity) => signIdentity(keys.privateKey, identity, -60),
    async get(pathAndQuery, identity) {
      const who = identity === undefined ? admin : identity;
      const res = await fetch(baseUrl + pathAndQuery, {
        headers: who ? { 'x-identity-token': token(who) } : {},
      });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return { status: res.status, text, headers: res.headers, body };
    },
    async publish(events, opts = {}) {
      const before = await storedCount();
      for (const event of events) await publisher.publish(event);
      const expected = before + (opts.expectStored ?? events.length);
      await waitFor(async () => (await storedCount()) >= expected, {
        timeoutMs: 20_000,
        message: `${expected} events stored`,
      });
      await summariesFresh(db);
    },
    storedCount,
    sql: <T>(query: string, ...values: unknown[]) => db.$queryRawUnsafe<T[]>(query, ...values),
    async stop() {
      await runtime.shutdown('test done');
      await publisher.close();
      await rabbit.cleanup(prefix, {
        services: ['reporting'],
        retryDelaysMs: runtime.bus.retryPolicy.delaysMs,
      });
      await rabbit.close();
      await deleteRedisKeysByPrefix(prefix).catch(() => undefined);
      await database.drop();
    },
  };
}

/** Waits until the day refresher has recomputed every day marked dirty so far. */
async function summariesFresh(db: Db): Promise<void> {
  await waitFor(
    async () =>
      Number(
        (await db.$queryRawUnsafe<{ n: bigint }[]>('SELECT count(*) AS n FROM "reporting"."dirty_days"'))[0]
          ?.n,
      ) === 0,
    { timeoutMs: 20_000, message: 'day summaries refreshed' },
  );
}

/** Waits until every message delivered so far has been handled (queue empty, nothing in flight, summaries fresh). */
export async function settled(r: TestReporting): Promise<void> {
  await waitFor(
    async () => (await r.rabbit.messageCount(`${r.prefix}reporting`)) === 0 && r.runtime.bus.inFlight === 0,
    {
      timeoutMs: 20_000,
      message: 'reporting queue drained',
    },
  );
  await summariesFresh(r.db);
}
