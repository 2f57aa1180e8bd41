import {
  BookingCreated,
  BookingPhotoAdded,
  createInbox,
  CustomerInvoiceDeleted,
  CustomerInvoiceIssued,
  CustomerInvoiceUpdated,
  PaymentSucceeded,
  PurchaseInvoiceDeleted,
  PurchaseInvoiceRecorded,
  PurchaseInvoiceUpdated,
  UserCreated,
  UserStatusChanged,
  type EventEnvelope,
  type EventHandler,
  type TransactionRunner,
} from '@tyres/events';
import { serviceHttp, startService, type Logger, type ServiceRuntime } from '@tyres/service-kit';
import { BookingClient, type ReservationApi } from './http/booking-client';
import type { Config } from './config';
import { createDb, DB_SCHEMA, type Db, type Tx } from './db/client';
import { JobsRepository } from './db/jobs-repository';
import { StaffRepository } from './db/staff-repository';
import { jobHandlers } from './events/handlers';
import { mountRoutes } from './http/routes';
import { JobService } from './http/job-service';
import { createInboxPurger } from './workers/inbox-purge';

export interface JobsRuntime extends ServiceRuntime<Db> {
  service: JobService;
}

/**
 * The jobs service's composition: Postgres (Prisma), the event bus and outbox relay, HTTP. main.ts runs it with the
 * environment's config; the integration tests run it in-process with their own database, prefix and fake booking.
 */
export async function startJobsService(
  config: Config,
  logger: Logger,
  overrides: { booking?: ReservationApi } = {},
): Promise<JobsRuntime> {
  const db = createDb(config.DATABASE_URL, config.DB_POOL_MAX);
  let service: JobService | undefined;
  const runtime = await startService({
    name: 'jobs',
    schema: DB_SCHEMA,
    config,
    logger,
    db,
    subscribe: ({ bus, outbox, relay }) => {
      const inbox = createInbox(db as unknown as TransactionRunner<Tx>, {
        schema: DB_SCHEMA,
        transactionOptions: { timeout: 15_000 },
      });
      const h = jobHandlers({ jobs: new JobsRepository(db), staff: new StaffRepository(db), outbox });
      /** Idempotent (inbox) handler that nudges the relay once its transaction committed. */
      const once = <E extends EventEnvelope>(
        name: string,
        fn: (tx: Tx, event: E) => Promise<void>,
      ): EventHandler<E> => {
        const handler = inbox.handler<E>(`jobs.${name}`, fn);
        return async (event, ctx) => {
          const outcome = await handler(event, ctx);
          relay.wake();
          return outcome;
        };
      };
      // Everything the jobs service reacts to, in one place.
      bus.subscribe(BookingCreated, once('onBookingCreated', h.onBookingCreated));
      bus.subscribe(BookingPhotoAdded, once('onBookingPhotoAdded', h.onBookingPhotoAdded));
      bus.subscribe(PaymentSucceeded, once('onPaymentSucceeded', h.onPaymentSucceeded));
      bus.subscribe(CustomerInvoiceIssued, once('onCustomerInvoiceIssued', h.onCustomerInvoiceIssued));
      bus.subscribe(CustomerInvoiceUpdated, once('onCustomerInvoiceUpdated', h.onCustomerInvoiceUpdated));
      bus.subscribe(CustomerInvoiceDeleted, once('onCustomerInvoiceDeleted', h.onCustomerInvoiceDeleted));
      bus.subscribe(PurchaseInvoiceRecorded, once('onPurchaseInvoiceRecorded', h.onPurchaseInvoiceRecorded));
      bus.subscribe(PurchaseInvoiceUpdated, once('onPurchaseInvoiceUpdated', h.onPurchaseInvoiceUpdated));
      bus.subscribe(PurchaseInvoiceDeleted, once('onPurchaseInvoiceDeleted', h.onPurchaseInvoiceDeleted));
      bus.subscribe(UserCreated, once('onUserCreated', h.onUserCreated));
      bus.subscribe(UserStatusChanged, once('onUserStatusChanged', h.onUserStatusChanged));
    },
    start: async ({ lifecycle }) => {
      const purger = createInboxPurger({ db, logger });
      purger.start();
      lifecycle.onShutdown('inbox purge', () => purger.stop());
    },
    http: ({ readiness, outbox, relay }) => {
      service = new JobService({
        db,
        outbox,
        booking:
          overrides.booking ?? new BookingClient(config.BOOKING_URL, config.BOOKING_TIMEOUT_MS, logger),
        logger,
        wake: () => relay.wake(),
        bookingTimeoutMs: config.BOOKING_TIMEOUT_MS,
      });
      return serviceHttp({
        name: 'jobs',
        logger,
        readiness,
        identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
        routes: mountRoutes(service),
      });
    },
  });
  return { ...runtime, service: service as JobService };
}
