import express, { type Express } from 'express';
import {
  createServiceApp,
  identityMiddleware,
  rejectNulCharacters,
  type HttpLayer,
  type ReadinessCheck,
} from '@tyres/service-kit';
import type { Logger } from 'pino';
import type { CustomerInvoices } from '../app/customer-invoices';
import type { Expenses } from '../app/expenses';
import type { InvoiceDocuments } from '../app/invoice-documents';
import type { Payments } from '../app/payments';
import type { PurchaseInvoices } from '../app/purchase-invoices';
import { customerInvoiceRoutes } from './customer-invoices';
import { expenseRoutes } from './expenses';
import { paymentRoutes, stripeWebhookHandler } from './payments';
import { purchaseInvoiceRoutes } from './purchase-invoices';

/** The use cases the routes call. */
export interface BillingUseCases {
  invoices: CustomerInvoices;
  documents: InvoiceDocuments;
  purchases: PurchaseInvoices;
  expenses: Expenses;
  payments: Payments;
}

/** The billing service's HTTP routes (behind the gateway; see README.md for the access of each). */
export function mountRoutes(app: Express, useCases: BillingUseCases): void {
  app.use('/api/dashboard/customer-invoices', customerInvoiceRoutes(useCases));
  app.use('/api/dashboard/purchase-invoices', purchaseInvoiceRoutes(useCases.purchases));
  app.use('/api/dashboard/business-expenses', expenseRoutes(useCases.expenses));
  app.use(paymentRoutes(useCases.payments));
}

/**
 * serviceHttp's layout with one difference: the Stripe webhook is mounted before the JSON body parser, because its
 * signature covers the raw bytes.
 */
export function billingHttp(options: {
  logger: Logger;
  readiness: Record<string, ReadinessCheck>;
  identityPublicKey: string;
  useCases: BillingUseCases;
}): HttpLayer {
  const svc = createServiceApp({
    name: 'billing',
    logger: options.logger,
    readiness: options.readiness,
    parseJson: false,
  });
  svc.app.post('/api/payments/webhook', ...stripeWebhookHandler(options.useCases.payments));
  svc.app.use(express.json({ limit: '100kb' }));
  // createServiceApp's NUL guard runs before this parser (parseJson: false): check the parsed body too.
  svc.app.use(rejectNulCharacters);
  svc.app.use(identityMiddleware(options.identityPublicKey));
  mountRoutes(svc.app, options.useCases);
  return { app: svc.finalize(), setDraining: svc.setDraining, registry: svc.metrics.registry };
}
