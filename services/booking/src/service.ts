/**
 * The booking service's composition, in plain order: database → runtime → repositories and caches → use cases →
 * subscriptions → listen (with the hold sweeper and the slot change listener). main.ts runs it; the integration
 * tests start it in-process on port 0.
 */
import type { Express, RequestHandler } from 'express';
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
import { gatewayUrl, publicSiteUrl, type Config } from './config';
import { createDatabase, DB_SCHEMA, type Database, type Db, type Tx } from './db/client';
import { PhotoChunks } from './db/photo-chunks';
import { SlotCache } from './db/slot-cache';
import { readSlots } from './db/slots';
import { Suburbs } from './db/suburbs';
import { bookingHandlers } from './events/handlers';
import { subscribeBooking } from './events/subscriptions';
import { bookingRoutes } from './http/routes';
import { createHoldSweeper, type HoldSweeper } from './workers/hold-sweeper';
import { CustomerErasure } from './app/erasure';
import { retentionHandlers } from './events/retention-handlers';
import { rosterHandlers } from './events/roster-handlers';
import { BusinessCalendar } from './app/calendar';
import { PriceList } from './app/price-list';
import { createPhotoRetentionSweeper, type PhotoRetentionSweeper } from './workers/photo-retention';
import { RosterSync, type GatewayClient } from './app/roster-sync';
import { httpGatewayClient } from './http/gateway-client';
import { createRosterSyncWorker, type RosterSyncWorker } from './workers/roster-sync';

export interface BookingOptions {
  /** The business clock ("today", time passed, hold expiry, photo window). Tests move it. */
  clock?: () => Date;
  /** Replaces the configured address provider (tests). */
  addresses?: AddressProvider;
  /** Runs before every route (main.ts: the end-to-end suites' test clock, src/test-clock.ts). */
  beforeRoutes?: RequestHandler;
  /** Replaces the gateway's HTTP client (the roster pull) (tests). */
  gateway?: GatewayClient;
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
  /** Issue 18 (privacy): deletes photos PHOTO_RETENTION_MONTHS after their job was paid. */
  photoRetention: PhotoRetentionSweeper;
  /** Issue 19 audit: the one-off pull of the gateway's technicians into the roster, retried until it succeeds. */
  rosterSync: RosterSyncWorker;
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

/** The routes, after `before` when there is one. */
function withBeforeRoutes(before: RequestHandler | undefined, routes: (app: Express) => void) {
  return (app: Express) => {
    if (before) app.use(before);
    routes(app);
  };
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
  const pricing = new Pricing({ sql, clock });
  const slotAdmin = new SlotAdmin({ db, outbox, wake, clock, onSlotsChanged });
  const photos = new Photos({ db, outbox, wake, clock, windowMinutes: config.PHOTO_UPLOAD_WINDOW_MINUTES });
  // PUBLIC_SITE_URL is required in production (config.ts refuses to start without it).
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
  subscribeBooking(
    runtime.bus,
    bookingHandlers({ inbox, wake, bookings, reservations, photos }),
    retentionHandlers({ inbox }),
    rosterHandlers({ inbox }),
  );
  // Issue 19: roster, leave, calendar blocks and public holidays; a change may touch any date's slot list.
  const calendar = new BusinessCalendar({ sql, clock, onCalendarChanged: () => slotCache.clear() });
  // Issue 19: the price list (fees and tyre catalogue, versioned by effective-from) that quotes read.
  const priceList = new PriceList({ sql, clock });
  // Issue 18 (privacy): erasure on request, photo retention.
  const erasure = new CustomerErasure({ db, outbox, wake, clock });
  const photoRetention = createPhotoRetentionSweeper({
    db,
    outbox,
    wake,
    clock,
    logger,
    months: config.PHOTO_RETENTION_MONTHS,
    intervalMs: config.PHOTO_RETENTION_SWEEP_INTERVAL_MS,
  });

  // Issue 19 audit: technicians created before the roster, pulled from the gateway once (app/roster-sync.ts).
  const rosterSync = createRosterSyncWorker({
    sync: new RosterSync({
      sql,
      gateway: options.gateway ?? httpGatewayClient(gatewayUrl(config), config.GATEWAY_TIMEOUT_MS),
      clock,
      onRosterChanged: () => slotCache.clear(),
    }),
    logger,
    retryMs: config.ROSTER_SYNC_RETRY_MS,
    retryMaxMs: config.ROSTER_SYNC_RETRY_MAX_MS,
    ready: () => runtime.bus.isReady(),
  });

  const started = await runtime.listen(
    serviceHttp({
      name: 'booking',
      logger,
      readiness: runtime.readiness,
      identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
      routes: withBeforeRoutes(
        options.beforeRoutes,
        bookingRoutes({
          clock,
          slotLists,
          pricing,
          bookings,
          reservations,
          slotAdmin,
          photos,
          manage,
          erasure,
          calendar,
          priceList,
          photoChunks,
          uploads: {
            maxBodyBytes: config.PHOTO_UPLOAD_MAX_BODY_BYTES,
            drainTimeoutMs: config.PHOTO_UPLOAD_DRAIN_TIMEOUT_MS,
          },
          suburbs,
          addresses: options.addresses ?? addressProviderFor(config, suburbs, logger),
        }),
      ),
    }),
    {
      start: async () => {
        sweeper.start();
        runtime.lifecycle.onShutdown('hold sweeper', () => sweeper.stop());
        photoRetention.start();
        runtime.lifecycle.onShutdown('photo retention sweep', () => photoRetention.stop());
        // After listen has started consuming: user events from now on queue for booking while the pull runs.
        rosterSync.start();
        runtime.lifecycle.onShutdown('roster sync', () => rosterSync.stop());
        const listener = database.listen('booking_slots', {
          // '*': a roster, leave or calendar-block change (issue 19) may touch any date.
          onNotify: (date) => (date === '*' ? slotCache.clear() : slotCache.invalidate(date)),
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
    photoRetention,
    rosterSync,
    shutdown: (reason) => started.shutdown(reason),
  };
}
