import { createServiceRuntime, type ServiceRuntime } from '@tyres/service-kit';
import type { Logger } from 'pino';
import { CustomerInvoices } from './app/customer-invoices';
import { Expenses } from './app/expenses';
import { InvoiceDocuments } from './app/invoice-documents';
import { JobProjection } from './app/jobs';
import { eventWriter } from './app/outbox';
import { InvoicePay } from './app/invoice-pay';
import { Payments } from './app/payments';
import { PurchaseInvoices } from './app/purchase-invoices';
import { Refunds } from './app/refunds';
import { Transactions } from './app/transactions';
import { paymentsMode, publicSiteUrl, type Config } from './config';
import { createDb, DB_SCHEMA, type Db } from './db/client';
import { EmailDeliveryRepository } from './db/email-deliveries';
import { PdfStore } from './db/pdfs';
import { billingHandlers } from './events/handlers';
import { subscribeBilling } from './events/subscriptions';
import { erasureHandlers } from './events/erasure-handlers';
import { httpBookingClient, type BookingClient } from './http/booking-client';
import { billingHttp, type BillingUseCases } from './http/routes';
import { stripeClient, stripeProvider, testModeProvider, verifyStripeWebhook } from './http/stripe-client';
import { startWorkers } from './workers';
import { createMailer } from './workers/mailer';
import { renderPdf } from './workers/pdf-render';
import { createQueues, type BillingQueues } from './workers/queues';
import { createRefundQueue } from './workers/refund-queue';

/** What the composition built: the use cases and the parts tests look at. */
export interface BillingParts extends BillingUseCases {
  config: Config;
  db: Db;
  queues: BillingQueues;
  jobs: JobProjection;
  clock: () => Date;
}

export interface BillingService {
  runtime: ServiceRuntime<Db>;
  ctx: BillingParts;
}

export interface BillingOverrides {
  clock?: () => Date;
  booking?: BookingClient;
}

/**
 * The composition root shared by main.ts and the integration tests, in plain order: runtime → queues and adapters →
 * use cases → subscriptions → HTTP and workers. Everything closes in order on shutdown.
 */
export async function startBilling(
  config: Config,
  logger: Logger,
  overrides: BillingOverrides = {},
): Promise<BillingService> {
  const clock = overrides.clock ?? (() => new Date());
  const mode = paymentsMode(config);
  if (mode === 'test')
    logger.warn(
      { paymentsMode: config.PAYMENTS_MODE },
      'PAYMENTS IN TEST MODE: no Stripe keys, card payments are simulated with Stripe test cards and no money is taken',
    );
  if (config.NODE_ENV === 'production' && !config.PUBLIC_SITE_URL && !config.SITE_URL)
    logger.warn(
      'PUBLIC_SITE_URL is not set: the "Pay now" links on invoice emails and PDFs point at the local default',
    );
  if (!config.SMTP_URL)
    logger.warn('SMTP_URL not set: invoice emails are recorded in the local email log, not delivered');
  if (!config.STRIPE_WEBHOOK_SECRET)
    logger.warn(
      'STRIPE_WEBHOOK_SECRET not set: the Stripe webhook answers 400 to every call (development only)',
    );

  const db = createDb(config.DATABASE_URL);
  const runtime = createServiceRuntime({ name: 'billing', schema: DB_SCHEMA, config, logger, db });
  const queues = createQueues(config.REDIS_URL, config.REDIS_PREFIX, config.JOB_ATTEMPTS);
  const mailer = createMailer(config.SMTP_URL);

  const transactions = new Transactions(db, runtime.wake);
  const events = eventWriter(runtime.outbox);
  const invoices = new CustomerInvoices({ db, transactions, events, clock });
  const provider =
    mode === 'live'
      ? stripeProvider(stripeClient(config.STRIPE_SECRET_KEY as string, config.STRIPE_API_BASE))
      : testModeProvider();
  const refundQueue = createRefundQueue(config.REDIS_URL, config.REDIS_PREFIX, {
    attempts: config.REFUND_ATTEMPTS,
    backoffMs: config.REFUND_BACKOFF_MS,
  });
  const refunds = new Refunds({ db, transactions, invoices, provider, queue: refundQueue, clock, logger });
  const booking = overrides.booking ?? httpBookingClient(config.BOOKING_URL);
  const invoicePay = new InvoicePay({
    db,
    surchargeRate: booking,
    invoices,
    provider,
    queueReceipt: (job) =>
      queues.queueReceipt({
        invoiceId: job.invoiceId,
        revision: 0,
        to: job.to,
        requestedBy: null,
        receiptForPaymentId: job.paymentId,
      }),
    logger,
    clock,
    siteUrl: publicSiteUrl(config),
  });
  const useCases: BillingUseCases = {
    invoices,
    documents: new InvoiceDocuments({
      db,
      invoices,
      pdfs: new PdfStore(db),
      emails: new EmailDeliveryRepository(db),
      queues,
      mailer,
      renderPdf,
      business: {
        name: config.BUSINESS_NAME,
        abn: config.BUSINESS_ABN,
        phone: config.BUSINESS_PHONE,
        email: config.BUSINESS_EMAIL,
        address: config.BUSINESS_ADDRESS,
        website: config.BUSINESS_WEBSITE,
      },
      emailFrom: config.EMAIL_FROM,
      payLinks: invoicePay,
      jobWaitMs: config.JOB_WAIT_MS,
      logger,
      clock,
    }),
    purchases: new PurchaseInvoices({ db, transactions, events, clock }),
    expenses: new Expenses({ db, transactions, events, clock }),
    payments: new Payments({
      db,
      transactions,
      events,
      clock,
      logger,
      provider,
      refunds,
      invoicePay,
      booking,
      invoices,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
      verifyWebhook: verifyStripeWebhook,
    }),
    refunds,
    invoicePay,
  };
  const jobs = new JobProjection(invoices);

  subscribeBilling(
    runtime.bus,
    billingHandlers({ db, jobs, refunds, wake: runtime.wake }),
    erasureHandlers({ db }),
  );

  try {
    const service = await runtime.listen(
      billingHttp({
        logger,
        readiness: runtime.readiness,
        identityPublicKey: config.INTERNAL_JWT_PUBLIC_KEY,
        useCases,
      }),
      {
        start: async () => {
          // Closers run in the order added, and these run before the runtime's own (HTTP drain, consumers, relay,
          // connections): workers finish their running jobs while the database and Redis are still there.
          if (config.RUN_WORKERS) {
            const workers = startWorkers(useCases.documents, refunds, {
              redisUrl: config.REDIS_URL,
              redisPrefix: config.REDIS_PREFIX,
              pdfConcurrency: config.PDF_CONCURRENCY,
              emailConcurrency: config.EMAIL_CONCURRENCY,
              logger,
            });
            runtime.lifecycle.onShutdown('bullmq workers', () => workers.close());
            // Refunds recorded while Redis was unreachable are queued once it is back (one job per refund and round).
            const sweep = setInterval(() => {
              refunds
                .sweep()
                .catch((err: unknown) =>
                  logger.warn(
                    { err: err instanceof Error ? err.message : String(err) },
                    'refund sweep failed',
                  ),
                );
            }, 60_000);
            sweep.unref();
            runtime.lifecycle.onShutdown('refund sweep', () => clearInterval(sweep));
          }
          runtime.lifecycle.onShutdown('bullmq queues', () =>
            queues.close(Math.min(config.JOB_WAIT_MS, 5000)),
          );
          runtime.lifecycle.onShutdown('mailer', () => mailer.close());
          runtime.lifecycle.onShutdown('refund queue', () => refundQueue.close());
        },
      },
    );
    return { runtime: service, ctx: { ...useCases, config, db, queues, jobs, clock } };
  } catch (err) {
    await queues.close();
    await refundQueue.close();
    mailer.close();
    await db.$disconnect().catch(() => undefined);
    throw err;
  }
}
