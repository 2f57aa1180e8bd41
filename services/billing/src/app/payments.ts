import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { PaymentFailed, PaymentSucceeded } from '@tyres/events';
import {
  DEFAULT_CARD_SURCHARGE_BP,
  formatMoney,
  parseMoneyInput,
  parseSurchargeRate,
  type SurchargeRate,
  withCardSurcharge,
} from '@tyres/kernel';
import { rateColumn } from '../domain/pay-invoice';
import {
  badRequest,
  conflict,
  HttpError,
  isUniqueViolation,
  notFound,
  serviceUnavailable,
  type Logger,
} from '@tyres/service-kit';
import type { Db, Tx } from '../db/client';
import type { Payment } from '../db/generated/client';
import {
  findPaymentByIntent,
  findPaymentByTokenHash,
  insertPayment,
  lockPaymentByIntent,
  recordProviderEvent,
  updatePayment,
} from '../db/payments';
import { centsOf, fitsMoneyColumn, moneyString } from '../domain/money';
import { isProviderEvent, type ProviderEvent } from '../domain/provider-event';
import { testCardOutcome, TEST_CARDS_HELP, type TestCardOutcome } from '../domain/test-cards';
import { paymentSetupFailed, type BookingClient } from '../http/booking-client';
import type { PaymentProvider } from '../http/stripe-client';
import {
  logPrepaidInvoiceOutcome,
  type CustomerInvoices,
  type PrepaidInvoiceOutcome,
} from './customer-invoices';
import type { InvoicePay, InvoicePaymentOutcome } from './invoice-pay';
import type { EventWriter } from './outbox';
import type { Refunds } from './refunds';
import type { Transactions } from './transactions';

/**
 * Booking's vocabulary: a `quoted` prepaid booking awaits its card payment; `confirmed` is booked (paid online, or
 * onsite payment), so it is not paid through the checkout; expired/cancelled quotes are gone (booking answers 404).
 */
const NOT_PAYABLE_STATUSES = new Set(['confirmed', 'conflict', 'paid', 'booked', 'completed']);
const GONE_STATUSES = new Set(['expired', 'cancelled', 'canceled']);

/** Booking tokens are capabilities: billing keeps only their hash. */
export function hashBookingToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The provider events that report on a refund. */
const isRefundEvent = (type: string) => type.startsWith('refund.') || type === 'charge.refunded';

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type EventOutcome =
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: string }
  | {
      kind: 'succeeded';
      payment: Payment;
      alreadySucceeded: boolean;
      /** The prepaid booking's invoice, when billing already knows the job (else it is made on BookingCreated). */
      invoice?: PrepaidInvoiceOutcome;
    }
  | { kind: 'failed'; payment: Payment; failureCode: string | null; failureMessage: string | null }
  | { kind: 'canceled'; payment: Payment }
  /** A refund webhook (refund.*, charge.refunded) applied to billing's refunds. */
  | { kind: 'refund'; matched: number; updated: number }
  /** An invoice's payment through its pay link (issue 18): the invoice paid, or already paid (refunded). */
  | InvoicePaymentOutcome;

export type TestConfirmation =
  | { kind: 'already-succeeded'; payment: Payment }
  | { kind: 'succeeded'; payment: Payment }
  | { kind: 'declined'; payment: Payment; card: Extract<TestCardOutcome, { outcome: 'declined' }> };

/** Verifies a webhook delivery (raw body + Stripe-Signature) and parses it; throws on a bad signature. */
export type WebhookVerifier = (rawBody: Buffer, signature: string, secret: string) => unknown;

export interface PaymentDeps {
  db: Db;
  transactions: Transactions;
  events: EventWriter;
  clock: () => Date;
  logger: Logger;
  provider: PaymentProvider;
  booking: BookingClient;
  invoices: Pick<CustomerInvoices, 'ensurePrepaidInvoice'>;
  /** Refund webhooks are applied by the refunds (issue 18). */
  refunds: Pick<Refunds, 'applyProviderEvent'>;
  /** Invoices paid through their pay link (issue 18, item 4). */
  invoicePay: Pick<InvoicePay, 'applySucceeded' | 'afterSucceeded'>;
  /** The Stripe webhook signing secret; required in production (config), optional in development and tests. */
  webhookSecret: string | undefined;
  verifyWebhook: WebhookVerifier;
}

/**
 * Card payments: the PaymentIntent for a booking token (amount + the card surcharge at the quote's rate), Stripe's webhook events
 * and the labelled test mode's card confirmations, each applied exactly once; a succeeded payment makes the prepaid
 * booking's paid invoice.
 */
export class Payments {
  constructor(private readonly deps: PaymentDeps) {}

  get mode(): 'live' | 'test' {
    return this.deps.provider.mode;
  }

  /**
   * The card surcharge rate in force now (booking's price list, GET /internal/card-surcharge-rate: the path the
   * pay-an-invoice page and its payment intent use). Booking unreachable or answering badly: 503, never a guess.
   */
  surchargeRateInForce(forward: Record<string, string | undefined> = {}): Promise<SurchargeRate> {
    return this.deps.booking.cardSurchargeRate(forward);
  }

  /**
   * The payment for a booking token: the existing intent when its amount still matches, else a new one from the
   * provider (Stripe's idempotency key makes a retried request get the same PaymentIntent).
   */
  async startCardPayment(
    bookingToken: string,
    forward: Record<string, string | undefined>,
  ): Promise<Payment> {
    const booking = await this.deps.booking.byToken(bookingToken, forward);
    if (!booking || (booking.status && GONE_STATUSES.has(booking.status.toLowerCase()))) {
      throw notFound('Booking not found or has expired');
    }
    const tokenHash = hashBookingToken(bookingToken);
    const existing = await findPaymentByTokenHash(this.deps.db, tokenHash);
    if (existing?.status === 'succeeded' || booking.paymentStatus?.toLowerCase() === 'paid') {
      throw conflict('This booking has already been paid', undefined, 'already_paid');
    }
    if (booking.status && NOT_PAYABLE_STATUSES.has(booking.status.toLowerCase())) {
      throw conflict('This booking is not awaiting an online payment', undefined, 'not_payable');
    }
    const amount = parseMoneyInput(
      typeof booking.amount === 'number' ? booking.amount : String(booking.amount),
    );
    if (!amount.ok)
      throw Object.assign(paymentSetupFailed(), { cause: new Error('booking amount is not money') });
    if (amount.cents <= 0n)
      throw badRequest('This booking has no amount to pay online', undefined, 'nothing_to_pay');
    // The booking's price plus the card surcharge at the rate the quote was given at (booking stores it with the
    // prepaid quote; kernel rule, half-up to the cent). A booking service too old to send it quoted at 1.70%.
    const rate = booking.cardSurchargeRate === undefined ? DEFAULT_CARD_SURCHARGE_BP : parseSurchargeRate(booking.cardSurchargeRate);
    if (rate === undefined)
      throw Object.assign(paymentSetupFailed(), { cause: new Error('booking sent no valid surcharge rate') });
    const amounts = withCardSurcharge(amount.cents, rate);
    if (!fitsMoneyColumn(amounts.total))
      throw Object.assign(paymentSetupFailed(), { cause: new Error('booking amount too large') });

    if (existing && centsOf(existing.totalAmount) === amounts.total) return existing;
    const paymentId = existing?.id ?? randomUUID();
    const cents = Number(amounts.total);
    let intent;
    try {
      intent = await this.deps.provider.createIntent({
        amountCents: cents,
        // One intent per booking token (and amount): a retried request gets the same PaymentIntent from Stripe.
        idempotencyKey: `payment-intent-${tokenHash.slice(0, 40)}-${cents}`,
        description:
          `Booking ${booking.serviceType ?? ''} ${booking.job?.scheduledDate ?? ''} ${booking.job?.timeSlot ?? ''}`.trim(),
        metadata: {
          paymentId,
          quoteId: booking.quoteId ?? '',
          jobId: booking.jobId ?? '',
          originalAmount: formatMoney(amounts.original),
          surchargeAmount: formatMoney(amounts.surcharge),
          surchargeRate: rateColumn(rate),
        },
        ...(booking.customer?.email ? { receiptEmail: booking.customer.email } : {}),
      });
    } catch (err) {
      this.deps.logger.error(
        { err: err instanceof Error ? err.message : String(err) },
        'payment intent creation failed',
      );
      throw paymentSetupFailed();
    }
    const columns = {
      originalAmount: formatMoney(amounts.original),
      surchargeAmount: formatMoney(amounts.surcharge),
      surchargeRate: rateColumn(rate),
      totalAmount: formatMoney(amounts.total),
      providerIntentId: intent.id,
      clientSecret: intent.clientSecret,
    };
    if (existing)
      return updatePayment(this.deps.db, existing.id, { ...columns, status: 'requires_payment_method' });
    try {
      return await insertPayment(this.deps.db, {
        id: paymentId,
        bookingTokenHash: tokenHash,
        quoteId: booking.quoteId ?? null,
        jobId: booking.jobId ?? null,
        currency: 'AUD',
        mode: this.mode,
        ...columns,
      });
    } catch (err) {
      // Another request for the same token won the race: its payment is the one.
      if (!isUniqueViolation(err)) throw err;
      const winner = await findPaymentByTokenHash(this.deps.db, tokenHash);
      if (!winner) throw err;
      return winner;
    }
  }

  /**
   * A Stripe webhook delivery: the signature over the raw bytes must verify with the configured secret (400
   * otherwise, also in development when no secret is set: nothing unsigned is ever applied); a replayed event (same
   * id) is acknowledged without a second effect.
   */
  async receiveWebhook(
    rawBody: Buffer,
    signature: string | undefined,
  ): Promise<EventOutcome & { eventId: string }> {
    if (!signature) throw badRequest('Missing Stripe-Signature header', undefined, 'invalid_signature');
    const secret = this.deps.webhookSecret;
    if (!secret)
      throw badRequest(
        'Stripe webhooks are not set up here: STRIPE_WEBHOOK_SECRET is not configured, so no signature can be verified',
        undefined,
        'webhook_not_configured',
      );
    let event: unknown;
    try {
      event = this.deps.verifyWebhook(rawBody, signature, secret);
    } catch (err) {
      this.deps.logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'stripe webhook signature rejected',
      );
      throw badRequest('Invalid Stripe signature', undefined, 'invalid_signature');
    }
    // Signed with our secret but not a Stripe event (no id, type or data.object): nothing to apply.
    if (!isProviderEvent(event)) throw badRequest('Malformed Stripe event', undefined, 'invalid_event');
    const outcome = await this.applyProviderEvent(event);
    this.deps.logger.info(
      { stripeEventId: event.id, type: event.type, outcome: outcome.kind },
      'stripe event',
    );
    if (!(await this.afterInvoicePayment(event, outcome)))
      // The invoice is paid (committed), but its receipt could not be queued or a second payment not refunded:
      // Stripe delivers the event again, and the redelivery (a duplicate) does what is left.
      throw serviceUnavailable(
        'The payment was recorded; a follow-up step failed and will be retried',
        30,
        'follow_up_failed',
      );
    return { ...outcome, eventId: event.id };
  }

  /** The receipt and a second payment's refund, after an invoice payment's event committed (also on a replay). */
  private async afterInvoicePayment(event: ProviderEvent, outcome: EventOutcome): Promise<boolean> {
    if (outcome.kind === 'invoice-paid' || outcome.kind === 'invoice-already-paid')
      return this.deps.invoicePay.afterSucceeded(outcome.payment.id);
    if (outcome.kind === 'duplicate' && event.type === 'payment_intent.succeeded') {
      const payment = await findPaymentByIntent(this.deps.db, event.data.object.id);
      if (payment?.customerInvoiceId) return this.deps.invoicePay.afterSucceeded(payment.id);
    }
    return true;
  }

  /** Test-card confirmations exist in test mode only (404 otherwise, before anything else is looked at). */
  assertTestMode(): void {
    if (this.mode !== 'test') throw notFound('Test mode is not enabled: payments are confirmed by Stripe');
  }

  /**
   * Test mode only: confirms a test intent with a Stripe test card number. Builds the Stripe event the webhook would
   * have delivered and applies it the same way, so states and events (PaymentSucceeded/PaymentFailed, mode "test")
   * are exactly those of a real payment.
   */
  async confirmTestCard(clientSecret: string, cardNumber: string): Promise<TestConfirmation> {
    this.assertTestMode();
    const intentId = clientSecret.split('_secret_')[0] ?? '';
    const payment = intentId ? await findPaymentByIntent(this.deps.db, intentId) : undefined;
    if (!payment || payment.mode !== 'test' || !sameSecret(payment.clientSecret, clientSecret)) {
      throw notFound('Payment not found');
    }
    if (payment.status === 'succeeded') return { kind: 'already-succeeded', payment };
    const card = testCardOutcome(cardNumber);
    if (!card) throw badRequest(TEST_CARDS_HELP, undefined, 'not_a_test_card');
    const total = Number(centsOf(payment.totalAmount));
    const event: ProviderEvent = {
      id: `evt_test_${randomUUID().replace(/-/g, '')}`,
      type: card.outcome === 'succeeded' ? 'payment_intent.succeeded' : 'payment_intent.payment_failed',
      data: {
        object: {
          id: payment.providerIntentId,
          object: 'payment_intent',
          amount: total,
          amount_received: card.outcome === 'succeeded' ? total : 0,
          currency: 'aud',
          status: card.outcome === 'succeeded' ? 'succeeded' : 'requires_payment_method',
          metadata: {
            paymentId: payment.id,
            ...(payment.customerInvoiceId ? { invoiceId: payment.customerInvoiceId } : {}),
          },
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
    const outcome = await this.applyProviderEvent(event);
    if (!(await this.afterInvoicePayment(event, outcome)))
      this.deps.logger.error({ paymentId: payment.id }, 'test-mode invoice payment: a follow-up step failed');
    if (outcome.kind === 'invoice-already-paid')
      throw conflict('This invoice has already been paid', undefined, 'already_paid');
    if (outcome.kind === 'succeeded' || outcome.kind === 'invoice-paid')
      return { kind: 'succeeded', payment: outcome.payment };
    if (card.outcome === 'declined') return { kind: 'declined', payment, card };
    throw new HttpError(409, 'The payment could not be confirmed', 'payment_not_confirmed');
  }

  /**
   * Applies one provider event (a verified webhook delivery or a test-mode confirmation) exactly once: the event id
   * is recorded in the same transaction as the effect, and the payment row is locked, so a replay, a duplicate
   * delivery or a concurrent confirmation never emits a second PaymentSucceeded for an intent.
   */
  async applyProviderEvent(event: ProviderEvent): Promise<EventOutcome> {
    const intent = event.data.object;
    const outcome = await this.deps.transactions.run(async (tx): Promise<EventOutcome> => {
      const fresh = await recordProviderEvent(tx, {
        id: event.id,
        type: event.type,
        // A refund's or charge's own id is not an intent: record the intent it belongs to.
        intentId: isRefundEvent(event.type)
          ? typeof intent.payment_intent === 'string'
            ? intent.payment_intent
            : null
          : (intent.id ?? null),
      });
      if (!fresh) return { kind: 'duplicate' };
      if (isRefundEvent(event.type)) {
        const applied = await this.deps.refunds.applyProviderEvent(tx, event);
        // A refund made outside billing (e.g. in Stripe's dashboard) is not one of billing's refunds.
        return applied.matched > 0
          ? { kind: 'refund', ...applied }
          : { kind: 'ignored', reason: 'not a refund billing requested' };
      }
      if (!event.type.startsWith('payment_intent.'))
        return { kind: 'ignored', reason: `event type ${event.type}` };
      if (typeof intent.id !== 'string') return { kind: 'ignored', reason: 'payment intent without an id' };
      const payment = await lockPaymentByIntent(tx, intent.id);
      if (!payment) return { kind: 'ignored', reason: `unknown payment intent ${intent.id}` };
      const now = this.deps.clock();
      switch (event.type) {
        case 'payment_intent.succeeded':
          // An invoice's payment (its pay link): the invoice is paid once, whatever the event's metadata says.
          if (payment.customerInvoiceId) return this.deps.invoicePay.applySucceeded(tx, payment, now);
          return this.succeed(tx, payment, now);
        case 'payment_intent.payment_failed':
          return this.fail(tx, payment, now, event);
        case 'payment_intent.canceled': {
          if (payment.status === 'succeeded') return { kind: 'ignored', reason: 'already succeeded' };
          return { kind: 'canceled', payment: await updatePayment(tx, payment.id, { status: 'canceled' }) };
        }
        default:
          return { kind: 'ignored', reason: `event type ${event.type}` };
      }
    });
    if (outcome.kind === 'succeeded' && outcome.invoice)
      logPrepaidInvoiceOutcome(this.deps.logger, outcome.invoice, {
        paymentId: outcome.payment.id,
        jobId: outcome.payment.jobId,
      });
    return outcome;
  }

  private async succeed(tx: Tx, payment: Payment, now: Date): Promise<EventOutcome> {
    if (payment.status === 'succeeded') return { kind: 'succeeded', payment, alreadySucceeded: true };
    const updated = await updatePayment(tx, payment.id, {
      status: 'succeeded',
      succeededAt: now,
      failureCode: null,
      failureMessage: null,
    });
    await this.deps.events.emit(tx, PaymentSucceeded, {
      paymentId: updated.id,
      paymentIntentId: updated.providerIntentId,
      quoteId: updated.quoteId,
      jobId: updated.jobId,
      originalAmount: moneyString(updated.originalAmount),
      surchargeAmount: moneyString(updated.surchargeAmount),
      amount: moneyString(updated.totalAmount),
      currency: 'AUD',
      mode: updated.mode as 'live' | 'test',
      succeededAt: now.toISOString(),
    });
    // The job's invoice, if billing already has the job; usually BookingCreated (booking's answer to the event
    // above) brings the job a moment later and makes it then.
    const invoice = await this.deps.invoices.ensurePrepaidInvoice(tx, updated.id);
    return { kind: 'succeeded', payment: updated, alreadySucceeded: false, invoice };
  }

  private async fail(tx: Tx, payment: Payment, now: Date, event: ProviderEvent): Promise<EventOutcome> {
    const error = event.data.object.last_payment_error ?? null;
    const failureCode = (error?.decline_code ?? error?.code ?? null)?.slice(0, 100) ?? null;
    const failureMessage = error?.message?.slice(0, 1000) ?? null;
    // A late failure report never undoes a success; each failed attempt (a new event) is reported once.
    if (payment.status === 'succeeded') return { kind: 'ignored', reason: 'already succeeded' };
    const updated = await updatePayment(tx, payment.id, {
      status: 'failed',
      failedAt: now,
      failureCode,
      failureMessage,
    });
    // An invoice's payment: nothing for booking to hear (PaymentFailed is about a booking's checkout); the pay page
    // shows the decline and the customer tries another card on the same intent.
    if (updated.customerInvoiceId) return { kind: 'failed', payment: updated, failureCode, failureMessage };
    await this.deps.events.emit(tx, PaymentFailed, {
      paymentId: updated.id,
      paymentIntentId: updated.providerIntentId,
      quoteId: updated.quoteId,
      jobId: updated.jobId,
      amount: moneyString(updated.totalAmount),
      currency: 'AUD',
      failureCode,
      failureMessage,
      mode: updated.mode as 'live' | 'test',
      failedAt: now.toISOString(),
    });
    return { kind: 'failed', payment: updated, failureCode, failureMessage };
  }
}
