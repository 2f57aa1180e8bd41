import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'amqplib';
import Stripe from 'stripe';
import { getAmqpUrl, waitFor } from '@tyres/testkit';
import { fakeBooking, outbox, startTestBilling, type TestBilling } from './helpers';

jest.setTimeout(120_000);

const token = () => randomBytes(24).toString('base64url');

function booking(amount: string, over: object = {}) {
  return {
    quoteId: randomUUID(),
    jobId: null,
    bookingToken: 'x',
    amount,
    currency: 'AUD',
    status: 'quoted',
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    serviceType: 'puncture-repair',
    customer: { name: 'Pat Payer', email: 'pat@example.com', phone: '0433333333' },
    job: {
      scheduledDate: '2026-11-25',
      timeSlot: '8-10 AM',
      address: '1 Main St',
      suburb: 'Perth',
      postcode: '6000',
    },
    vehicle: { make: 'Mazda', model: '3', year: 2020, registration: 'XYZ123' },
    ...over,
  };
}

/** Binds a queue to every routing key of the suite's exchange: what billing actually published. */
async function probe(svc: TestBilling) {
  const conn = await connect(await getAmqpUrl());
  const ch = await conn.createChannel();
  const queue = `${svc.prefix}probe`;
  await ch.assertExchange(`${svc.prefix}tyres.events`, 'topic', { durable: true });
  await ch.assertQueue(queue, { durable: false });
  await ch.bindQueue(queue, `${svc.prefix}tyres.events`, 'payment.#');
  return {
    async messages() {
      const out: { type: string; data: Record<string, unknown>; id: string }[] = [];
      for (;;) {
        const msg = await ch.get(queue, { noAck: true });
        if (!msg) break;
        out.push(JSON.parse(msg.content.toString()));
      }
      return out;
    },
    close: () => conn.close(),
  };
}

describe('card payments in test mode (no Stripe keys)', () => {
  let svc: TestBilling;
  let bookings: Map<string, object>;
  let fake: Awaited<ReturnType<typeof fakeBooking>>;
  let events: Awaited<ReturnType<typeof probe>>;
  const api = () => svc.http();

  beforeAll(async () => {
    bookings = new Map();
    fake = await fakeBooking(bookings);
    svc = await startTestBilling('billing-pay-test', { BOOKING_URL: fake.url });
    events = await probe(svc);
  });
  afterAll(async () => {
    await events?.close();
    await svc?.stop();
    await fake?.close();
  });

  it('creates a payment intent with the 1.7% surcharge to the cent, clearly labelled as test mode', async () => {
    const t = token();
    bookings.set(t, booking('129.80'));
    const res = await api().post('/api/create-payment-intent-token').send({ bookingToken: t });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      originalAmount: '129.80',
      surchargeAmount: '2.21',
      totalAmount: '132.01',
      currency: 'AUD',
      mode: 'test',
      testMode: true,
    });
    expect(res.body.clientSecret).toMatch(/^test_pi_[0-9a-f]+_secret_[0-9a-f]+$/);
    expect(res.body.message).toContain('TEST MODE');
    expect(res.body.message).toContain('4242 4242 4242 4242');
    // booking was asked with the request id; the token never reaches billing's tables.
    expect(fake.calls.at(-1)?.url).toBe(`/internal/booking-token/${t}`);
    expect(fake.calls.at(-1)?.headers['x-request-id']).toEqual(expect.any(String));
    const rows = await svc.sql<{ booking_token_hash: string }>(
      'SELECT booking_token_hash FROM billing.payments',
    );
    expect(rows.every((r) => r.booking_token_hash !== t && r.booking_token_hash.length === 64)).toBe(true);

    // The same token again: the same intent.
    const again = await api().post('/api/create-payment-intent-token').send({ bookingToken: t });
    expect(again.body.clientSecret).toBe(res.body.clientSecret);
    expect(await svc.ctx.db.payment.count({ where: { clientSecret: res.body.clientSecret } })).toBe(1);

    const config = await api().get('/api/payments/config');
    expect(config.body).toMatchObject({
      mode: 'test',
      testMode: true,
      surchargeRate: '0.017',
      surchargeRatePercent: '1.70',
      surchargeRateLabel: '1.7%',
    });
  });

  it('states the card surcharge rate in force on the price list in /api/payments/config (issue 19), or 503', async () => {
    try {
      fake.rate.value = '1.50';
      const changed = await api().get('/api/payments/config');
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({
        mode: 'test',
        testMode: true,
        surchargeRate: '0.015',
        surchargeRatePercent: '1.50',
        surchargeRateLabel: '1.5%',
      });
      expect(fake.calls.at(-1)?.url).toBe('/internal/card-surcharge-rate');
      fake.rate.value = '1.75';
      expect((await api().get('/api/payments/config')).body).toMatchObject({
        surchargeRate: '0.0175',
        surchargeRatePercent: '1.75',
        surchargeRateLabel: '1.75%',
      });
      // Booking cannot confirm the rate: no guessed rate is shown.
      fake.rate.value = null;
      const down = await api().get('/api/payments/config');
      expect(down.status).toBe(503);
      expect(down.body.message).toBe(
        'Card payments are unavailable for a moment: we could not confirm the card surcharge. Please try again in a few minutes.',
      );
    } finally {
      fake.rate.value = '1.70';
    }
  });

  it("charges the prepaid quote's own surcharge rate (issue 19: stored with the quote) and records it", async () => {
    const t = token();
    bookings.set(t, booking('129.80', { cardSurchargeRate: '1.50' }));
    const res = await api().post('/api/create-payment-intent-token').send({ bookingToken: t });
    expect(res.status).toBe(200);
    // $129.80 × 1.5% = 1.947 → 1.95 (half-up)
    expect(res.body).toMatchObject({
      originalAmount: '129.80',
      surchargeRate: '1.5%',
      surchargeAmount: '1.95',
      totalAmount: '131.75',
    });
    expect(res.body.message).toContain('A card surcharge of 1.5% ($1.95) applies to card payments.');
    const row = await svc.ctx.db.payment.findFirstOrThrow({ where: { clientSecret: res.body.clientSecret } });
    expect(row.surchargeRate?.toFixed(2)).toBe('1.50');
    // A quote from before the rate was recorded (no field): the 1.70% it was given.
    const old = token();
    bookings.set(old, booking('129.80'));
    const oldRes = await api().post('/api/create-payment-intent-token').send({ bookingToken: old });
    expect(oldRes.body).toMatchObject({ surchargeRate: '1.7%', surchargeAmount: '2.21' });
  });

  it('answers the spec errors: missing token, unknown or expired booking, booking unreachable', async () => {
    expect((await api().post('/api/create-payment-intent-token').send({})).body.message).toBe(
      'Booking token is required',
    );
    const unknown = await api().post('/api/create-payment-intent-token').send({ bookingToken: token() });
    expect(unknown.status).toBe(404);
    const expired = token();
    bookings.set(expired, booking('50.00', { status: 'expired' }));
    expect(
      (await api().post('/api/create-payment-intent-token').send({ bookingToken: expired })).status,
    ).toBe(404);
    const onsite = token();
    bookings.set(onsite, booking('50.00', { status: 'confirmed', paymentStatus: 'pending' }));
    expect((await api().post('/api/create-payment-intent-token').send({ bookingToken: onsite })).status).toBe(
      409,
    );
    const free = token();
    bookings.set(free, booking('0.00'));
    expect((await api().post('/api/create-payment-intent-token').send({ bookingToken: free })).status).toBe(
      400,
    );

    const down = await startTestBilling('billing-pay-down', { BOOKING_URL: 'http://127.0.0.1:9' });
    try {
      const res = await down.http().post('/api/create-payment-intent-token').send({ bookingToken: token() });
      expect(res.status).toBe(502);
      expect(res.body.message).toBe('Unable to initialize payment. Please try again.');
    } finally {
      await down.stop();
    }
  });

  it('4242 4242 4242 4242 succeeds through the same path as the webhook: PaymentSucceeded once, even when confirmed again', async () => {
    const t = token();
    const quote = booking('99.80');
    bookings.set(t, quote);
    const intent = (await api().post('/api/create-payment-intent-token').send({ bookingToken: t })).body;
    const confirm = () =>
      api()
        .post('/api/payments/test-mode/confirm')
        .send({ clientSecret: intent.clientSecret, cardNumber: '4242 4242 4242 4242' });
    const [a, b] = await Promise.all([confirm(), confirm()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.status).toBe('succeeded');
    expect((await confirm()).body.status).toBe('succeeded');

    const succeeded = (await outbox(svc, 'payment.succeeded.v1')).filter(
      (e) => e.data.paymentIntentId === intent.paymentIntentId,
    );
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.data).toMatchObject({
      quoteId: quote.quoteId,
      originalAmount: '99.80',
      surchargeAmount: '1.70',
      amount: '101.50',
      currency: 'AUD',
      mode: 'test',
    });
    // And it reached the broker (outbox relay), once.
    await waitFor(async () => (await svc.ctx.db.outboxEvent.count({ where: { publishedAt: null } })) === 0, {
      timeoutMs: 10_000,
    });
    const published = (await events.messages()).filter(
      (m) => m.type === 'payment.succeeded.v1' && m.data.paymentIntentId === intent.paymentIntentId,
    );
    expect(published).toHaveLength(1);

    // A paid booking cannot be paid again.
    expect((await api().post('/api/create-payment-intent-token').send({ bookingToken: t })).status).toBe(409);
  });

  it('4000 0000 0000 0002 is declined: 402 with the provider message and PaymentFailed; the intent can still succeed after', async () => {
    const t = token();
    bookings.set(t, booking('40.00'));
    const intent = (await api().post('/api/create-payment-intent-token').send({ bookingToken: t })).body;
    const declined = await api()
      .post('/api/payments/test-mode/confirm')
      .send({ clientSecret: intent.clientSecret, cardNumber: '4000000000000002' });
    expect(declined.status).toBe(402);
    expect(declined.body).toMatchObject({
      status: 'failed',
      message: 'Your card was declined.',
      code: 'card_declined',
      declineCode: 'generic_decline',
    });
    const failed = (await outbox(svc, 'payment.failed.v1')).filter(
      (e) => e.data.paymentIntentId === intent.paymentIntentId,
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]?.data).toMatchObject({
      amount: '40.68',
      failureCode: 'generic_decline',
      failureMessage: 'Your card was declined.',
      mode: 'test',
    });

    const notATestCard = await api()
      .post('/api/payments/test-mode/confirm')
      .send({ clientSecret: intent.clientSecret, cardNumber: '4111 1111 1111 1111' });
    expect(notATestCard.status).toBe(400);
    expect(
      (
        await api()
          .post('/api/payments/test-mode/confirm')
          .send({ clientSecret: `${intent.paymentIntentId}_secret_wrong`, cardNumber: '4242424242424242' })
      ).status,
    ).toBe(404);

    const ok = await api()
      .post('/api/payments/test-mode/confirm')
      .send({ clientSecret: intent.clientSecret, cardNumber: '4242424242424242' });
    expect(ok.body.status).toBe('succeeded');
  });

  it('the webhook is not configured in test mode: every call is 400, never applied (issue 14 item 8)', async () => {
    const res = await api().post('/api/payments/webhook').set('stripe-signature', 't=1,v1=x').send('{}');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message:
        'Stripe webhooks are not set up here: STRIPE_WEBHOOK_SECRET is not configured, so no signature can be verified',
      code: 'webhook_not_configured',
    });
    const unsigned = await api().post('/api/payments/webhook').send('{}');
    expect(unsigned.status).toBe(400);
    expect(unsigned.body.message).toBe('Missing Stripe-Signature header');
  });
});

describe('card payments with Stripe (fake Stripe API) and signed webhooks', () => {
  const WEBHOOK_SECRET = 'whsec_test_billing_secret';
  let svc: TestBilling;
  let bookings: Map<string, object>;
  let fake: Awaited<ReturnType<typeof fakeBooking>>;
  let stripeServer: http.Server;
  const stripeCalls: { path: string; idempotencyKey?: string; body: URLSearchParams }[] = [];
  const api = () => svc.http();

  beforeAll(async () => {
    bookings = new Map();
    fake = await fakeBooking(bookings);
    // Enough of Stripe's API for PaymentIntent creation; the same idempotency key answers the same intent.
    const byKey = new Map<string, object>();
    stripeServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const key = req.headers['idempotency-key'] as string | undefined;
        const params = new URLSearchParams(body);
        stripeCalls.push({ path: req.url ?? '', idempotencyKey: key, body: params });
        res.setHeader('content-type', 'application/json');
        res.setHeader('request-id', `req_${randomBytes(6).toString('hex')}`);
        if (req.method !== 'POST' || req.url !== '/v1/payment_intents') {
          res.statusCode = 404;
          res.end(
            JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }),
          );
          return;
        }
        const existing = key ? byKey.get(key) : undefined;
        const id = `pi_${randomBytes(12).toString('hex')}`;
        const intent = existing ?? {
          id,
          object: 'payment_intent',
          amount: Number(params.get('amount')),
          currency: params.get('currency'),
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
          metadata: {},
        };
        if (key) byKey.set(key, intent);
        res.end(JSON.stringify(intent));
      });
    });
    await new Promise<void>((resolve) => stripeServer.listen(0, '127.0.0.1', resolve));
    const { port } = stripeServer.address() as AddressInfo;
    svc = await startTestBilling('billing-pay-live', {
      BOOKING_URL: fake.url,
      STRIPE_SECRET_KEY: 'sk_test_billing',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: `http://127.0.0.1:${port}`,
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await fake?.close();
    await new Promise<void>((resolve) => stripeServer?.close(() => resolve()));
  });

  async function createIntent(amount: string) {
    const t = token();
    const quote = booking(amount);
    bookings.set(t, quote);
    const res = await api().post('/api/create-payment-intent-token').send({ bookingToken: t });
    expect(res.status).toBe(200);
    return { t, quote, intent: res.body };
  }

  function sign(event: object, secret = WEBHOOK_SECRET) {
    const payload = JSON.stringify(event);
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  const webhook = (payload: string, header?: string) => {
    const req = api().post('/api/payments/webhook').set('content-type', 'application/json');
    return (header ? req.set('stripe-signature', header) : req).send(payload);
  };

  it('creates a Stripe PaymentIntent for amount + 1.7% with an idempotency key per booking token', async () => {
    const { t, intent } = await createIntent('526.20');
    expect(intent).toMatchObject({
      originalAmount: '526.20',
      surchargeAmount: '8.95',
      totalAmount: '535.15',
      mode: 'live',
      testMode: false,
    });
    expect(intent.message).not.toContain('TEST MODE');
    const call = stripeCalls.at(-1)!;
    expect(call.body.get('amount')).toBe('53515');
    expect(call.body.get('currency')).toBe('aud');
    expect(call.idempotencyKey).toMatch(/^payment-intent-[0-9a-f]{40}-53515$/);
    // The test-mode confirmation does not exist with real keys.
    expect(
      (
        await api()
          .post('/api/payments/test-mode/confirm')
          .send({ clientSecret: intent.clientSecret, cardNumber: '4242424242424242' })
      ).status,
    ).toBe(404);
    // A retried request for the same token: same intent.
    await svc.ctx.db.payment.deleteMany({ where: { providerIntentId: intent.paymentIntentId } }); // as if the first answer was lost
    const retry = await api().post('/api/create-payment-intent-token').send({ bookingToken: t });
    expect(retry.body.paymentIntentId).toBe(intent.paymentIntentId);
    expect(stripeCalls.at(-1)!.idempotencyKey).toBe(call.idempotencyKey);
  });

  it('verifies webhook signatures: payment_intent.succeeded → PaymentSucceeded; bad signature 400; replay has no second effect', async () => {
    const { quote, intent } = await createIntent('129.80');
    const event = {
      id: `evt_${randomBytes(10).toString('hex')}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: intent.paymentIntentId,
          object: 'payment_intent',
          amount: 13201,
          amount_received: 13201,
          currency: 'aud',
          status: 'succeeded',
        },
      },
    };
    const signed = sign(event);

    const forged = sign(event, 'whsec_wrong');
    expect((await webhook(signed.payload, forged.header)).status).toBe(400);
    expect((await webhook(signed.payload)).status).toBe(400);
    // A body changed after signing fails too.
    expect((await webhook(signed.payload.replace('13201', '1'), signed.header)).status).toBe(400);
    expect(
      (await outbox(svc, 'payment.succeeded.v1')).filter(
        (e) => e.data.paymentIntentId === intent.paymentIntentId,
      ),
    ).toHaveLength(0);

    const ok = await webhook(signed.payload, signed.header);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ received: true, duplicate: false, outcome: 'succeeded' });
    const replay = await webhook(signed.payload, signed.header);
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ received: true, duplicate: true });
    // Stripe may also send a second event for the same intent: still one PaymentSucceeded.
    const second = sign({ ...event, id: `evt_${randomBytes(10).toString('hex')}` });
    expect((await webhook(second.payload, second.header)).status).toBe(200);

    const succeeded = (await outbox(svc, 'payment.succeeded.v1')).filter(
      (e) => e.data.paymentIntentId === intent.paymentIntentId,
    );
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.data).toMatchObject({
      quoteId: quote.quoteId,
      originalAmount: '129.80',
      surchargeAmount: '2.21',
      amount: '132.01',
      mode: 'live',
    });
    expect(
      (await svc.ctx.db.payment.findUnique({ where: { providerIntentId: intent.paymentIntentId } }))?.status,
    ).toBe('succeeded');
  });

  it('payment_intent.payment_failed → PaymentFailed with the provider code; unknown intents and other events are acknowledged and ignored', async () => {
    const { intent } = await createIntent('40.00');
    const failed = sign({
      id: `evt_${randomBytes(10).toString('hex')}`,
      type: 'payment_intent.payment_failed',
      data: {
        object: {
          id: intent.paymentIntentId,
          object: 'payment_intent',
          last_payment_error: {
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
          },
        },
      },
    });
    expect((await webhook(failed.payload, failed.header)).body.outcome).toBe('failed');
    const events = (await outbox(svc, 'payment.failed.v1')).filter(
      (e) => e.data.paymentIntentId === intent.paymentIntentId,
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({
      failureCode: 'insufficient_funds',
      failureMessage: 'Your card has insufficient funds.',
      mode: 'live',
    });

    const unknown = sign({
      id: `evt_${randomBytes(10).toString('hex')}`,
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_not_ours' } },
    });
    expect((await webhook(unknown.payload, unknown.header)).body).toMatchObject({
      received: true,
      outcome: 'ignored',
    });
    const other = sign({
      id: `evt_${randomBytes(10).toString('hex')}`,
      type: 'charge.refunded',
      data: { object: { id: 'ch_1' } },
    });
    expect((await webhook(other.payload, other.header)).body).toMatchObject({
      received: true,
      outcome: 'ignored',
    });
  });

  it('a correctly signed body that is not a usable Stripe event is refused (400) or ignored, never a 500', async () => {
    const notJson = 'this is not json';
    const notJsonHeader = Stripe.webhooks.generateTestHeaderString({
      payload: notJson,
      secret: WEBHOOK_SECRET,
    });
    expect((await webhook(notJson, notJsonHeader)).status).toBe(400);
    for (const body of [
      {},
      { id: 'evt_1' },
      { id: 'evt_2', type: 'payment_intent.succeeded' },
      { id: 3, type: 'x', data: { object: {} } },
      [],
    ]) {
      const signed = sign(body);
      const res = await webhook(signed.payload, signed.header);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    // A payment_intent event whose object carries no id: acknowledged, nothing applied.
    const noId = sign({
      id: `evt_${randomBytes(10).toString('hex')}`,
      type: 'payment_intent.succeeded',
      data: { object: {} },
    });
    const res = await webhook(noId.payload, noId.header);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ received: true, outcome: 'ignored' });
  });
});

describe('the Stripe webhook in development (NODE_ENV=development, test mode; issue 14 item 8)', () => {
  const DEV_SECRET = 'whsec_dev_from_stripe_listen';
  let bookings: Map<string, object>;
  let fake: Awaited<ReturnType<typeof fakeBooking>>;

  beforeAll(async () => {
    bookings = new Map();
    fake = await fakeBooking(bookings);
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function testIntent(svc: TestBilling) {
    const t = token();
    bookings.set(t, booking('129.80'));
    const res = await svc.http().post('/api/create-payment-intent-token').send({ bookingToken: t });
    expect(res.status).toBe(200);
    return res.body as { clientSecret: string; paymentIntentId: string };
  }

  const succeeded = (intentId: string) => ({
    id: `evt_${randomBytes(8).toString('hex')}`,
    type: 'payment_intent.succeeded',
    data: { object: { id: intentId, object: 'payment_intent', status: 'succeeded', amount: 13201 } },
  });

  it('without a secret: unsigned and signed calls are 400 with a clear message, nothing applied; test cards still pay', async () => {
    const svc = await startTestBilling('billing-dev-nosecret', {
      NODE_ENV: 'development',
      BOOKING_URL: fake.url,
    });
    try {
      const intent = await testIntent(svc);
      const body = JSON.stringify(succeeded(intent.paymentIntentId));
      const unsigned = await svc
        .http()
        .post('/api/payments/webhook')
        .set('content-type', 'application/json')
        .send(body);
      expect(unsigned.status).toBe(400);
      expect(unsigned.body).toEqual({
        message: 'Missing Stripe-Signature header',
        code: 'invalid_signature',
      });
      const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: DEV_SECRET });
      const signed = await svc
        .http()
        .post('/api/payments/webhook')
        .set('content-type', 'application/json')
        .set('stripe-signature', header)
        .send(body);
      expect(signed.status).toBe(400);
      expect(signed.body.code).toBe('webhook_not_configured');
      expect(signed.body.message).toContain('STRIPE_WEBHOOK_SECRET is not configured');
      const payment = await svc.ctx.db.payment.findUnique({
        where: { providerIntentId: intent.paymentIntentId },
      });
      expect(payment?.status).toBe('requires_payment_method');
      expect(await outbox(svc, 'payment.succeeded.v1')).toEqual([]);

      // The checkout's test-card path does not need the webhook.
      const paid = await svc
        .http()
        .post('/api/payments/test-mode/confirm')
        .send({ clientSecret: intent.clientSecret, cardNumber: '4242 4242 4242 4242' });
      expect(paid.status).toBe(200);
      expect(paid.body.status).toBe('succeeded');
      expect(await outbox(svc, 'payment.succeeded.v1')).toHaveLength(1);
    } finally {
      await svc.stop();
    }
  });

  it('with a secret (e.g. from `stripe listen`): a correctly signed event is applied once; unsigned or forged are 400', async () => {
    const svc = await startTestBilling('billing-dev-secret', {
      NODE_ENV: 'development',
      BOOKING_URL: fake.url,
      STRIPE_WEBHOOK_SECRET: DEV_SECRET,
    });
    try {
      const intent = await testIntent(svc);
      const body = JSON.stringify(succeeded(intent.paymentIntentId));
      const post = (header?: string) => {
        const req = svc.http().post('/api/payments/webhook').set('content-type', 'application/json');
        return (header ? req.set('stripe-signature', header) : req).send(body);
      };
      expect((await post()).status).toBe(400);
      const forged = Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: 'whsec_someone_else',
      });
      expect((await post(forged)).body).toEqual({
        message: 'Invalid Stripe signature',
        code: 'invalid_signature',
      });
      expect(await outbox(svc, 'payment.succeeded.v1')).toEqual([]);

      const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: DEV_SECRET });
      const ok = await post(header);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ received: true, duplicate: false, outcome: 'succeeded' });
      expect((await post(header)).body).toEqual({ received: true, duplicate: true, outcome: 'duplicate' });
      const events = await outbox(svc, 'payment.succeeded.v1');
      expect(events).toHaveLength(1);
      expect(events[0]?.data).toMatchObject({
        paymentIntentId: intent.paymentIntentId,
        amount: '132.01',
        mode: 'test',
      });
    } finally {
      await svc.stop();
    }
  });
});
