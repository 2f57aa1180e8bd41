/**
 * The cross-service integration suites' stack (test/integration): the chosen services run for real, in-process, on
 * one shared exchange (a unique event and Redis prefix), each with its own migrated database, staff identities signed
 * with a key made for the run. Booking, when it runs, has a movable clock (`clock.offsetMs`) and is what jobs and
 * billing call (BOOKING_URL); without it they are pointed at an address nobody listens on.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import pino from 'pino';
import {
  createEvent,
  createPublisher,
  type AnyContract,
  type EventInput,
  type Publisher,
} from '@tyres/events';
import { signIdentity, type StaffRole } from '@tyres/service-kit';
import {
  createRabbitAdmin,
  deleteRedisKeysByPrefix,
  getAmqpUrl,
  getRedisUrl,
  migratedServiceDatabase,
  uniquePrefix,
  waitFor,
  type RabbitAdmin,
  type TestDatabase,
} from '@tyres/testkit';
import { loadServiceConfig as bookingConfig } from '../../services/booking/src/config';
import { startBooking, type BookingService } from '../../services/booking/src/service';
import { loadServiceConfig as jobsConfig } from '../../services/jobs/src/config';
import { startJobsService } from '../../services/jobs/src/service';
import { loadServiceConfig as billingConfig } from '../../services/billing/src/config';
import { startBilling } from '../../services/billing/src/service';
import { loadServiceConfig as reportingConfig } from '../../services/reporting/src/config';
import { startReporting } from '../../services/reporting/src/service';
import { loadServiceConfig as notifyConfig } from '../../services/notify/src/config';
import { startNotify } from '../../services/notify/src/service';

export type ServiceName = 'booking' | 'jobs' | 'billing' | 'reporting' | 'notify';

export interface MultiServiceOptions<S extends ServiceName> {
  /** Names the databases, the prefix and the publisher. */
  label: string;
  /** Started in this order (booking first when present: the others call it). */
  services: readonly S[];
  /** Booking's environment beyond the common one (horizon, hold sweep, …). */
  bookingEnv?: Record<string, string>;
  notifyEnv?: Record<string, string>;
  /** Notify's clock (quiet hours). */
  notifyNow?: () => Date;
  /** The test publisher's connection name (default `${label}-replay`). */
  publisherName?: string;
}

export interface MultiServiceStack<S extends ServiceName> {
  prefix: string;
  amqpUrl: string;
  url: Record<S, string>;
  pg: Record<S, Pool>;
  dbUrl: Record<S, string>;
  /** The booking service (undefined when it is not in `services`). */
  booking: BookingService | undefined;
  /** Booking's clock: the real time plus offsetMs (the other services keep the real time). */
  clock: { offsetMs: number; now: () => Date };
  rabbit: RabbitAdmin;
  /** Headers carrying a signed staff identity (a new id unless one is given). */
  identity(role: StaffRole, id?: string): Record<string, string>;
  /** Publishes an event as another service would (a new envelope); its id. */
  publish<C extends AnyContract>(contract: C, data: EventInput<C>): Promise<string>;
  stop(): Promise<void>;
}

const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

export async function startMultiService<S extends ServiceName>(
  options: MultiServiceOptions<S>,
): Promise<MultiServiceStack<S>> {
  const { label } = options;
  const services: readonly ServiceName[] = options.services;
  const has = (s: ServiceName) => services.includes(s);
  const prefix = uniquePrefix(label);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const amqpUrl = await getAmqpUrl();
  const common = {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    AMQP_URL: amqpUrl,
    REDIS_URL: await getRedisUrl(),
    EVENT_PREFIX: prefix,
    REDIS_PREFIX: prefix,
    INTERNAL_JWT_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    LOG_LEVEL: 'silent',
    SHUTDOWN_TIMEOUT_MS: '5000',
  };
  const dbs = {} as Record<ServiceName, TestDatabase>;
  for (const s of services) dbs[s] = await migratedServiceDatabase(s, `${label}-${s}`);
  const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
  const rabbit = await createRabbitAdmin(amqpUrl);

  type Runtime = {
    bus: { isReady(): boolean };
    server: { port: number };
    shutdown(reason: string): Promise<void>;
  };
  const runtimes = {} as Record<ServiceName, Runtime>;
  let booking: BookingService | undefined;
  // Without booking, nothing may reach it: an address nobody listens on.
  let bookingUrl = 'http://127.0.0.1:9';
  if (has('booking')) {
    booking = await startBooking(
      bookingConfig({ ...common, DATABASE_URL: dbs.booking.url, ...options.bookingEnv }),
      silent,
      { clock: clock.now },
    );
    runtimes.booking = booking.runtime;
    bookingUrl = `http://127.0.0.1:${booking.runtime.server.port}`;
  }
  if (has('jobs'))
    runtimes.jobs = await startJobsService(
      { ...jobsConfig({ ...common, DATABASE_URL: dbs.jobs.url, BOOKING_URL: bookingUrl }), PORT: 0 },
      silent,
    );
  if (has('billing')) {
    const billing = await startBilling(
      {
        ...billingConfig({
          ...common,
          DATABASE_URL: dbs.billing.url,
          BOOKING_URL: bookingUrl,
          BUSINESS_NAME: 'Perth Mobile Tyres Test',
          BUSINESS_ABN: '12 345 678 901',
          BUSINESS_PHONE: '08 9000 0000',
          BUSINESS_EMAIL: 'accounts@tyres.test',
        }),
        PORT: 0,
      },
      silent,
    );
    runtimes.billing = billing.runtime;
  }
  if (has('reporting'))
    runtimes.reporting = await startReporting(
      { ...reportingConfig({ ...common, DATABASE_URL: dbs.reporting.url }), PORT: 0 },
      silent,
    );
  if (has('notify')) {
    const notify = await startNotify(
      notifyConfig({ ...common, DATABASE_URL: dbs.notify.url, ...options.notifyEnv }),
      silent,
      options.notifyNow ? { now: options.notifyNow } : undefined,
    );
    runtimes.notify = notify.runtime;
  }
  for (const s of services)
    await waitFor(() => runtimes[s].bus.isReady(), { timeoutMs: 20_000, message: `${s} consumer` });
  const url = {} as Record<S, string>;
  const pg = {} as Record<S, Pool>;
  const dbUrl = {} as Record<S, string>;
  for (const s of options.services) {
    url[s] = `http://127.0.0.1:${runtimes[s].server.port}`;
    pg[s] = new Pool({ connectionString: dbs[s].url, max: 2 });
    pg[s].on('error', () => undefined);
    dbUrl[s] = dbs[s].url;
  }
  const publisher: Publisher = createPublisher({
    url: amqpUrl,
    prefix,
    name: options.publisherName ?? `${label}-replay`,
  });
  return {
    prefix,
    amqpUrl,
    url,
    pg,
    dbUrl,
    booking,
    clock,
    rabbit,
    identity: (role, id = randomUUID()) => ({
      'x-identity-token': signIdentity(privatePem, { id, username: `${role}-${id.slice(0, 6)}`, role }),
    }),
    async publish(contract, data) {
      const event = createEvent(contract, data, { source: 'test', correlationId: randomUUID() });
      await publisher.publish(event);
      return event.id;
    },
    async stop() {
      await publisher.close().catch(() => undefined);
      for (const s of [...services].reverse()) await runtimes[s].shutdown('test done').catch(() => undefined);
      for (const s of options.services) await pg[s].end().catch(() => undefined);
      await deleteRedisKeysByPrefix(prefix).catch(() => undefined);
      await rabbit.cleanup(prefix, { services: [...services] }).catch(() => undefined);
      await rabbit.close().catch(() => undefined);
      for (const s of services) await dbs[s].drop().catch(() => undefined);
    },
  };
}

/** One HTTP call to a service: status, the JSON answer (undefined when not JSON) and the raw bytes. */
export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const buffer = Buffer.from(await res.arrayBuffer());
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several services, read field by field
  let json: any;
  try {
    json = JSON.parse(buffer.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, buffer };
}
