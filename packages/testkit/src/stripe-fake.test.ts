import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { parseStripeForm, startStripeFake, type StripeFake } from './stripe-fake';

// The real SDK against the fake, as billing builds it (host/port/protocol of another API base).
function sdk(fake: StripeFake, maxNetworkRetries = 0): Stripe {
  const url = new URL(fake.url);
  return new Stripe('sk_test_fake', {
    host: url.hostname,
    port: Number(url.port),
    protocol: 'http',
    maxNetworkRetries,
    telemetry: false,
  });
}

describe('parseStripeForm', () => {
  it('reads nested objects and indexed arrays as the SDK encodes them', () => {
    expect(
      parseStripeForm(
        'amount=1234&metadata[jobId]=j%201&allowed_payment_method_types[0]=card&allowed_payment_method_types[1]=x',
      ),
    ).toEqual({ amount: '1234', metadata: { jobId: 'j 1' }, allowed_payment_method_types: ['card', 'x'] });
  });
});

describe('Stripe fake with the official SDK', () => {
  let fake: StripeFake;
  let stripe: Stripe;
  beforeEach(async () => {
    fake = await startStripeFake();
    stripe = sdk(fake);
  });
  afterEach(() => fake.close());

  async function paidIntent(amount = 10_000) {
    const created = await stripe.paymentIntents.create({ amount, currency: 'aud' });
    fake.succeedPaymentIntent(created.id);
    return created;
  }

  it('creates and retrieves a PaymentIntent; the same idempotency key gives the same intent', async () => {
    const params = { amount: 16_270, currency: 'aud', metadata: { jobId: 'job-1' } };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'k-1' });
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'k-1' });
    const other = await stripe.paymentIntents.create(params, { idempotencyKey: 'k-2' });
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    expect(first).toMatchObject({ amount: 16_270, currency: 'aud', status: 'requires_payment_method' });
    expect(first.client_secret).toMatch(new RegExp(`^${first.id}_secret_`));
    expect(first.metadata).toEqual({ jobId: 'job-1' });
    expect((await stripe.paymentIntents.retrieve(first.id)).id).toBe(first.id);
    expect(fake.paymentIntents.size).toBe(2);
    // A key reused with other parameters is refused, as Stripe does.
    await expect(
      stripe.paymentIntents.create({ ...params, amount: 1_000 }, { idempotencyKey: 'k-1' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('refunds part of a paid intent, pending until settled; the key replays; over-refunding is refused', async () => {
    const paid = await paidIntent(10_000);
    const refund = await stripe.refunds.create(
      { payment_intent: paid.id, amount: 5_000, metadata: { cancellation: 'c1' } },
      { idempotencyKey: 'refund-c1' },
    );
    const replay = await stripe.refunds.create(
      { payment_intent: paid.id, amount: 5_000, metadata: { cancellation: 'c1' } },
      { idempotencyKey: 'refund-c1' },
    );
    expect(replay.id).toBe(refund.id);
    expect(refund).toMatchObject({ amount: 5_000, status: 'pending', payment_intent: paid.id });
    expect(fake.refunds.size).toBe(1);
    expect(fake.requests.filter((r) => r.path === '/v1/refunds').map((r) => r.idempotencyKey)).toEqual([
      'refund-c1',
      'refund-c1',
    ]);

    const [updated, charge] = fake.settleRefund(refund.id, 'succeeded');
    expect(updated?.type).toBe('refund.updated');
    expect(updated?.data.object).toMatchObject({ id: refund.id, status: 'succeeded' });
    expect(charge?.type).toBe('charge.refunded');
    expect(charge?.data.object).toMatchObject({
      payment_intent: paid.id,
      amount_refunded: 5_000,
      refunded: false,
    });
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('succeeded');

    await expect(stripe.refunds.create({ payment_intent: paid.id, amount: 6_000 })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'amount_too_large',
    });
    await expect(
      stripe.refunds.create({
        payment_intent: (await stripe.paymentIntents.create({ amount: 900, currency: 'aud' })).id,
      }),
    ).rejects.toMatchObject({ code: 'charge_not_refundable' });
  });

  it('a failed refund settles as failed with its reason, and only refund.updated is sent', async () => {
    const paid = await paidIntent();
    const refund = await stripe.refunds.create({ payment_intent: paid.id });
    expect(refund.amount).toBe(10_000);
    const events = fake.settleRefund(refund.id, 'failed');
    expect(events.map((e) => e.type)).toEqual(['refund.updated']);
    expect(events[0]?.data.object).toMatchObject({
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
    });
  });

  it('injected failures: the next call(s) or every call, not stored under the idempotency key', async () => {
    const paid = await paidIntent();
    fake.failNext('/v1/refunds', 1, { shouldRetry: false });
    await expect(
      stripe.refunds.create({ payment_intent: paid.id }, { idempotencyKey: 'r-1' }),
    ).rejects.toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    const after = await stripe.refunds.create({ payment_intent: paid.id }, { idempotencyKey: 'r-1' });
    expect(after.status).toBe('pending');

    fake.failAlways('/v1/refunds', { status: 402, type: 'card_error', code: 'card_declined', message: 'no' });
    for (let i = 0; i < 3; i++)
      await expect(stripe.refunds.create({ payment_intent: paid.id })).rejects.toMatchObject({
        statusCode: 402,
        code: 'card_declined',
      });
    fake.clearFailures();
    // The SDK's own retries (a 500 without Stripe-Should-Retry) reach the fake with the same key.
    const retrying = sdk(fake, 2);
    fake.failNext('/v1/payment_intents', 1);
    const intent = await retrying.paymentIntents.create(
      { amount: 5_000, currency: 'aud' },
      { idempotencyKey: 'pi-x' },
    );
    const calls = fake.requests.filter(
      (r) => r.path === '/v1/payment_intents' && r.idempotencyKey === 'pi-x',
    );
    expect(calls.map((c) => c.status)).toEqual([500, 200]);
    expect(intent.status).toBe('requires_payment_method');
  });

  it('refuses a request without a test secret key', async () => {
    const url = new URL(fake.url);
    const live = new Stripe('sk_live_nope', { host: url.hostname, port: Number(url.port), protocol: 'http' });
    await expect(live.paymentIntents.create({ amount: 5_000, currency: 'aud' })).rejects.toMatchObject({
      statusCode: 401,
    });
  });

  describe('webhook delivery', () => {
    let receiver: Server;
    let received: { signature: string; body: string }[];
    beforeEach(async () => {
      received = [];
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({
            signature: String(req.headers['stripe-signature']),
            body: Buffer.concat(chunks).toString('utf8'),
          });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"received":true}');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    afterEach(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

    it('signs with the SDK test header: constructEvent verifies it, a wrong secret does not', async () => {
      const { port } = receiver.address() as AddressInfo;
      fake.setWebhook({
        url: `http://127.0.0.1:${port}/api/payments/webhook`,
        secret: 'whsec_fake',
        sign: Stripe.webhooks.generateTestHeaderString,
      });
      const created = await stripe.paymentIntents.create({ amount: 5_000, currency: 'aud' });
      const answer = await fake.deliver(fake.succeedPaymentIntent(created.id));
      expect(answer).toEqual({ status: 200, body: { received: true } });
      const delivery = received[0];
      if (!delivery) throw new Error('nothing delivered');
      const event = Stripe.webhooks.constructEvent(delivery.body, delivery.signature, 'whsec_fake');
      expect(event.type).toBe('payment_intent.succeeded');
      expect(event.data.object).toMatchObject({
        id: created.id,
        status: 'succeeded',
        amount_received: 5_000,
      });
      expect(() => Stripe.webhooks.constructEvent(delivery.body, delivery.signature, 'whsec_other')).toThrow(
        /signature/i,
      );
    });
  });
});
