import { identityKeyPair } from '@tyres/testkit';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import request from 'supertest';
import {
  BookingCreated,
  createEvent,
  createPublisher,
  type AnyContract,
  type EventInput,
  type Publisher,
} from '@tyres/events';
import { signIdentity, type Identity } from '@tyres/service-kit';
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
import { startBilling, type BillingOverrides, type BillingService } from '../../src/service';

/** The gateway's ES256 key pair, one per suite. */
export const keyPair = identityKeyPair;

export interface TestBilling extends BillingService {
  baseUrl: string;
  prefix: string;
  database: TestDatabase;
  config: Config;
  admin: Identity;
  /** x-identity-token for an identity (signed like the gateway does). */
  token(identity: Identity): string;
  /** supertest agent on the service. */
  http(): ReturnType<typeof request>;
  publisher: Publisher;
  publish<C extends AnyContract>(contract: C, data: EventInput<C>, meta?: { id?: string }): Promise<string>;
  rabbit: RabbitAdmin;
  sql<T = Record<string, unknown>>(query: string, ...values: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

export async function startTestBilling(
  label: string,
  env: Record<string, string> = {},
  overrides: BillingOverrides = {},
): Promise<TestBilling> {
  const database = await migratedServiceDatabase('billing', label);
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
      BUSINESS_NAME: 'Perth Mobile Tyres Test',
      BUSINESS_ABN: '12 345 678 901',
      BUSINESS_PHONE: '08 9000 0000',
      BUSINESS_EMAIL: 'accounts@tyres.test',
      JOB_WAIT_MS: '15000',
      ...env,
    }),
    PORT: 0,
    HOST: '127.0.0.1',
  };
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const service = await startBilling(config, logger, overrides);
  const baseUrl = `http://127.0.0.1:${service.runtime.server.port}`;
  const publisher = createPublisher({ url: amqpUrl, prefix, name: `${label}-test-publisher` });
  const rabbit = await createRabbitAdmin(amqpUrl);
  // Wait until billing consumes, so events published by a test are not published before the queue exists.
  await waitFor(() => service.runtime.bus.isReady(), {
    timeoutMs: 15_000,
    message: 'billing consumer ready',
  });
  const admin: Identity = { id: randomUUID(), username: 'admin', role: 'admin' };
  return {
    ...service,
    baseUrl,
    prefix,
    database,
    config,
    admin,
    token: (identity) => signIdentity(keys.privateKey, identity),
    http: () => request(baseUrl),
    publisher,
    async publish(contract, data, meta = {}) {
      const event = createEvent(contract, data, {
        source: 'test',
        correlationId: randomUUID(),
        ...(meta.id ? { id: meta.id } : {}),
      });
      await publisher.publish(event);
      return event.id;
    },
    rabbit,
    sql: <T>(query: string, ...values: unknown[]) => service.ctx.db.$queryRawUnsafe<T[]>(query, ...values),
    async stop() {
      await service.runtime.shutdown('test done');
      await publisher.close();
      await rabbit.cleanup(prefix, {
        services: ['billing', 'probe'],
        retryDelaysMs: service.runtime.bus.retryPolicy.delaysMs,
      });
      await rabbit.close();
      await deleteRedisKeysByPrefix(prefix).catch(() => undefined);
      await database.drop();
    },
  };
}

export const technician = (): Identity => ({
  id: randomUUID(),
  username: `tech-${randomUUID().slice(0, 6)}`,
  role: 'technician',
});

let jobCounter = 1000;

/** A BookingCreated payload (a job billing can invoice). */
export function bookingCreated(
  over: Partial<EventInput<typeof BookingCreated>> = {},
): EventInput<typeof BookingCreated> {
  jobCounter += 1;
  return {
    jobId: randomUUID(),
    jobNumber: `JOB-${jobCounter}`,
    customerId: randomUUID(),
    vehicleId: randomUUID(),
    serviceType: 'new-tyres',
    scheduledDate: '2026-11-24',
    timeSlot: '10-12 AM',
    address: '12 Hay Street',
    suburb: 'Subiaco',
    postcode: '6008',
    tyreSize: '205/55R16',
    tyreQuantity: 4,
    tyreBrand: 'Michelin',
    notes: null,
    customerValue: '805.80',
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    channel: 'online',
    customer: { name: 'Jane Citizen', email: 'jane@example.com', phone: '0412345678' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, color: 'White', registration: '1ABC234' },
    createdAt: new Date().toISOString(),
    ...over,
  };
}

/** Publishes BookingCreated and waits until billing's projection has the job. */
export async function seedJob(svc: TestBilling, over: Partial<EventInput<typeof BookingCreated>> = {}) {
  const data = bookingCreated(over);
  await svc.publish(BookingCreated, data);
  await waitFor(() => svc.ctx.db.jobSnapshot.findUnique({ where: { jobId: data.jobId } }), {
    timeoutMs: 10_000,
    message: 'job snapshot',
  });
  return data;
}

/** Outbox rows (type + payload data) in insertion order, optionally of one type. */
export async function outbox(svc: TestBilling, type?: string) {
  const rows = await svc.ctx.db.outboxEvent.findMany({
    where: type ? { type } : {},
    orderBy: { createdAt: 'asc' },
  });
  return rows.map(
    (r) =>
      r.payload as {
        id: string;
        type: string;
        correlationId: string;
        causationId?: string;
        data: Record<string, unknown>;
      },
  );
}

export { pdfText } from '../pdf-text';

/** A tiny fake of booking's internal booking-token endpoint. */
export async function fakeBooking(bookings: Map<string, object>) {
  const calls: { url: string; headers: http.IncomingHttpHeaders }[] = [];
  /** The card surcharge rate in force the fake's price list answers (null: booking is failing, 500). */
  const rate = { value: '1.70' as string | null };
  const server = http.createServer((req, res) => {
    calls.push({ url: req.url ?? '', headers: req.headers });
    if (req.url === '/internal/card-surcharge-rate') {
      res.setHeader('content-type', 'application/json');
      if (rate.value === null) {
        res.statusCode = 500;
        res.end(JSON.stringify({ message: 'down' }));
      } else res.end(JSON.stringify({ cardSurchargeRate: rate.value }));
      return;
    }
    const m = /^\/internal\/booking-token\/([^/?]+)$/.exec(req.url ?? '');
    const booking = m ? bookings.get(decodeURIComponent(m[1] as string)) : undefined;
    res.setHeader('content-type', 'application/json');
    if (!booking) {
      res.statusCode = 404;
      res.end(JSON.stringify({ message: 'Booking not found' }));
      return;
    }
    res.end(JSON.stringify(booking));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    rate,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The decoded parts of a MIME message (enough for the invoice email: text, html, one PDF attachment). */
export function mimeParts(raw: string): { headers: string; body: string }[] {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((b) => b[1] as string);
  const parts: { headers: string; body: string }[] = [];
  for (const boundary of boundaries) {
    for (const chunk of raw.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) continue;
      const split = chunk.search(/\r?\n\r?\n/);
      if (split < 0) continue;
      parts.push({ headers: chunk.slice(0, split), body: chunk.slice(split).trim() });
    }
  }
  return parts;
}

export function pdfAttachment(raw: string): { filename: string; content: Buffer } | undefined {
  const part = mimeParts(raw).find((p) => /application\/pdf/i.test(p.headers));
  if (!part) return undefined;
  const filename = /filename="?([^";\r\n]+)"?/i.exec(part.headers)?.[1] ?? '';
  return { filename, content: Buffer.from(part.body.replace(/\s+/g, ''), 'base64') };
}
