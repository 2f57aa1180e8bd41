import { randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { BookingCancelled, BookingCreated, createEvent, type EventInput } from '@tyres/events';
import { startStripeFake, waitFor, type StripeFake } from '@tyres/testkit';
import {
  bookingCreated,
  fakeBooking,
  outbox,
  startTestBilling,
  technician,
  type TestBilling,
} from './helpers';

jest.setTimeout(120_000);

/**
 * Issue 18: a cancelled booking's refund and invoices, with the official Stripe SDK talking to the local Stripe fake
 * (PAYMENTS live: STRIPE_SECRET_KEY + STRIPE_API_BASE) and refund webhooks signed by the SDK's test header helper.
 */
describe('refunds of cancelled prepaid bookings (Stripe fake, real SDK)', () => {
  const WEBHOOK_SECRET = 'whsec_refunds_test_secret';
  let svc: TestBilling;
  let stripe: StripeFake;
  let bookings: Map<string, object>;
  let booking: Awaited<ReturnType<typeof fakeBooking>>;
  const api = () => svc.http();

  beforeAll(async () => {
    stripe = await startStripeFake();
    bookings = new Map();
    booking = await fakeBooking(bookings);
    svc = await startTestBilling('billing-refunds', {
      BOOKING_URL: booking.url,
      STRIPE_SECRET_KEY: 'sk_test_refunds',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      REFUND_ATTEMPTS: '3',
      REFUND_BACKOFF_MS: '100',
    });
    stripe.setWebhook({
      url: `${svc.baseUrl}/api/payments/webhook`,
      secret: WEBHOOK_SECRET,
      sign: Stripe.webhooks.generateTestHeaderString,
    });
  });
  afterEach(() => stripe.clearFailures());
  afterAll(async () => {
    await svc?.stop();
    await booking?.close();
    await stripe?.close();
  });

  const adminToken = () => svc.token(svc.admin);

  /**
   * A prepaid booking paid by card through the fake: (139 + 25 + 15) × 2 + 89.80 − 30 = 417.80, card total 424.90
   * with the 1.7% surcharge; its paid invoice issued once billing has both the payment and the job.
   */
  async function paidPrepaidBooking() {
    const jobId = randomUUID();
    const token = randomBytes(24).toString('base64url');
    bookings.set(token, {
      quoteId: randomUUID(),
      jobId,
      bookingToken: 'x',
      amount: '417.80',
      currency: 'AUD',
      status: 'quoted',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      serviceType: 'new-tyres',
      customer: { name: 'Pat Prepaid', email: 'pat@example.com', phone: '0433333333' },
    });
    const intent = await api().post('/api/create-payment-intent-token').send({ bookingToken: token });
    expect(intent.status).toBe(200);
    const paymentIntentId = intent.body.paymentIntentId as string;
    expect(stripe.paymentIntents.get(paymentIntentId)?.amount).toBe(42_490);
    const paid = await stripe.deliver(stripe.succeedPaymentIntent(paymentIntentId));
    expect(paid).toMatchObject({ status: 200, body: { outcome: 'succeeded' } });
    const job = bookingCreated({
      jobId,
      tyreQuantity: 2,
      tyreBrand: null,
      customerValue: '417.80',
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      stripePaymentIntentId: paymentIntentId,
    });
    await svc.publish(BookingCreated, job);
    const invoice = await waitFor(
      () => svc.ctx.db.customerInvoice.findUnique({ where: { paymentIntentId } }),
      { timeoutMs: 10_000, message: 'paid invoice of the prepaid booking' },
    );
    expect(invoice).toMatchObject({ status: 'paid' });
    expect(invoice.totalAmount.toFixed(2)).toBe('424.90');
    return { jobId, jobNumber: job.jobNumber, paymentIntentId, invoiceId: invoice.id };
  }

  function cancellation(
    job: { jobId: string; jobNumber: string; paymentIntentId?: string | null },
    terms: Pick<
      EventInput<typeof BookingCancelled>,
      'band' | 'refundPercent' | 'refund' | 'fee' | 'feeWaived' | 'paymentMethod'
    >,
  ): EventInput<typeof BookingCancelled> {
    return {
      jobId: job.jobId,
      jobNumber: job.jobNumber,
      slot: { scheduledDate: '2026-11-27', timeSlot: '10-12 AM' },
      cancelledAt: new Date().toISOString(),
      cancelledBy: 'customer',
      reason: null,
      paymentIntentId: job.paymentIntentId ?? null,
      ...terms,
    };
  }

  /** Publishes the cancellation (with a given event id to redeliver it) and waits until billing handled it. */
  async function cancel(data: EventInput<typeof BookingCancelled>, id?: string): Promise<string> {
    const event = createEvent(BookingCancelled, data, {
      source: 'booking',
      correlationId: randomUUID(),
      ...(id ? { id } : {}),
    });
    await svc.publisher.publish(event);
    await waitFor(
      async () =>
        (await svc.ctx.db.inboxEvent.count({
          where: { eventId: event.id, handler: 'billing.refunds.bookingCancelled' },
        })) === 1,
      { timeoutMs: 10_000, message: 'cancellation handled' },
    );
    return event.id;
  }

  const refundOf = (jobId: string) => svc.ctx.db.refund.findUnique({ where: { jobId } });
  const refundCalls = (key: string) =>
    stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/refunds' && r.idempotencyKey === key,
    );
  const invoicesOf = (jobId: string) =>
    svc.ctx.db.customerInvoice.findMany({
      where: { jobId },
      include: { items: true },
      orderBy: { createdAt: 'asc' },
    });

  async function settle(providerRefundId: string, outcome: 'succeeded' | 'failed') {
    for (const event of stripe.settleRefund(providerRefundId, outcome)) {
      const answer = await stripe.deliver(event);
      expect(answer).toMatchObject({ status: 200, body: { outcome: 'refund' } });
    }
  }

  it('30 h ahead: the whole charge refunded once (idempotency key of the event), succeeded by the webhook, the invoice cancelled', async () => {
    const job = await paidPrepaidBooking();
    const data = cancellation(job, {
      band: 'full_refund',
      refundPercent: 100,
      refund: '424.90',
      fee: '0.00',
      feeWaived: false,
      paymentMethod: 'prepaid',
    });
    const eventId = await cancel(data);
    const pending = await waitFor(
      async () => {
        const r = await refundOf(job.jobId);
        return r?.status === 'pending' ? r : undefined;
      },
      { timeoutMs: 10_000, message: 'refund accepted by Stripe' },
    );
    expect(pending).toMatchObject({ attempts: 1, lastError: null, mode: 'live', refundPercent: 100 });
    expect(pending.amount.toFixed(2)).toBe('424.90');
    const calls = refundCalls(`refund-${eventId}`);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.params).toMatchObject({
      payment_intent: job.paymentIntentId,
      amount: '42490',
      metadata: { refundId: pending.id, jobId: job.jobId },
    });

    // Redelivered (same event id), and a second cancellation event for the job: still one refund, one request.
    await cancel(data, eventId);
    await cancel({ ...data, cancelledAt: new Date().toISOString() });
    expect(await svc.ctx.db.refund.count({ where: { jobId: job.jobId } })).toBe(1);
    expect(stripe.refunds.size).toBeGreaterThanOrEqual(1);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === job.paymentIntentId)).toHaveLength(
      1,
    );

    await settle(pending.providerRefundId as string, 'succeeded');
    const done = await refundOf(job.jobId);
    expect(done).toMatchObject({ status: 'succeeded', lastError: null });
    expect(done?.succeededAt).toBeInstanceOf(Date);
    // A redelivered webhook event is acknowledged as a duplicate (provider_events).
    const replay = stripe.event('refund.updated', {
      ...stripe.refunds.get(pending.providerRefundId as string)!,
    });
    expect((await stripe.deliver(replay)).body).toMatchObject({ outcome: 'refund' });
    expect((await stripe.deliver(replay)).body).toMatchObject({ outcome: 'duplicate', duplicate: true });

    const invoices = await invoicesOf(job.jobId);
    expect(invoices.map((i) => [i.id, i.status])).toEqual([[job.invoiceId, 'cancelled']]);
    const updated = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
      (e) => e.data.jobId === job.jobId,
    );
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({
      causationId: eventId,
      data: { invoiceId: job.invoiceId, status: 'cancelled', changedFields: ['status'] },
    });
  });

  it('18 h ahead: 50% refunded, the paid invoice replaced by a paid "Cancellation fee (50%)" invoice; fee + refund = charge, GST 1/11', async () => {
    const job = await paidPrepaidBooking();
    const half = cancellation(job, {
      band: 'half_refund',
      refundPercent: 50,
      refund: '212.45',
      fee: '212.45',
      feeWaived: false,
      paymentMethod: 'prepaid',
    });
    const eventId = await cancel(half);
    // Another cancellation event for the same job: neither a second refund nor a second fee invoice.
    await cancel({ ...half, cancelledAt: new Date().toISOString() });
    const pending = await waitFor(
      async () => {
        const r = await refundOf(job.jobId);
        return r?.status === 'pending' ? r : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(refundCalls(`refund-${eventId}`)[0]?.params).toMatchObject({ amount: '21245' });
    await settle(pending.providerRefundId as string, 'succeeded');
    expect((await refundOf(job.jobId))?.status).toBe('succeeded');

    const invoices = await invoicesOf(job.jobId);
    expect(invoices).toHaveLength(2);
    const [original, fee] = invoices;
    expect(original).toMatchObject({ id: job.invoiceId, status: 'cancelled' });
    expect(fee).toMatchObject({ status: 'paid', amountType: 'inclusive', paymentIntentId: null });
    expect(fee?.paidAt).toBeInstanceOf(Date);
    expect(
      fee?.items.map((i) => [i.description, i.category, i.quantity, i.totalPrice.toFixed(2), i.gstFree]),
    ).toEqual([['Cancellation fee (50%)', 'callout', 1, '212.45', false]]);
    expect(fee?.totalAmount.toFixed(2)).toBe('212.45');
    expect(fee?.gstAmount.toFixed(2)).toBe('19.31'); // 212.45 ÷ 11 = 19.3136…
    expect(fee?.subtotalAmount.toFixed(2)).toBe('193.14');
    expect(Number(fee?.totalAmount) * 100 + Number(pending.amount) * 100).toBe(42_490);
    const issued = (await outbox(svc, 'customer-invoice.issued.v2')).filter(
      (e) => e.data.jobId === job.jobId && e.causationId === eventId,
    );
    expect(issued).toHaveLength(1);
    expect(issued[0]?.data).toMatchObject({ status: 'paid', totalAmount: '212.45', gstAmount: '19.31' });
  });

  it('under 12 h ahead: no refund, the paid invoice stands', async () => {
    const job = await paidPrepaidBooking();
    await cancel(
      cancellation(job, {
        band: 'no_refund',
        refundPercent: 0,
        refund: '0.00',
        fee: '424.90',
        feeWaived: false,
        paymentMethod: 'prepaid',
      }),
    );
    expect(await refundOf(job.jobId)).toBeNull();
    expect((await invoicesOf(job.jobId)).map((i) => i.status)).toEqual(['paid']);
  });

  it('Stripe failing the first call: the worker retries with the same key and the refund goes through', async () => {
    const job = await paidPrepaidBooking();
    stripe.failNext('/v1/refunds', 1, {
      status: 500,
      message: 'Stripe is having a moment',
      shouldRetry: false,
    });
    const eventId = await cancel(
      cancellation(job, {
        band: 'full_refund',
        refundPercent: 100,
        refund: '424.90',
        fee: '0.00',
        feeWaived: false,
        paymentMethod: 'prepaid',
      }),
    );
    const pending = await waitFor(
      async () => {
        const r = await refundOf(job.jobId);
        return r?.status === 'pending' ? r : undefined;
      },
      { timeoutMs: 15_000, message: 'refund retried and accepted' },
    );
    expect(pending.attempts).toBe(2);
    expect(refundCalls(`refund-${eventId}`).map((c) => c.status)).toEqual([500, 200]);
  });

  it('Stripe failing every call: the refund shows as failed with its error, listed for staff; the retry endpoint gets it through', async () => {
    const job = await paidPrepaidBooking();
    stripe.failAlways('/v1/refunds', {
      status: 402,
      type: 'invalid_request_error',
      code: 'charge_disputed',
      message: 'This charge is disputed',
    });
    const eventId = await cancel(
      cancellation(job, {
        band: 'full_refund',
        refundPercent: 100,
        refund: '424.90',
        fee: '0.00',
        feeWaived: false,
        paymentMethod: 'prepaid',
      }),
    );
    const failed = await waitFor(
      async () => {
        const r = await refundOf(job.jobId);
        return r?.status === 'failed' ? r : undefined;
      },
      { timeoutMs: 15_000, message: 'refund failed after its attempts' },
    );
    expect(failed.attempts).toBe(3);
    expect(failed.lastError).toMatch(/This charge is disputed/);
    expect(refundCalls(`refund-${eventId}`)).toHaveLength(3);

    const list = await api()
      .get('/api/dashboard/refunds?status=failed')
      .set('x-identity-token', adminToken());
    expect(list.status).toBe(200);
    expect(Number(list.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    expect(list.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: failed.id,
          jobNumber: job.jobNumber,
          amount: '424.90',
          status: 'failed',
          attempts: 3,
          lastError: expect.stringMatching(/disputed/),
        }),
      ]),
    );
    const asTech = await api().get('/api/dashboard/refunds').set('x-identity-token', svc.token(technician()));
    expect(asTech.status).toBe(403);
    const notFailed = await api()
      .post(`/api/dashboard/refunds/${randomUUID()}/retry`)
      .set('x-identity-token', adminToken());
    expect(notFailed.status).toBe(404);

    stripe.clearFailures();
    const retry = await api()
      .post(`/api/dashboard/refunds/${failed.id}/retry`)
      .set('x-identity-token', adminToken());
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ success: true, refund: { id: failed.id, status: 'requested' } });
    const pending = await waitFor(
      async () => {
        const r = await refundOf(job.jobId);
        return r?.status === 'pending' ? r : undefined;
      },
      { timeoutMs: 15_000, message: 'retried refund accepted' },
    );
    // The requests never got through, so the retry keeps the key (Stripe may not make a second refund).
    expect(refundCalls(`refund-${eventId}`).map((c) => c.status)).toEqual([402, 402, 402, 200]);
    const again = await api()
      .post(`/api/dashboard/refunds/${failed.id}/retry`)
      .set('x-identity-token', adminToken());
    expect(again.status).toBe(409);
    await settle(pending.providerRefundId as string, 'succeeded');
    expect((await refundOf(job.jobId))?.status).toBe('succeeded');
  });

  it('Stripe reporting the refund failed (refund.updated): failed with the reason; a retry asks with a new key', async () => {
    const job = await paidPrepaidBooking();
    const eventId = await cancel(
      cancellation(job, {
        band: 'full_refund',
        refundPercent: 100,
        refund: '424.90',
        fee: '0.00',
        feeWaived: false,
        paymentMethod: 'prepaid',
      }),
    );
    const pending = await waitFor(
      async () => {
        const r = await refundOf(job.jobId);
        return r?.status === 'pending' ? r : undefined;
      },
      { timeoutMs: 10_000 },
    );
    await settle(pending.providerRefundId as string, 'failed');
    const failed = await refundOf(job.jobId);
    expect(failed).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/expired_or_canceled_card/),
    });

    const retry = await api()
      .post(`/api/dashboard/refunds/${pending.id}/retry`)
      .set('x-identity-token', adminToken());
    expect(retry.status).toBe(202);
    const second = await waitFor(
      async () => {
        const r = await refundOf(job.jobId);
        return r?.status === 'pending' ? r : undefined;
      },
      { timeoutMs: 10_000 },
    );
    expect(second.providerRefundId).not.toBe(pending.providerRefundId);
    expect(refundCalls(`refund-${eventId}-retry-1`)).toHaveLength(1);
    // A late report about the refund that failed before (same refundId in its metadata) leaves the new one alone.
    const late = stripe.event('refund.updated', {
      ...stripe.refunds.get(pending.providerRefundId as string)!,
    });
    expect((await stripe.deliver(late)).status).toBe(200);
    expect(await refundOf(job.jobId)).toMatchObject({
      status: 'pending',
      providerRefundId: second.providerRefundId,
    });
    await settle(second.providerRefundId as string, 'succeeded');
    expect((await refundOf(job.jobId))?.status).toBe('succeeded');
  });

  it('pay on site 6 h ahead: a draft "Cancellation fee" invoice for the fee; waived: none; never a refund', async () => {
    const onsite = bookingCreated({ paymentMethod: 'onsite', customerValue: '805.80' });
    await svc.publish(BookingCreated, onsite);
    await waitFor(() => svc.ctx.db.jobSnapshot.findUnique({ where: { jobId: onsite.jobId } }));
    const eventId = await cancel(
      cancellation(onsite, {
        band: 'no_refund',
        refundPercent: 0,
        refund: '0.00',
        fee: '805.80',
        feeWaived: false,
        paymentMethod: 'onsite',
      }),
    );
    const [fee, ...others] = await invoicesOf(onsite.jobId);
    expect(others).toHaveLength(0);
    expect(fee).toMatchObject({ status: 'draft', amountType: 'inclusive', paidAt: null });
    expect(fee?.items.map((i) => [i.description, i.totalPrice.toFixed(2), i.gstFree])).toEqual([
      ['Cancellation fee', '805.80', false],
    ]);
    expect(fee?.gstAmount.toFixed(2)).toBe('73.25'); // 805.80 ÷ 11
    expect(fee?.dueDate).not.toBeNull();
    const issued = (await outbox(svc, 'customer-invoice.issued.v2')).filter((e) => e.causationId === eventId);
    expect(issued).toHaveLength(1);
    expect(await refundOf(onsite.jobId)).toBeNull();

    const waived = bookingCreated({ paymentMethod: 'onsite', customerValue: '805.80' });
    await svc.publish(BookingCreated, waived);
    await waitFor(() => svc.ctx.db.jobSnapshot.findUnique({ where: { jobId: waived.jobId } }));
    await cancel({
      ...cancellation(waived, {
        band: 'no_refund',
        refundPercent: 0,
        refund: '0.00',
        fee: '805.80',
        feeWaived: true,
        paymentMethod: 'onsite',
      }),
      cancelledBy: 'staff',
      reason: 'Customer in hospital',
    });
    expect(await invoicesOf(waived.jobId)).toHaveLength(0);
    expect(await refundOf(waived.jobId)).toBeNull();
  });

  it('no-show, pay on site: one draft "No-show charge" invoice for the whole price (redelivered: still one); never a refund', async () => {
    const onsite = bookingCreated({ paymentMethod: 'onsite', customerValue: '805.80' });
    await svc.publish(BookingCreated, onsite);
    await waitFor(() => svc.ctx.db.jobSnapshot.findUnique({ where: { jobId: onsite.jobId } }));
    const noShow: EventInput<typeof BookingCancelled> = {
      ...cancellation(onsite, {
        band: 'no_refund',
        refundPercent: 0,
        refund: '0.00',
        fee: '805.80',
        feeWaived: false,
        paymentMethod: 'onsite',
      }),
      cancelledBy: 'staff',
      cancelledByUserId: randomUUID(),
      reason: 'No-show',
      kind: 'no_show',
    };
    const eventId = await cancel(noShow);
    await cancel(noShow, eventId);
    const invoices = await invoicesOf(onsite.jobId);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'draft', amountType: 'inclusive', paidAt: null });
    expect(invoices[0]?.items.map((i) => [i.description, i.totalPrice.toFixed(2), i.gstFree])).toEqual([
      ['No-show charge', '805.80', false],
    ]);
    expect(invoices[0]?.totalAmount.toFixed(2)).toBe('805.80');
    expect(invoices[0]?.gstAmount.toFixed(2)).toBe('73.25');
    const issued = (await outbox(svc, 'customer-invoice.issued.v2')).filter((e) => e.causationId === eventId);
    expect(issued).toHaveLength(1);
    expect(await refundOf(onsite.jobId)).toBeNull();
  });

  it('no-show, prepaid: nothing refunded (no Stripe call), the paid invoice stands, no further invoice', async () => {
    const job = await paidPrepaidBooking();
    const refundsBefore = stripe.requests.filter((r) => r.path === '/v1/refunds').length;
    await cancel({
      ...cancellation(job, {
        band: 'no_refund',
        refundPercent: 0,
        refund: '0.00',
        fee: '424.90',
        feeWaived: false,
        paymentMethod: 'prepaid',
      }),
      cancelledBy: 'staff',
      cancelledByUserId: randomUUID(),
      reason: 'No-show: nobody home',
      kind: 'no_show',
    });
    expect(await refundOf(job.jobId)).toBeNull();
    const invoices = await invoicesOf(job.jobId);
    expect(invoices.map((i) => [i.status, i.totalAmount.toFixed(2)])).toEqual([['paid', '424.90']]);
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(refundsBefore);
  });
});

describe('refunds in the labelled test mode (no Stripe keys)', () => {
  let svc: TestBilling;
  let bookings: Map<string, object>;
  let booking: Awaited<ReturnType<typeof fakeBooking>>;

  beforeAll(async () => {
    bookings = new Map();
    booking = await fakeBooking(bookings);
    svc = await startTestBilling('billing-refunds-test-mode', { BOOKING_URL: booking.url });
  });
  afterAll(async () => {
    await svc?.stop();
    await booking?.close();
  });

  it('a cancelled test-card booking is refunded locally at once (mode test, test_re_ id); a refund never queued is picked up by the sweep', async () => {
    const jobId = randomUUID();
    const token = randomBytes(24).toString('base64url');
    bookings.set(token, {
      quoteId: randomUUID(),
      jobId,
      bookingToken: 'x',
      amount: '417.80',
      currency: 'AUD',
      status: 'quoted',
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
      serviceType: 'new-tyres',
      customer: { name: 'Tess Testmode', email: 'tess@example.com', phone: '0433333333' },
    });
    const intent = await svc.http().post('/api/create-payment-intent-token').send({ bookingToken: token });
    expect(intent.body.paymentIntentId).toMatch(/^test_pi_/);
    const confirmed = await svc
      .http()
      .post('/api/payments/test-mode/confirm')
      .send({ clientSecret: intent.body.clientSecret, cardNumber: '4242 4242 4242 4242' });
    expect(confirmed.body.status).toBe('succeeded');
    const job = bookingCreated({
      jobId,
      tyreQuantity: 2,
      tyreBrand: null,
      customerValue: '417.80',
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      stripePaymentIntentId: intent.body.paymentIntentId,
    });
    await svc.publish(BookingCreated, job);
    await waitFor(() =>
      svc.ctx.db.customerInvoice.findUnique({ where: { paymentIntentId: intent.body.paymentIntentId } }),
    );
    await svc.publish(BookingCancelled, {
      jobId,
      jobNumber: job.jobNumber,
      slot: { scheduledDate: '2026-11-27', timeSlot: '10-12 AM' },
      cancelledAt: new Date().toISOString(),
      cancelledBy: 'customer',
      band: 'full_refund',
      refundPercent: 100,
      refund: '424.90',
      fee: '0.00',
      feeWaived: false,
      paymentMethod: 'prepaid',
      paymentIntentId: intent.body.paymentIntentId,
    });
    const refund = await waitFor(
      async () => {
        const r = await svc.ctx.db.refund.findUnique({ where: { jobId } });
        return r?.status === 'succeeded' ? r : undefined;
      },
      { timeoutMs: 10_000, message: 'test-mode refund succeeded' },
    );
    expect(refund).toMatchObject({ mode: 'test', attempts: 1 });
    expect(refund.providerRefundId).toMatch(/^test_re_/);
    const listed = await svc
      .http()
      .get('/api/dashboard/refunds')
      .set('x-identity-token', svc.token(svc.admin));
    expect(listed.body).toEqual([
      expect.objectContaining({ id: refund.id, mode: 'test', status: 'succeeded' }),
    ]);

    // As if its job had been lost (Redis down when it was recorded): requested, nothing queued for this round.
    await svc.ctx.db.refund.update({
      where: { id: refund.id },
      data: { status: 'requested', providerRefundId: null, succeededAt: null },
    });
    expect(await svc.ctx.refunds.sweep(0)).toBe(1);
    const swept = await waitFor(
      async () => {
        const r = await svc.ctx.db.refund.findUnique({ where: { id: refund.id } });
        return r?.status === 'succeeded' ? r : undefined;
      },
      { timeoutMs: 10_000, message: 'swept refund done' },
    );
    expect(swept.attempts).toBe(2);
  });
});
