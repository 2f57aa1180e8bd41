import { startService, type RuntimeParts, type ServiceRuntime } from '@tyres/service-kit';
import type { Logger } from 'pino';
import { paymentsMode, type Config } from './config';
import type { BillingContext } from './context';
import { createDb, DB_SCHEMA, type Db } from './db/client';
import { CustomerInvoiceRepository } from './db/customer-invoices';
import { EmailDeliveryRepository } from './db/email-deliveries';
import { ExpenseRepository } from './db/expenses';
import { PaymentRepository } from './db/payments';
import { PdfStore } from './db/pdfs';
import { PurchaseInvoiceRepository } from './db/purchase-invoices';
import { createMailer } from './workers/mailer';
import { eventWriter } from './events/emit';
import { subscribeBilling } from './events/handlers';
import { billingHttp } from './http/routes';
import { httpBookingClient, type BookingClient } from './http/booking-client';
import { stripeClient, stripeProvider, testModeProvider } from './http/stripe-client';
import { startWorkers } from './workers';
import { createQueues } from './workers/queues';

export interface BillingService {
  runtime: ServiceRuntime<Db>;
  ctx: BillingContext;
}

export interface BillingOverrides {
  clock?: () => Date;
  booking?: BookingClient;
}

/**
 * The composition root shared by main.ts and the integration tests: config → db → queues → context → bus
 * subscriptions → HTTP → workers; everything closes in order on shutdown.
 */
export async function startBilling(
  config: Config,
  logger: Logger,
  overrides: BillingOverrides = {},
): Promise<BillingService> {
  const db = createDb(config.DATABASE_URL);
  const clock = overrides.clock ?? (() => new Date());
  const mode = paymentsMode(config);
  if (mode === 'test') {
    logger.warn(
      { paymentsMode: config.PAYMENTS_MODE },
      'PAYMENTS IN TEST MODE: no Stripe keys, card payments are simulated with Stripe test cards and no money is taken',
    );
  }
  if (!config.SMTP_URL)
    logger.warn('SMTP_URL not set: invoice emails are recorded in the local email log, not delivered');

  const queues = await createQueues(config.REDIS_URL, config.REDIS_PREFIX, config.JOB_ATTEMPTS);
  const mailer = createMailer(config.SMTP_URL);
  let ctx: BillingContext | undefined;

  /** Built once, from the first runtime callback that has the parts (outbox, relay). */
  const context = (parts: RuntimeParts<Db>): BillingContext => {
    if (ctx) return ctx;
    const wakeRelay = () => parts.relay.wake();
    const events = eventWriter(parts.outbox);
    ctx = {
      config,
      logger,
      db,
      invoices: new CustomerInvoiceRepository(db, events, wakeRelay, clock),
      purchases: new PurchaseInvoiceRepository(db, events, wakeRelay, clock),
      expenses: new ExpenseRepository(db, events, wakeRelay, clock),
      payments: new PaymentRepository(db, events, wakeRelay, clock),
      pdfs: new PdfStore(db),
      emails: new EmailDeliveryRepository(db),
      queues,
      provider:
        mode === 'live'
          ? stripeProvider(stripeClient(config.STRIPE_SECRET_KEY as string, config.STRIPE_API_BASE))
          : testModeProvider(),
      booking: overrides.booking ?? httpBookingClient(config.BOOKING_URL),
      mailer,
      business: {
        name: config.BUSINESS_NAME,
        abn: config.BUSINESS_ABN,
        phone: config.BUSINESS_PHONE,
        email: config.BUSINESS_EMAIL,
        address: config.BUSINESS_ADDRESS,
        website: config.BUSINESS_WEBSITE,
      },
      clock,
      wakeRelay,
    };
    return ctx;
  };

  let runtime: ServiceRuntime<Db>;
  try {
    runtime = await startService<Db>({
      name: 'billing',
      schema: DB_SCHEMA,
      config,
      logger,
      db,
      subscribe: (parts) => subscribeBilling(parts.bus, context(parts)),
      http: (parts) =>
        billingHttp({
          ctx: context(parts),
          redis: parts.redis,
          readiness: parts.readiness,
          identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
        }),
      start: async (parts) => {
        // Closers run in the order added, and these run before the runtime's own (HTTP drain, consumers, relay,
        // connections): workers finish their running jobs while the database and Redis are still there.
        if (config.RUN_WORKERS) {
          const workers = startWorkers(context(parts));
          parts.lifecycle.onShutdown('bullmq workers', () => workers.close());
        }
        parts.lifecycle.onShutdown('bullmq queues', () => queues.close(Math.min(config.JOB_WAIT_MS, 5000)));
        parts.lifecycle.onShutdown('mailer', () => mailer.close());
      },
    });
  } catch (err) {
    await queues.close();
    mailer.close();
    await db.$disconnect().catch(() => undefined);
    throw err;
  }
  return { runtime, ctx: context(runtime) };
}
