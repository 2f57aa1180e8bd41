import express, { Router, type RequestHandler } from 'express';
import { parseOr400 } from '@tyres/service-kit';
import { formatAud } from '@tyres/kernel';
import { rateColumn, rateFraction, rateLabel, rateOfPayment } from '../domain/pay-invoice';
import type { Payments } from '../app/payments';
import { centsOf, moneyString } from '../domain/money';
import { TEST_CARDS_HELP } from '../domain/test-cards';
import { paymentIntentSchema, testConfirmSchema } from './schemas';

const TEST_MODE_LABEL = 'TEST MODE - no real payment will be taken.';

function surchargeMessage(rate: string, surcharge: bigint, mode: 'live' | 'test'): string {
  const message = `A card surcharge of ${rate} (${formatAud(surcharge)}) applies to card payments.`;
  return mode === 'test' ? `${TEST_MODE_LABEL} ${message} ${TEST_CARDS_HELP}` : message;
}

/**
 * The Stripe webhook (POST /api/payments/webhook). Mounted before the JSON parser: the signature covers the raw
 * bytes. Bad or missing signature, or no signing secret configured (development): 400. A replayed event (same id) is
 * acknowledged without a second effect.
 */
export function stripeWebhookHandler(payments: Payments): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: '1mb' }),
    async (req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const outcome = await payments.receiveWebhook(raw, req.header('stripe-signature'));
      res.json({ received: true, duplicate: outcome.kind === 'duplicate', outcome: outcome.kind });
    },
  ];
}

/** Public payment calls: /api/create-payment-intent-token and /api/payments/* (test mode, config). */
export function paymentRoutes(payments: Payments): Router {
  const r = Router();
  const mode = payments.mode;

  r.post('/api/create-payment-intent-token', async (req, res) => {
    const { bookingToken } = parseOr400(paymentIntentSchema, req.body ?? {});
    const payment = await payments.startCardPayment(bookingToken, {
      'x-request-id': req.correlationId,
      'x-identity-token': req.header('x-identity-token'),
    });
    res.json({
      clientSecret: payment.clientSecret,
      originalAmount: moneyString(payment.originalAmount),
      surchargeAmount: moneyString(payment.surchargeAmount),
      totalAmount: moneyString(payment.totalAmount),
      surchargeRate: rateLabel(rateOfPayment(payment)),
      message: surchargeMessage(
        rateLabel(rateOfPayment(payment)),
        centsOf(payment.surchargeAmount),
        payment.mode as 'live' | 'test',
      ),
      paymentIntentId: payment.providerIntentId,
      currency: 'AUD',
      mode: payment.mode,
      testMode: payment.mode === 'test',
    });
  });

  /**
   * What the checkout page needs to know: live (Stripe.js) or the labelled test mode, and the card surcharge rate in
   * force now (booking's price list, the pay page's path; 503 when booking cannot confirm it, never a guessed rate).
   */
  r.get('/api/payments/config', async (req, res) => {
    const rate = await payments.surchargeRateInForce({
      'x-request-id': req.correlationId,
      'x-identity-token': req.header('x-identity-token'),
    });
    res.json({
      mode,
      testMode: mode === 'test',
      surchargeRate: rateFraction(rate),
      surchargeRatePercent: rateColumn(rate),
      surchargeRateLabel: rateLabel(rate),
      ...(mode === 'test'
        ? { message: `${TEST_MODE_LABEL} ${TEST_CARDS_HELP}`, confirmUrl: '/api/payments/test-mode/confirm' }
        : {}),
    });
  });

  /** Test mode only: confirms a test intent with a Stripe test card number (the same path as the webhook). */
  r.post('/api/payments/test-mode/confirm', async (req, res) => {
    payments.assertTestMode();
    const body = parseOr400(testConfirmSchema, req.body ?? {});
    const result = await payments.confirmTestCard(body.clientSecret, body.cardNumber);
    const answer = {
      paymentIntentId: result.payment.providerIntentId,
      mode: 'test' as const,
      testMode: true,
    };
    if (result.kind === 'already-succeeded') {
      res.json({ ...answer, status: 'succeeded', message: 'Payment already confirmed (test mode).' });
      return;
    }
    if (result.kind === 'succeeded') {
      res.json({
        ...answer,
        status: 'succeeded',
        message: 'Payment successful (test mode: no real money was taken).',
      });
      return;
    }
    res.status(402).json({
      ...answer,
      status: 'failed',
      message: result.card.message,
      code: result.card.code,
      ...(result.card.declineCode ? { declineCode: result.card.declineCode } : {}),
    });
  });

  return r;
}
