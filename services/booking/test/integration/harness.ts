/**
 * A real booking service for integration tests: its own database (a copy of a migrated template, with the seed
 * data), its own EVENT_PREFIX / REDIS_PREFIX, the real runtime (Prisma, RabbitMQ bus and outbox relay, Redis),
 * started in-process on port 0 with a business clock the tests can move.
 */
import { isWaPublicHoliday } from '@tyres/kernel';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { Pool } from 'pg';
import pino from 'pino';
import {
  createEvent,
  createPublisher,
  type AnyContract,
  type EventEnvelope,
  type EventInput,
  type Publisher,
} from '@tyres/events';
import { signIdentity, type StaffRole } from '@tyres/service-kit';
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
import { loadServiceConfig } from '../../src/config';
import { startBooking, type BookingService } from '../../src/service';

/** A fresh copy of the booking schema, migrated with `scripts/db-migrate.mjs deploy booking` (seed data included). */
export function migratedBookingDatabase(label: string): Promise<TestDatabase> {
  return migratedServiceDatabase('booking', label);
}

export class TestClock {
  offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
  /** Makes "now" this instant (the clock keeps running from there). */
  set(at: Date) {
    this.offsetMs = at.getTime() - Date.now();
  }
  reset() {
    this.offsetMs = 0;
  }
}

export interface Http {
  status: number;
  headers: Headers;
  body: Record<string, unknown> & unknown[];
  text: string;
}

export interface BookingUnderTest {
  url: string;
  service: BookingService;
  clock: TestClock;
  prefix: string;
  pg: Pool;
  admin: RabbitAdmin;
  events: EventObserver;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Http>;
  /** An x-identity-token as the gateway would forward it. */
  identity(role: StaffRole, id?: string): Record<string, string>;
  /** Publishes an event on this suite's exchange, as another service would. */
  publish<C extends AnyContract>(contract: C, data: EventInput<C>, id?: string): Promise<EventEnvelope>;
  publishRaw(envelope: unknown, routingKey: string): Promise<void>;
  stop(): Promise<void>;
}

/** Records every event published on the suite's exchange. */
export class EventObserver {
  readonly seen: EventEnvelope[] = [];
  constructor(
    private readonly model: ChannelModel,
    private readonly channel: Channel,
  ) {}

  static async attach(amqpUrl: string, prefix: string, admin: RabbitAdmin): Promise<EventObserver> {
    await waitFor(() => admin.exchangeExists(`${prefix}tyres.events`), {
      timeoutMs: 15_000,
      message: 'events exchange',
    });
    const model = await connect(amqpUrl);
    const channel = await model.createChannel();
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, `${prefix}tyres.events`, '#');
    const observer = new EventObserver(model, channel);
    await channel.consume(
      queue,
      (msg: ConsumeMessage | null) => {
        if (!msg) return;
        try {
          observer.seen.push(JSON.parse(msg.content.toString('utf8')) as EventEnvelope);
        } catch {
          // a deliberately malformed message (dead-letter tests)
        }
      },
      { noAck: true },
    );
    return observer;
  }

  of<T = Record<string, unknown>>(
    type: string,
    match: (data: T) => boolean = () => true,
  ): EventEnvelope<T>[] {
    return this.seen.filter((e) => e.type === type && match(e.data as T)) as EventEnvelope<T>[];
  }

  async waitFor<T = Record<string, unknown>>(
    type: string,
    match: (data: T) => boolean = () => true,
    timeoutMs = 10_000,
  ) {
    return waitFor(() => this.of<T>(type, match)[0], { timeoutMs, message: `event ${type}` });
  }

  async close() {
    await this.channel.close().catch(() => undefined);
    await this.model.close().catch(() => undefined);
  }
}

export async function startTestBooking(
  label: string,
  env: Record<string, string> = {},
): Promise<BookingUnderTest> {
  const database = await migratedBookingDatabase(label);
  const prefix = uniquePrefix(label);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const amqpUrl = await getAmqpUrl();
  const config = loadServiceConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    AMQP_URL: amqpUrl,
    REDIS_URL: await getRedisUrl(),
    EVENT_PREFIX: prefix,
    REDIS_PREFIX: prefix,
    INTERNAL_JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    LOG_LEVEL: 'silent',
    HOLD_SWEEP_INTERVAL_MS: '250',
    STAFF_ALERT_EMAIL: 'office@tyres.example',
    // The suites book in 2031 so that "today" never interferes; the horizon's own suite sets it back to 90 days.
    BOOKING_HORIZON_DAYS: '3660',
    // The roster's pull of the gateway's technicians (app/roster-sync.ts): nothing listens on port 9, so a suite
    // never pulls a running local stack's technicians; it retries quietly. roster-sync.int.test.ts sets its own.
    GATEWAY_URL: 'http://127.0.0.1:9',
    ...env,
  });
  const clock = new TestClock();
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const service = await startBooking(config, logger, { clock: clock.now });
  await waitFor(() => service.runtime.bus.isReady() && service.runtime.publisher.isReady(), {
    timeoutMs: 15_000,
    message: 'broker',
  });
  const admin = await createRabbitAdmin(amqpUrl);
  const events = await EventObserver.attach(amqpUrl, prefix, admin);
  const publisher: Publisher = createPublisher({ url: amqpUrl, prefix, name: `${label}-test-publisher` });
  const pg = new Pool({ connectionString: database.url, max: 3 });
  pg.on('error', () => undefined);
  const url = `http://127.0.0.1:${service.runtime.server.port}`;

  return {
    url,
    service,
    clock,
    prefix,
    pg,
    admin,
    events,
    async request(method, p, body, headers = {}) {
      const res = await fetch(url + p, {
        method,
        headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, body: json as Http['body'], text };
    },
    identity(role, id = randomUUID()) {
      return {
        'x-identity-token': signIdentity(privatePem, { id, username: `${role}-${id.slice(0, 6)}`, role }),
      };
    },
    async publish(contract, data, id) {
      const event = createEvent(contract, data, {
        source: 'test',
        correlationId: randomUUID(),
        ...(id ? { id } : {}),
      });
      await publisher.publish(event);
      return event;
    },
    async publishRaw(envelope, routingKey) {
      await admin.publish(
        `${prefix}tyres.events`,
        routingKey,
        typeof envelope === 'string' ? envelope : JSON.stringify(envelope),
        {
          persistent: true,
          contentType: 'application/json',
        },
      );
    },
    async stop() {
      await events.close();
      await publisher.close();
      await service.shutdown('test done');
      await pg.end();
      await deleteRedisKeysByPrefix(prefix).catch(() => undefined);
      await admin
        .cleanup(prefix, { services: ['booking'], retryDelaysMs: service.runtime.bus.retryPolicy.delaysMs })
        .catch(() => undefined);
      await admin.close();
      await database.drop();
    },
  };
}

/**
 * Monday-to-Friday dates from a Monday far enough ahead that "today" never interferes, WA public holidays skipped
 * (closed unless opened, issue 19).
 */
export function businessDays(start = '2031-01-06'): () => string {
  let d = new Date(`${start}T00:00:00Z`);
  return () => {
    while (d.getUTCDay() === 0 || d.getUTCDay() === 6 || isWaPublicHoliday(d.toISOString().slice(0, 10)))
      d = new Date(d.getTime() + 86_400_000);
    const out = d.toISOString().slice(0, 10);
    d = new Date(d.getTime() + 86_400_000);
    return out;
  };
}

let counter = 0;
/** A valid public booking body; `over` replaces parts. */
export function bookingBody(
  date: string,
  timeSlot: string,
  over: { job?: object; customer?: object; vehicle?: object } = {},
) {
  counter += 1;
  return {
    customer: {
      name: 'Jane Citizen',
      email: `jane.${counter}@example.com`,
      phone: '0412 345 678',
      ...over.customer,
    },
    vehicle: {
      make: 'Toyota',
      model: 'Corolla',
      year: 2018,
      registration: `1ABC${String(counter).padStart(3, '0')}`,
      ...over.vehicle,
    },
    job: {
      serviceType: 'new-tyres',
      scheduledDate: date,
      timeSlot,
      address: '12 Smith St',
      suburb: 'Mandurah',
      postcode: '6210',
      tyreSize: '205/55R16',
      tyreQuantity: 2,
      notes: 'Gate code 1234',
      paymentMethod: 'onsite',
      ...over.job,
    },
  };
}
