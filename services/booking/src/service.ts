/**
 * Composition of the booking service: config -> db -> runtime (bus, outbox relay, redis, readiness) -> repositories
 * -> subscriptions -> HTTP -> hold sweeper. main.ts runs it; integration tests start it in-process on port 0.
 */
import { JobAssigned, JobDeleted, JobRescheduled, JobStatusChanged, PaymentSucceeded } from '@tyres/events';
import { serviceHttp, startService, type Logger, type ServiceRuntime } from '@tyres/service-kit';
import { GooglePlacesProvider } from './addresses/google-places';
import { FallbackAddressProvider, OfflineAddressProvider, type AddressProvider } from './addresses/provider';
import type { Config } from './config';
import { Bookings } from './db/bookings';
import { createDatabase, DB_SCHEMA, type Database, type Db } from './db/client';
import { PhotoChunks } from './db/photo-chunks';
import { Photos } from './db/photos';
import { Reservations } from './db/reservations';
import { SlotCache } from './db/slot-cache';
import { readSlots } from './db/slots';
import { SlotAdmin } from './db/slot-admin';
import { Suburbs } from './db/suburbs';
import { bookingHandlers } from './events/handlers';
import { bookingRoutes } from './http/routes';
import { createHoldSweeper, type HoldSweeper } from './workers/hold-sweeper';

export interface BookingOptions {
  /** The business clock ("today", time passed, hold expiry, photo window). Tests move it. */
  clock?: () => Date;
  /** Replaces the configured address provider (tests). */
  addresses?: AddressProvider;
}

export interface BookingService {
  runtime: ServiceRuntime<Database['sql'] & { $disconnect(): Promise<void> }>;
  db: Db;
  slotCache: SlotCache;
  bookings: Bookings;
  reservations: Reservations;
  sweeper: HoldSweeper;
  shutdown(reason?: string): Promise<void>;
}

export function addressProviderFor(config: Config, suburbs: Suburbs, logger: Logger): AddressProvider {
  const offline = new OfflineAddressProvider(() => suburbs.served());
  if (!config.GOOGLE_PLACES_API_KEY) return offline;
  const google = new GooglePlacesProvider({
    apiKey: config.GOOGLE_PLACES_API_KEY,
    timeoutMs: config.GOOGLE_PLACES_TIMEOUT_MS,
    gazetteer: () => suburbs.served(),
  });
  return new FallbackAddressProvider(google, offline, logger);
}

export async function startBooking(
  config: Config,
  logger: Logger,
  options: BookingOptions = {},
): Promise<BookingService> {
  const clock = options.clock ?? (() => new Date());
  const database = await createDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
  const { prisma: db, sql } = database;
  const slotCache = new SlotCache({ load: (date) => readSlots(sql, date, database.prepared) });
  const onSlotsChanged = (date: string) => slotCache.invalidate(date);
  // Uploads write their chunks on at most half the pool: bookings and slot lists keep the rest.
  const photoChunks = new PhotoChunks(sql, Math.floor(config.DATABASE_POOL_SIZE / 2));
  let parts!: { bookings: Bookings; reservations: Reservations; sweeper: HoldSweeper };

  const runtime = await startService({
    name: 'booking',
    schema: DB_SCHEMA,
    config,
    logger,
    // The runtime (readiness, outbox relay) runs on the driver; closing it closes the shared pool.
    db: { ...sql, $disconnect: () => database.$disconnect() },
    // subscribe runs before http: it builds the repositories both the handlers and the routes use.
    subscribe: ({ bus, outbox, relay }) => {
      const wake = () => relay.wake();
      const bookings = new Bookings({
        db,
        sql,
        lockedTransaction: database.lockedTransaction,
        outbox,
        wake,
        clock,
        logger,
        holdMinutes: config.BOOKING_HOLD_MINUTES,
        staffAlertEmail: config.STAFF_ALERT_EMAIL,
        onSlotsChanged,
      });
      const handlers = bookingHandlers({ db, outbox, wake, clock, bookings });
      bus.subscribe(PaymentSucceeded, handlers.onPaymentSucceeded);
      bus.subscribe(JobDeleted, handlers.onJobDeleted);
      bus.subscribe(JobStatusChanged, handlers.onJobStatusChanged);
      bus.subscribe(JobRescheduled, handlers.onJobRescheduled);
      bus.subscribe(JobAssigned, handlers.onJobAssigned);
      parts = {
        bookings,
        reservations: new Reservations({ sql, outbox, wake, clock, onSlotsChanged }),
        sweeper: createHoldSweeper({
          sql,
          photoChunks,
          outbox,
          wake,
          clock,
          logger,
          intervalMs: config.HOLD_SWEEP_INTERVAL_MS,
        }),
      };
    },
    http: ({ outbox, relay, readiness }) => {
      const wake = () => relay.wake();
      const suburbs = new Suburbs(db);
      return serviceHttp({
        name: 'booking',
        logger,
        readiness,
        identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
        routes: bookingRoutes({
          sql,
          slotCache,
          clock,
          bookings: parts.bookings,
          reservations: parts.reservations,
          slotAdmin: new SlotAdmin({ db, outbox, wake, clock, onSlotsChanged }),
          photos: new Photos({ db, outbox, wake, clock, windowMinutes: config.PHOTO_UPLOAD_WINDOW_MINUTES }),
          photoChunks,
          uploads: {
            maxBodyBytes: config.PHOTO_UPLOAD_MAX_BODY_BYTES,
            drainTimeoutMs: config.PHOTO_UPLOAD_DRAIN_TIMEOUT_MS,
          },
          horizonDays: config.BOOKING_HORIZON_DAYS,
          suburbs,
          addresses: options.addresses ?? addressProviderFor(config, suburbs, logger),
        }),
      });
    },
    start: async ({ lifecycle }) => {
      parts.sweeper.start();
      lifecycle.onShutdown('hold sweeper', () => parts.sweeper.stop());
      const listener = database.listen('booking_slots', {
        onNotify: (date) => slotCache.invalidate(date),
        onState: (listening) => slotCache.setEnabled(listening),
        onError: (err) =>
          logger.warn(
            { err: err.message },
            'slot change listener lost its connection; slot lists uncached until it is back',
          ),
      });
      lifecycle.onShutdown('slot change listener', () => listener.close());
    },
  });
  return { runtime, db, slotCache, ...parts, shutdown: (reason) => runtime.shutdown(reason) };
}
