import { randomUUID, timingSafeEqual } from 'node:crypto';
import express, { Router, type RequestHandler } from 'express';
import { badRequest, conflict, HttpError, notFound, parseOr400 } from '@tyres/service-kit';
import type { BillingContext } from '../context';
import { hashBookingToken } from '../db/payments';
import { CARD_SURCHARGE_RATE } from '../domain/constants';
import {
  centsOf,
  fitsMoneyColumn,
  formatAud,
  moneyString,
  parseMoney,
  withCardSurcharge,
} from '../domain/money';
import { testCardOutcome, TEST_CARDS_HELP } from '../domain/test-cards';
import { paymentSetupFailed } from './booking-client';
import { isProviderEvent, verifyStripeWebhook, type ProviderEvent } from './stripe-client';
import { paymentIntentSchema, testConfirmSchema } from './schemas';

/**
 * Booking's vocabulary: a `quoted` prepaid booking awaits its card payment; `confirmed` is booked (paid online, or
 * onsite payment), so it is not paid through the checkout; expired/cancelled quotes are gone (booking answers 404).
 */
const NOT_PAYABLE_STATUSES = new Set(['confirmed', 'conflict', 'paid', 'booked', 'completed']);
const GONE_STATUSES = new Set(['expired', 'cancelled', 'canceled']);

const TEST_MODE_LABEL = 'TEST MODE - no real payment will be taken.';

function surchargeMessage(surcharge: string, mode: 'live' | 'test'): string {
  const message = `A card surcharge of 1.7% (${formatAud(surcharge)}) applies to card payments.`;
  return mode === 'test' ? `${TEST_MODE_LABEL} ${message} ${TEST_CARDS_HELP}` : message;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The Stripe webhook (POST /api/payments/webhook). Mounted before the JSON parser: the signature covers the raw
 * bytes. Bad or missing signature: 400. A replayed event (same id) is acknowledged without a second effect.
 */
export function stripeWebhookHandler(ctx: BillingContext): RequestHandler[] {
  return [
    express.raw({ type: () => true, limit: '1mb' }),
    async (req, res) => {
      const secret = ctx.config.STRIPE_WEBHOOK_SECRET;
      if (!secret)
        throw new HttpError(
          503,
          'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)',
          'webhook_not_configured',
        );
      const signature = req.header('stripe-signature');
      if (!signature) throw badRequest('Missing Stripe-Signature header', undefined, 'invalid_signature');
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event: ProviderEvent;
      try {
        event = verifyStripeWebhook(raw, signature, secret);
      } catch (err) {
        ctx.logger.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'stripe webhook signature rejected',
        );
        throw badRequest('Invalid Stripe signature', undefined, 'invalid_signature');
      }
      if (!isProviderEvent(event)) {
        // Signed with our secret but not a Stripe event (no id, type or data.object): nothing to apply.
        throw badRequest('Malformed Stripe event', undefined, 'invalid_event');
      }
      const outcome = await ctx.payments.applyProviderEvent(event);
      ctx.logger.info({ stripeEventId: event.id, type: event.type, outcome: outcome.kind }, 'stripe event');
      res.json({ received: true, duplicate: outcome.kind === 'duplicate', outcome: outcome.kind });
    },
  ];
}

/** Public payment calls: /api/create-payment-intent-token and /api/payments/* (test mode, config). */
export function paymentRoutes(ctx: BillingContext): Router {
  const r = Router();
  const mode = ctx.provider.mode;

  r.post('/api/create-payment-intent-token', async (req, res) => {
    const { bookingToken } = parseOr400(paymentIntentSchema, req.body ?? {});
    const booking = await ctx.booking.byToken(bookingToken, {
      'x-request-id': req.correlationId,
      'x-identity-token': req.header('x-identity-token'),
    });
    if (!booking || (booking.status && GONE_STATUSES.has(booking.status.toLowerCase()))) {
      throw notFound('Booking not found or has expired');
    }
    const tokenHash = hashBookingToken(bookingToken);
    const existing = await ctx.payments.findByTokenHash(tokenHash);
    if (existing?.status === 'succeeded' || booking.paymentStatus?.toLowerCase() === 'paid') {
      throw conflict('This booking has already been paid', undefined, 'already_paid');
    }
    if (booking.status && NOT_PAYABLE_STATUSES.has(booking.status.toLowerCase())) {
      throw conflict('This booking is not awaiting an online payment', undefined, 'not_payable');
    }
    const amount = parseMoney(typeof booking.amount === 'number' ? booking.amount : String(booking.amount));
    if (!amount.ok)
      throw Object.assign(paymentSetupFailed(), { cause: new Error('booking amount is not money') });
    if (amount.value.lte(0))
      throw badRequest('This booking has no amount to pay online', undefined, 'nothing_to_pay');
    const amounts = withCardSurcharge(amount.value);
    if (!fitsMoneyColumn(amounts.totalAmount))
      throw Object.assign(paymentSetupFailed(), { cause: new Error('booking amount too large') });

    let payment = existing && existing.totalAmount.eq(amounts.totalAmount) ? existing : undefined;
    if (!payment) {
      const paymentId = existing?.id ?? randomUUID();
      const cents = centsOf(amounts.totalAmount);
      let intent;
      try {
        intent = await ctx.provider.createIntent({
          amountCents: cents,
          // One intent per booking token (and amount): a retried request gets the same PaymentIntent from Stripe.
          idempotencyKey: `payment-intent-${tokenHash.slice(0, 40)}-${cents}`,
          description:
            `Booking ${booking.serviceType ?? ''} ${booking.job?.scheduledDate ?? ''} ${booking.job?.timeSlot ?? ''}`.trim(),
          metadata: {
            paymentId,
            quoteId: booking.quoteId ?? '',
            jobId: booking.jobId ?? '',
            originalAmount: moneyString(amounts.originalAmount),
            surchargeAmount: moneyString(amounts.surchargeAmount),
          },
          ...(booking.customer?.email ? { receiptEmail: booking.customer.email } : {}),
        });
      } catch (err) {
        ctx.logger.error(
          { err: err instanceof Error ? err.message : String(err) },
          'payment intent creation failed',
        );
        throw paymentSetupFailed();
      }
      payment = existing
        ? await ctx.db.payment.update({
            where: { id: existing.id },
            data: {
              originalAmount: amounts.originalAmount,
              surchargeAmount: amounts.surchargeAmount,
              totalAmount: amounts.totalAmount,
              providerIntentId: intent.id,
              clientSecret: intent.clientSecret,
              status: 'requires_payment_method',
            },
          })
        : await ctx.payments.create({
            id: paymentId,
            bookingTokenHash: tokenHash,
            quoteId: booking.quoteId ?? null,
            jobId: booking.jobId ?? null,
            amounts,
            mode,
            providerIntentId: intent.id,
            clientSecret: intent.clientSecret,
          });
    }
    res.json({
      clientSecret: payment.clientSecret,
      originalAmount: moneyString(payment.originalAmount),
      surchargeAmount: moneyString(payment.surchargeAmount),
      totalAmount: moneyString(payment.totalAmount),
      message: surchargeMessage(moneyString(payment.surchargeAmount), payment.mode as 'live' | 'test'),
      paymentIntentId: payment.providerIntentId,
      currency: 'AUD',
      mode: payment.mode,
      testMode: payment.mode === 'test',
    });
  });

  /** What the checkout page needs to know: live (Stripe.js) or the labelled test mode. */
  r.get('/api/payments/config', (_req, res) => {
    res.json({
      mode,
      testMode: mode === 'test',
      surchargeRate: CARD_SURCHARGE_RATE,
      ...(mode === 'test'
        ? { message: `${TEST_MODE_LABEL} ${TEST_CARDS_HELP}`, confirmUrl: '/api/payments/test-mode/confirm' }
        : {}),
    });
  });

  /**
   * Test mode only: confirms a test intent with a Stripe test card number. Builds the Stripe event the webhook would
   * have delivered and feeds it to the same handler, so states and events (PaymentSucceeded/PaymentFailed, mode
   * "test") are exactly those of a real payment.
   */
  r.post('/api/payments/test-mode/confirm', async (req, res) => {
    if (mode !== 'test') throw notFound('Test mode is not enabled: payments are confirmed by Stripe');
    const body = parseOr400(testConfirmSchema, req.body ?? {});
    const intentId = body.clientSecret.split('_secret_')[0] ?? '';
    const payment = intentId ? await ctx.payments.findByIntentId(intentId) : null;
    if (!payment || payment.mode !== 'test' || !sameSecret(payment.clientSecret, body.clientSecret)) {
      throw notFound('Payment not found');
    }
    const answer = { paymentIntentId: payment.providerIntentId, mode: 'test' as const, testMode: true };
    if (payment.status === 'succeeded') {
      res.json({ ...answer, status: 'succeeded', message: 'Payment already confirmed (test mode).' });
      return;
    }
    const card = testCardOutcome(body.cardNumber);
    if (!card) throw badRequest(TEST_CARDS_HELP, undefined, 'not_a_test_card');
    const event: ProviderEvent = {
      id: `evt_test_${randomUUID().replace(/-/g, '')}`,
      type: card.outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
      data: {
        object: {
          id: payment.providerIntentId,
          object: 'payment_intent',
          amount: centsOf(payment.totalAmount),
          amount_received: card.outcome === 'succeeded' ? centsOf(payment.totalAmount) : 0,
          currency: 'aud',
          status: card.outcome === 'succeeded' ? 'succeeded' : 'requires_payment_method',
          metadata: { paymentId: payment.id },
          last_payment_error:
            card.outcome === 'declined'
              ? {
                  code: card.code,
                  message: card.message,
                  ...(card.declineCode ? { decline_code: card.declineCode } : {}),
                }
              : null,
        },
      },
    };
    const outcome = await ctx.payments.applyProviderEvent(event);
    if (outcome.kind === 'succeeded') {
      res.json({
        ...answer,
        status: 'succeeded',
        message: 'Payment successful (test mode: no real money was taken).',
      });
      return;
    }
    if (card.outcome === 'declined') {
      res.status(402).json({
        ...answer,
        status: 'failed',
        message: card.message,
        code: card.code,
        ...(card.declineCode ? { declineCode: card.declineCode } : {}),
      });
      return;
    }
    throw new HttpError(409, 'The payment could not be confirmed', 'payment_not_confirmed');
  });

  return r;
}
