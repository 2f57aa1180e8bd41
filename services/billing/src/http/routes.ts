import express, { type Express } from 'express';
import {
  createServiceApp,
  identityMiddleware,
  rejectNulCharacters,
  type HttpLayer,
  type ReadinessCheck,
} from '@tyres/service-kit';
import type { Redis } from 'ioredis';
import type { BillingContext } from '../context';
import { customerInvoiceRoutes } from './customer-invoices';
import { expenseRoutes } from './expenses';
import { paymentRoutes, stripeWebhookHandler } from './payments';
import { purchaseInvoiceRoutes } from './purchase-invoices';

/** The billing service's HTTP routes (behind the gateway; see README.md for the access of each). */
export function mountRoutes(app: Express, ctx: BillingContext, redis: Redis): void {
  app.use('/api/dashboard/customer-invoices', customerInvoiceRoutes(ctx, redis));
  app.use('/api/dashboard/purchase-invoices', purchaseInvoiceRoutes(ctx));
  app.use('/api/dashboard/business-expenses', expenseRoutes(ctx));
  app.use(paymentRoutes(ctx));
}

/**
 * serviceHttp's layout with one difference: the Stripe webhook is mounted before the JSON body parser, because its
 * signature covers the raw bytes.
 */
export function billingHttp(options: {
  ctx: BillingContext;
  redis: Redis;
  readiness: Record<string, ReadinessCheck>;
  identityPublicKey: string;
}): HttpLayer {
  const { ctx } = options;
  const svc = createServiceApp({
    name: 'billing',
    logger: ctx.logger,
    readiness: options.readiness,
    parseJson: false,
  });
  svc.app.post('/api/payments/webhook', ...stripeWebhookHandler(ctx));
  svc.app.use(express.json({ limit: '100kb' }));
  // createServiceApp's NUL guard runs before this parser (parseJson: false): check the parsed body too.
  svc.app.use(rejectNulCharacters);
  svc.app.use(identityMiddleware(options.identityPublicKey));
  mountRoutes(svc.app, ctx, options.redis);
  return { app: svc.finalize(), setDraining: svc.setDraining };
}
