import { identityKeyPair } from '@tyres/testkit';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import pino from 'pino';
import request from 'supertest';
import {
  BookingCreated,
  createEvent,
  createPublisher,
  noopLogger,
  type AnyContract,
  type EventEnvelope,
  type EventInput,
  type Publisher,
  UserCreated,
} from '@tyres/events';
import { addDays, perthToday } from '@tyres/kernel';
import { signIdentity, type Identity, type Logger } from '@tyres/service-kit';
import {
  createRabbitAdmin,
  getAmqpUrl,
  getRedisUrl,
  uniquePrefix,
  waitFor,
  type RabbitAdmin,
  type TestDatabase,
} from '@tyres/testkit';
import { migratedServiceDatabase } from '@tyres/testkit';
import { loadServiceConfig, type Config } from '../../src/config';
import { startJobsService, type JobsRuntime } from '../../src/service';
import { startFakeBooking, type FakeBooking } from './fake-booking';

/** A database migrated with the jobs service's real migrations (scripts/db-migrate.mjs), copied per suite. */
export function createJobsDatabase(label: string): Promise<TestDatabase> {
  return migratedServiceDatabase('jobs', label);
}

export function testLogger(): Logger {
  const level = process.env.TEST_LOG_LEVEL;
  return (level ? pino({ level }) : noopLogger) as Logger;
}

/** The gateway's ES256 key pair, one per suite. */
export const identityKeys = identityKeyPair;

/** A date `days` after today in Perth. */
export function perthDatePlus(days: number): string {
  return addDays(perthToday(), days);
}

let jobCounter = 0;
const SLOT_CYCLE = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'] as const;

/** A distinct future (date, slot) per call, so seeded reservations never collide. */
export function nextFreeSlot(): { scheduledDate: string; timeSlot: (typeof SLOT_CYCLE)[number] } {
  const n = jobCounter++;
  return {
    scheduledDate: perthDatePlus(2 + Math.floor(n / SLOT_CYCLE.length)),
    timeSlot: SLOT_CYCLE[n % SLOT_CYCLE.length] as (typeof SLOT_CYCLE)[number],
  };
}

export function bookingData(
  overrides: Partial<EventInput<typeof BookingCreated>> = {},
): EventInput<typeof BookingCreated> {
  const slot = nextFreeSlot();
  return {
    jobId: randomUUID(),
    jobNumber: `JOB-${Date.now().toString(36).toUpperCase()}-${jobCounter}`,
    customerId: randomUUID(),
    vehicleId: randomUUID(),
    serviceType: 'new-tyres',
    ...slot,
    address: '12 Example Street',
    suburb: 'Rockingham',
    postcode: '6168',
    tyreSize: '205/55R16',
    tyreQuantity: 4,
    tyreBrand: null,
    notes: null,
    customerValue: '675.80',
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    stripePaymentIntentId: null,
    channel: 'online',
    customer: { name: 'Alex Driver', email: 'alex@example.com', phone: '0412345678' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, color: null, registration: '1ABC234' },
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

export interface Harness {
  runtime: JobsRuntime;
  config: Config;
  database: TestDatabase;
  pool: Pool;
  prefix: string;
  booking: FakeBooking;
  publisher: Publisher;
  admin: RabbitAdmin;
  keys: ReturnType<typeof identityKeys>;
  /** Base URL of the running jobs service. */
  url: string;
  http: ReturnType<typeof request>;
  token(identity: Identity): string;
  publish<C extends AnyContract>(contract: C, data: EventInput<C>, id?: string): Promise<EventEnvelope>;
  publishEnvelope(event: EventEnvelope): Promise<void>;
  /** Publishes BookingCreated, seeds the fake booking's reservation like booking would, waits for the job. */
  createJob(
    overrides?: Partial<EventInput<typeof BookingCreated>>,
  ): Promise<EventInput<typeof BookingCreated>>;
  /** Publishes UserCreated for a technician and waits until the directory has them. */
  createTechnician(username?: string, isActive?: boolean): Promise<Identity>;
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  outboxTypes(jobId?: string): Promise<string[]>;
  close(): Promise<void>;
}

export const ADMIN: Identity = { id: randomUUID(), username: 'admin', role: 'admin' };

export async function startHarness(
  label: string,
  configOverrides: Partial<Record<string, string>> = {},
): Promise<Harness> {
  const keys = identityKeys();
  const database = await createJobsDatabase(label);
  const prefix = uniquePrefix(label);
  const booking = await startFakeBooking(keys.publicKey);
  const amqpUrl = await getAmqpUrl();
  const config: Config = {
    ...loadServiceConfig({
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl,
      REDIS_URL: await getRedisUrl(),
      EVENT_PREFIX: prefix,
      REDIS_PREFIX: prefix,
      INTERNAL_JWT_PUBLIC_KEY: keys.publicKey,
      BOOKING_URL: booking.url,
      BOOKING_TIMEOUT_MS: '1500',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      SHUTDOWN_TIMEOUT_MS: '5000',
      ...configOverrides,
    }),
    PORT: 0,
    HOST: '127.0.0.1',
  };
  const runtime = await startJobsService(config, testLogger());
  await runtime.bus.start({ timeoutMs: 15_000 });
  const url = `http://127.0.0.1:${runtime.server.port}`;
  const pool = new Pool({ connectionString: database.url, max: 4 });
  pool.on('error', () => undefined);
  const publisher = createPublisher({ url: amqpUrl, prefix, name: `${label}-test-publisher` });
  const admin = await createRabbitAdmin(amqpUrl);

  const harness: Harness = {
    runtime,
    config,
    database,
    pool,
    prefix,
    booking,
    publisher,
    admin,
    keys,
    url,
    http: request(url),
    token: (identity) => signIdentity(keys.privateKey, identity),
    async publish(contract, data, id) {
      const event = createEvent(contract, data, {
        source: 'test',
        correlationId: `test-${randomUUID()}`,
        ...(id ? { id } : {}),
      });
      await publisher.publish(event);
      return event;
    },
    publishEnvelope: (event) => publisher.publish(event),
    async createJob(overrides = {}) {
      const data = bookingData(overrides);
      booking.reserve(data.jobId, data.scheduledDate, data.timeSlot);
      await harness.publish(BookingCreated, data);
      await waitFor(
        async () => (await harness.sql('SELECT 1 FROM jobs.jobs WHERE id = $1', [data.jobId])).length > 0,
        {
          timeoutMs: 10_000,
          message: `job ${data.jobNumber} from BookingCreated`,
        },
      );
      return data;
    },
    async createTechnician(username = `tech-${randomUUID().slice(0, 8)}`, isActive = true) {
      const identity: Identity = { id: randomUUID(), username, role: 'technician' };
      await harness.publish(UserCreated, {
        userId: identity.id,
        username,
        email: `${username}@example.com`,
        role: 'technician',
        isActive,
        createdAt: new Date().toISOString(),
      });
      await waitFor(
        async () =>
          (await harness.sql('SELECT 1 FROM jobs.staff_directory WHERE user_id = $1', [identity.id])).length >
          0,
        {
          timeoutMs: 10_000,
          message: `technician ${username} in the directory`,
        },
      );
      return identity;
    },
    async sql<R>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as R[];
    },
    async outboxTypes(jobId) {
      const rows = await harness.sql<{ type: string }>(
        `SELECT type FROM jobs.outbox_events ${jobId ? `WHERE payload->'data'->>'jobId' = $1` : ''} ORDER BY created_at, type`,
        jobId ? [jobId] : [],
      );
      return rows.map((r) => r.type);
    },
    async close() {
      await runtime.shutdown('test finished').catch(() => undefined);
      await publisher.close().catch(() => undefined);
      await admin
        .cleanup(prefix, { services: ['jobs'], retryDelaysMs: runtime.bus.retryPolicy.delaysMs })
        .catch(() => undefined);
      await admin.close().catch(() => undefined);
      await booking.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await database.drop().catch(() => undefined);
    },
  };
  return harness;
}
