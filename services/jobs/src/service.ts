import { createInbox, pgExecutor, type TransactionRunner } from '@tyres/events';
import { createServiceRuntime, serviceHttp, type Logger, type ServiceRuntime } from '@tyres/service-kit';
import { BookingChangeFacts } from './app/booking-changes';
import { BookingFacts } from './app/bookings';
import { InvoiceFacts } from './app/invoices';
import { JobEditUseCases } from './app/job-edits';
import { JobUseCases } from './app/jobs';
import { LineItemUseCases } from './app/line-items';
import type { ReservationApi } from './app/reservations';
import { SlotChanges } from './app/slot-changes';
import { TechnicianUseCases } from './app/technicians';
import type { Config } from './config';
import { BookingChanges } from './db/booking-changes';
import { createDb, DB_SCHEMA, poolOf, type Db, type Tx } from './db/client';
import { InvoiceRecords } from './db/invoice-records';
import { JobsRepository } from './db/jobs-repository';
import { JobEdits } from './db/job-edits';
import { LineItemsRepository } from './db/line-items-repository';
import { StaffRepository } from './db/staff-repository';
import { jobsHandlers } from './events/handlers';
import { subscribeJobs } from './events/subscriptions';
import { erasureHandlers } from './events/erasure-handlers';
import { BookingClient } from './http/booking-client';
import { jobsRoutes } from './http/routes';

export interface JobsRuntime extends ServiceRuntime<Db> {
  /** The stores, for consistency checks from tests and tools (stored documents, list counts). */
  repositories: { jobs: JobsRepository; staff: StaffRepository };
}

/**
 * The jobs service's composition, in plain order: runtime → repositories → use cases → subscriptions → listen.
 * main.ts runs it with the environment's config; the integration tests run it in-process with their own database,
 * prefix and fake booking.
 */
export async function startJobsService(
  config: Config,
  logger: Logger,
  overrides: { booking?: ReservationApi } = {},
): Promise<JobsRuntime> {
  const db = createDb(config.DATABASE_URL, config.DB_POOL_MAX);
  const runtime = createServiceRuntime({ name: 'jobs', schema: DB_SCHEMA, config, logger, db });
  const { outbox, wake } = runtime;

  const jobsRepo = new JobsRepository(db);
  const staff = new StaffRepository(db);
  const lineItemsRepo = new LineItemsRepository(db);
  const invoiceRecords = new InvoiceRecords();
  const jobEdits = new JobEdits();

  const booking =
    overrides.booking ?? new BookingClient(config.BOOKING_URL, config.BOOKING_TIMEOUT_MS, logger);
  const slots = new SlotChanges({
    db,
    jobs: jobsRepo,
    invoices: invoiceRecords,
    outbox,
    booking,
    logger,
    wake,
    bookingTimeoutMs: config.BOOKING_TIMEOUT_MS,
  });
  const jobs = new JobUseCases({
    db,
    jobs: jobsRepo,
    lineItems: lineItemsRepo,
    staff,
    invoices: invoiceRecords,
    outbox,
    slots,
    logger,
    wake,
  });
  const lineItems = new LineItemUseCases({ db, jobs: jobsRepo, lineItems: lineItemsRepo });
  const technicians = new TechnicianUseCases({ staff });
  const edits = new JobEditUseCases({ db, jobs: jobsRepo, edits: jobEdits, outbox, wake });
  const bookingChanges = new BookingChangeFacts({
    jobs: jobsRepo,
    changes: new BookingChanges(),
    edits: jobEdits,
    outbox,
    logger,
  });
  const bookings = new BookingFacts({ jobs: jobsRepo, invoices: invoiceRecords, changes: bookingChanges });
  const invoices = new InvoiceFacts({ jobs: jobsRepo, invoices: invoiceRecords, outbox });

  const inboxDb = db as unknown as TransactionRunner<Tx>;
  const inboxTransactions = { timeout: 15_000 };
  const inbox = createInbox(inboxDb, { schema: DB_SCHEMA, transactionOptions: inboxTransactions });
  subscribeJobs(
    runtime.bus,
    jobsHandlers({
      inbox,
      db: inboxDb,
      raw: pgExecutor(poolOf(db)),
      transactionOptions: inboxTransactions,
      wake,
      wroteEvents: (tx) => outbox.wroteIn(tx),
      bookings,
      bookingChanges,
      invoices,
      technicians,
    }),
    erasureHandlers({ inbox }),
  );

  const started = await runtime.listen(
    serviceHttp({
      name: 'jobs',
      logger,
      readiness: runtime.readiness,
      identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
      routes: jobsRoutes({ jobs, lineItems, technicians, edits }),
    }),
  );
  return { ...started, repositories: { jobs: jobsRepo, staff } };
}
