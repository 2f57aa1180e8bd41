/**
 * The booking service's composition, in plain order: database → runtime → repositories and caches → use cases →
 * subscriptions → listen (with the hold sweeper and the slot change listener). main.ts runs it; the integration
 * tests start it in-process on port 0.
 */
import { createInbox, type TransactionRunner } from '@tyres/events';
import { createServiceRuntime, serviceHttp, type Logger, type ServiceRuntime } from '@tyres/service-kit';
import { GooglePlacesProvider } from './addresses/google-places';
import { FallbackAddressProvider, OfflineAddressProvider, type AddressProvider } from './addresses/provider';
import { BookingWindow } from './app/booking-window';
import { BookingUseCases } from './app/bookings';
import { ManageBooking, ManageLinks } from './app/manage';
import { Photos } from './app/photos';
import { Pricing } from './app/pricing';
import { Reservations } from './app/reservations';
import { SlotAdmin } from './app/slot-admin';
import { SlotLists } from './app/slot-lists';
import { publicSiteUrl, type Config } from './config';
import { createDatabase, DB_SCHEMA, type Database, type Db, type Tx } from './db/client';
import { PhotoChunks } from './db/photo-chunks';
import { SlotCache } from './db/slot-cache';
import { readSlots } from './db/slots';
import { Suburbs } from './db/suburbs';
import { bookingHandlers } from './events/handlers';
import { subscribeBooking } from './events/subscriptions';
import { bookingRoutes } from './http/routes';
import { createHoldSweeper, type HoldSweeper } from './workers/hold-sweeper';

export interface BookingOptions {
  /** The business clock ("today", time passed, hold expiry, photo window). Tests move it. */
  clock?: () => Date;
  /** Replaces the configured address provider (tests). */
  addresses?: AddressProvider;
}

/** What the runtime runs on: the driver path to the pool, closed with the Prisma client that owns it. */
type RuntimeDb = Database['sql'] & { $disconnect(): Promise<void> };

export interface BookingService {
  runtime: ServiceRuntime<RuntimeDb>;
  db: Db;
  slotCache: SlotCache;
  bookings: BookingUseCases;
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
  // The runtime (readiness, outbox relay, maintenance) runs on the driver; closing it closes the shared pool.
  const runtime = createServiceRuntime<RuntimeDb>({
    name: 'booking',
    schema: DB_SCHEMA,
    config,
    logger,
    db: { ...sql, $disconnect: () => database.$disconnect() },
  });
  const { outbox, wake } = runtime;

  // Repositories and caches.
  const slotCache = new SlotCache({ load: (date) => readSlots(sql, date, database.prepared) });
  const onSlotsChanged = (date: string) => slotCache.invalidate(date);
  // Uploads write their chunks on at most half the pool: bookings and slot lists keep the rest.
  const photoChunks = new PhotoChunks(sql, Math.floor(config.DATABASE_POOL_SIZE / 2));
  const suburbs = new Suburbs(db);

  // Use cases.
  const bookingWindow = new BookingWindow({ clock, horizonDays: config.BOOKING_HORIZON_DAYS });
  const bookings = new BookingUseCases({
    db,
    sql,
    lockedTransaction: database.lockedTransaction,
    outbox,
    wake,
    clock,
    logger,
    window: bookingWindow,
    holdMinutes: config.BOOKING_HOLD_MINUTES,
    maxOpenHoldsPerClient: config.MAX_OPEN_HOLDS_PER_CLIENT,
    staffAlertEmail: config.STAFF_ALERT_EMAIL,
    onSlotsChanged,
    manageLinks: new ManageLinks({ siteUrl: publicSiteUrl(config) }),
  });
  const reservations = new Reservations({ sql, outbox, wake, clock, window: bookingWindow, onSlotsChanged });
  const slotLists = new SlotLists({ slotCache, clock, window: bookingWindow });
  const pricing = new Pricing({ sql });
  const slotAdmin = new SlotAdmin({ db, outbox, wake, clock, onSlotsChanged });
  const photos = new Photos({ db, outbox, wake, clock, windowMinutes: config.PHOTO_UPLOAD_WINDOW_MINUTES });
  if (config.NODE_ENV === 'production' && !config.PUBLIC_SITE_URL && !config.SITE_URL)
    logger.warn(
      { manageLinks: publicSiteUrl(config) },
      'PUBLIC_SITE_URL is not set: the manage-my-booking links customers receive point at the local default',
    );
  const manage = new ManageBooking({
    sql,
    outbox,
    wake,
    clock,
    window: bookingWindow,
    photos,
    onSlotsChanged,
  });
  const sweeper = createHoldSweeper({
    sql,
    photoChunks,
    outbox,
    wake,
    clock,
    logger,
    intervalMs: config.HOLD_SWEEP_INTERVAL_MS,
  });

  // What booking consumes.
  const inbox = createInbox(db as unknown as TransactionRunner<Tx>, {
    schema: DB_SCHEMA,
    transactionOptions: { maxWait: 10_000, timeout: 15_000 },
  });
  subscribeBooking(runtime.bus, bookingHandlers({ inbox, wake, bookings, reservations, photos }));

  const started = await runtime.listen(
    serviceHttp({
      name: 'booking',
      logger,
      readiness: runtime.readiness,
      identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
      routes: bookingRoutes({
        clock,
        slotLists,
        pricing,
        bookings,
        reservations,
        slotAdmin,
        photos,
        manage,
        photoChunks,
        uploads: {
          maxBodyBytes: config.PHOTO_UPLOAD_MAX_BODY_BYTES,
          drainTimeoutMs: config.PHOTO_UPLOAD_DRAIN_TIMEOUT_MS,
        },
        suburbs,
        addresses: options.addresses ?? addressProviderFor(config, suburbs, logger),
      }),
    }),
    {
      start: async () => {
        sweeper.start();
        runtime.lifecycle.onShutdown('hold sweeper', () => sweeper.stop());
        const listener = database.listen('booking_slots', {
          onNotify: (date) => slotCache.invalidate(date),
          onState: (listening) => slotCache.setEnabled(listening),
          onError: (err) =>
            logger.warn(
              { err: err.message },
              'slot change listener lost its connection; slot lists uncached until it is back',
            ),
        });
        runtime.lifecycle.onShutdown('slot change listener', () => listener.close());
      },
    },
  );
  return {
    runtime: started,
    db,
    slotCache,
    bookings,
    reservations,
    sweeper,
    shutdown: (reason) => started.shutdown(reason),
  };
}
