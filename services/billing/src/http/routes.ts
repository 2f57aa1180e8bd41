import express, { type Express, type Router } from 'express';
import {
  createServiceApp,
  identityMiddleware,
  mountOpenApi,
  rejectNulCharacters,
  responseContractCheck,
  type HttpLayer,
  type ReadinessCheck,
} from '@tyres/service-kit';
import type { Logger } from 'pino';
import type { CustomerInvoices } from '../app/customer-invoices';
import type { Expenses } from '../app/expenses';
import type { InvoiceDocuments } from '../app/invoice-documents';
import type { InvoicePay } from '../app/invoice-pay';
import type { Payments } from '../app/payments';
import type { PurchaseInvoices } from '../app/purchase-invoices';
import type { Refunds } from '../app/refunds';
import { customerInvoiceRoutes } from './customer-invoices';
import { billingOpenApi, billingPaths } from './openapi';
import { expenseRoutes } from './expenses';
import { payInvoiceRoutes } from './pay-invoice';
import { paymentRoutes, stripeWebhookHandler } from './payments';
import { purchaseInvoiceRoutes } from './purchase-invoices';
import { refundRoutes } from './refunds';

/** The use cases the routes call. */
export interface BillingUseCases {
  invoices: CustomerInvoices;
  documents: InvoiceDocuments;
  purchases: PurchaseInvoices;
  expenses: Expenses;
  payments: Payments;
  refunds: Refunds;
  invoicePay: InvoicePay;
}

/** The routers and where they are mounted (one list, which the OpenAPI coverage test walks too). */
export function billingRouters(useCases: BillingUseCases): [prefix: string, router: Router][] {
  return [
    ['/api/dashboard/customer-invoices', customerInvoiceRoutes(useCases)],
    ['/api/dashboard/purchase-invoices', purchaseInvoiceRoutes(useCases.purchases)],
    ['/api/dashboard/business-expenses', expenseRoutes(useCases.expenses)],
    ['/api/dashboard/refunds', refundRoutes(useCases.refunds)],
    ['', paymentRoutes(useCases.payments)],
    ['/api/pay', payInvoiceRoutes(useCases.invoicePay)],
  ];
}

/** The Stripe webhook's address: mounted by billingHttp before the JSON parser. */
export const STRIPE_WEBHOOK_PATH = '/api/payments/webhook';

/** The billing service's HTTP routes (behind the gateway; see README.md for the access of each). */
export function mountRoutes(app: Express, useCases: BillingUseCases): void {
  for (const [prefix, router] of billingRouters(useCases)) {
    if (prefix) app.use(prefix, router);
    else app.use(router);
  }
}

/**
 * serviceHttp's layout with one difference: the Stripe webhook is mounted before the JSON body parser, because its
 * signature covers the raw bytes. GET /openapi.json and the response check come first, so they cover it too.
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
  mountOpenApi(svc.app, billingOpenApi());
  // Before every route, the webhook included: answers are checked against the document (strict in the integration
  // suites, off in production unless OPENAPI_RESPONSE_CHECK says otherwise).
  svc.app.use(responseContractCheck(billingPaths));
  svc.app.post(STRIPE_WEBHOOK_PATH, ...stripeWebhookHandler(options.useCases.payments));
  svc.app.use(express.json({ limit: '100kb' }));
  // createServiceApp's NUL guard runs before this parser (parseJson: false): check the parsed body too.
  svc.app.use(rejectNulCharacters);
  svc.app.use(identityMiddleware(options.identityPublicKey));
  mountRoutes(svc.app, options.useCases);
  return { app: svc.finalize(), setDraining: svc.setDraining, registry: svc.metrics.registry };
}
