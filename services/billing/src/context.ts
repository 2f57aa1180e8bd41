import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/client';
import type { CustomerInvoiceRepository } from './db/customer-invoices';
import type { EmailDeliveryRepository } from './db/email-deliveries';
import type { ExpenseRepository } from './db/expenses';
import type { PaymentRepository } from './db/payments';
import type { PdfStore } from './db/pdfs';
import type { PurchaseInvoiceRepository } from './db/purchase-invoices';
import type { Mailer } from './workers/mailer';
import type { BookingClient } from './http/booking-client';
import type { PaymentProvider } from './http/stripe-client';
import type { BusinessDetails } from './domain/invoice-document';
import type { BillingQueues } from './workers/queues';

/** Everything the HTTP layer, the event handlers and the workers share (built once in service.ts). */
export interface BillingContext {
  config: Config;
  logger: Logger;
  db: Db;
  invoices: CustomerInvoiceRepository;
  purchases: PurchaseInvoiceRepository;
  expenses: ExpenseRepository;
  payments: PaymentRepository;
  pdfs: PdfStore;
  emails: EmailDeliveryRepository;
  queues: BillingQueues;
  provider: PaymentProvider;
  booking: BookingClient;
  mailer: Mailer;
  business: BusinessDetails;
  clock: () => Date;
  /** Nudges the outbox relay after a transaction that wrote events committed. */
  wakeRelay: () => void;
}
