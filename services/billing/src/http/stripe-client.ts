import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { ProviderEvent } from '../domain/provider-event';

export { isProviderEvent, type ProviderEvent } from '../domain/provider-event';

export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

export interface CreateIntentInput {
  amountCents: number;
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
  receiptEmail?: string;
}

export interface RefundInput {
  paymentIntentId: string;
  amountCents: number;
  /** Derived from the cancellation event: a retried request gets the same refund back, never a second one. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** The provider's refund as created: `pending` until a refund webhook settles it, or settled already. */
export interface ProviderRefund {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  failureReason: string | null;
}

export interface PaymentProvider {
  readonly mode: 'live' | 'test';
  createIntent(input: CreateIntentInput): Promise<CreatedIntent>;
  refund(input: RefundInput): Promise<ProviderRefund>;
}

/** Stripe's refund statuses in billing's words (`requires_action` and `canceled` are not settled successes). */
export function refundStatus(status: string | null | undefined): ProviderRefund['status'] {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed' || status === 'canceled') return 'failed';
  return 'pending';
}

export function stripeClient(secretKey: string, apiBase?: string): Stripe {
  const base = apiBase ? new URL(apiBase) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Stripe PaymentIntents. The idempotency key makes a retried create return the first intent (or error). */
export function stripeProvider(stripe: Stripe): PaymentProvider {
  return {
    mode: 'live',
    async createIntent(input) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: 'aud',
          allowed_payment_method_types: ['card'],
          description: input.description,
          metadata: input.metadata,
          ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!intent.client_secret)
        throw new Error(`Stripe returned PaymentIntent ${intent.id} without a client secret`);
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async refund(input) {
      const refund = await stripe.refunds.create(
        {
          payment_intent: input.paymentIntentId,
          amount: input.amountCents,
          reason: 'requested_by_customer',
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return {
        id: refund.id,
        status: refundStatus(refund.status),
        failureReason: refund.failure_reason ?? null,
      };
    },
  };
}

/**
 * Test mode (no Stripe keys): intents are local, ids `test_pi_...`, and the checkout confirms them with Stripe's test
 * card numbers through POST /api/payments/test-mode/confirm, which feeds the same event handler as the webhook.
 */
export function testModeProvider(): PaymentProvider {
  return {
    mode: 'test',
    async createIntent() {
      const id = `test_pi_${randomBytes(12).toString('hex')}`;
      return { id, clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}` };
    },
    // Test mode: nothing was charged, so nothing goes back; the refund succeeds locally at once (id `test_re_...`).
    async refund() {
      return { id: `test_re_${randomBytes(12).toString('hex')}`, status: 'succeeded', failureReason: null };
    },
  };
}

/** Verifies a webhook delivery (raw body + Stripe-Signature) and parses it; throws on a bad signature. */
export function verifyStripeWebhook(rawBody: Buffer, signature: string, secret: string): ProviderEvent {
  return Stripe.webhooks.constructEvent(rawBody, signature, secret) as unknown as ProviderEvent;
}
