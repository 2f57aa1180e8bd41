/**
 * Issue 18, item 4: paying an invoice online from its "Pay now" link. Billing runs live against the local Stripe
 * fake (the official SDK pointed at it), webhooks signed with the SDK's test header helper. Staff generate and email
 * an invoice (local transport records it); the test reads the link from the recorded email, as a customer would.
 */
import Stripe from 'stripe';
import { startStripeFake, waitFor, type StripeFake } from '@tyres/testkit';
import {
  fakeBooking,
  outbox,
  pdfAttachment,
  pdfText,
  seedJob,
  startTestBilling,
  type TestBilling,
} from '../../services/billing/test/integration/helpers';

jest.setTimeout(120_000);

/** The text part of a recorded RFC 822 message, quoted-printable soft line breaks undone. */
function textOf(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

describe('pay an invoice online (pay link, Stripe fake, signed webhooks)', () => {
  const WEBHOOK_SECRET = 'whsec_pay_invoice_test_secret';
  let svc: TestBilling;
  let stripe: StripeFake;
  // Booking's price list, as far as billing asks it: the card surcharge rate in force (issue 19).
  let booking: Awaited<ReturnType<typeof fakeBooking>>;
  const api = () => svc.http();
  const asAdmin = <T extends { set(k: string, v: string): T }>(req: T) =>
    req.set('x-identity-token', svc.token(svc.admin));

  beforeAll(async () => {
    stripe = await startStripeFake();
    booking = await fakeBooking(new Map());
    svc = await startTestBilling('billing-pay-invoice', {
      BOOKING_URL: booking.url,
      STRIPE_SECRET_KEY: 'sk_test_pay_invoice',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      PUBLIC_SITE_URL: 'https://tyres.example.com.au',
    });
    stripe.setWebhook({
      url: `${svc.baseUrl}/api/payments/webhook`,
      secret: WEBHOOK_SECRET,
      sign: Stripe.webhooks.generateTestHeaderString,
    });
  });
  afterAll(async () => {
    await svc?.stop();
    await stripe?.close();
    await booking?.close();
  });

  /** A generated invoice ($805.80, tax inclusive), emailed to the customer; its pay link from the recorded email. */
  async function sentInvoice() {
    const job = await seedJob(svc, {
      customer: { name: 'Jane Mary Citizen', email: 'jane.pay@example.com', phone: '0412345678' },
    });
    const generated = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
    expect(generated.status).toBe(201);
    const invoice = generated.body.customerInvoice as { id: string; invoiceNumber: string };
    const sent = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/email`)).send({});
    expect(sent.status).toBe(200);
    const log = await asAdmin(api().get(`/api/dashboard/customer-invoices/${invoice.id}/emails`));
    const raw = await asAdmin(
      api().get(`/api/dashboard/customer-invoices/${invoice.id}/emails/${log.body[0].id}/message`),
    );
    const text = textOf(raw.text);
    const link = /Pay now by card: (https:\/\/tyres\.example\.com\.au\/pay\/([A-Za-z0-9_-]{43}))/.exec(text);
    expect(link).not.toBeNull();
    // The PDF carries a "Pay now" link too.
    const pdf = pdfText(pdfAttachment(raw.text)!.content);
    expect(pdf).toContain('PAY NOW ONLINE');
    expect(pdf.replace(/\s+/g, '')).toMatch(/https:\/\/tyres\.example\.com\.au\/pay\/[A-Za-z0-9_-]{43}/);
    return { job, invoice, token: link![2] as string, url: link![1] as string };
  }

  const intentCreates = (invoiceId: string) =>
    stripe.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/v1/payment_intents' &&
        (r.params.metadata as Record<string, string> | undefined)?.invoiceId === invoiceId,
    );

  it('the link shows the invoice with the 1.7% surcharge; only the token hash is stored', async () => {
    const { invoice, token } = await sentInvoice();
    const res = await api().get(`/api/pay/${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      invoiceNumber: invoice.invoiceNumber,
      customerFirstName: 'Jane',
      status: 'unpaid',
      amountType: 'inclusive',
      totalAmount: '805.80',
      surchargeRate: '1.7%',
      surchargeAmount: '13.70',
      amountToPay: '819.50',
      currency: 'AUD',
    });
    // No personal data beyond the first name.
    const body = JSON.stringify(res.body);
    for (const secret of ['Citizen', 'jane.pay@example.com', '0412345678', 'Hay Street', '1ABC234'])
      expect(body).not.toContain(secret);
    const links = await svc.sql<{ token_hash: string }>(
      'SELECT token_hash FROM billing.invoice_pay_links WHERE customer_invoice_id = $1::uuid',
      invoice.id,
    );
    expect(links.length).toBeGreaterThanOrEqual(2); // the email's and the PDF's
    expect(links.every((l) => /^[0-9a-f]{64}$/.test(l.token_hash) && l.token_hash !== token)).toBe(true);

    expect((await api().get('/api/pay/not-a-real-token-at-all-xxxxxxxxxxxx')).status).toBe(404);
    expect((await api().get('/api/pay/short')).body).toMatchObject({
      message: 'This payment link is not valid',
    });
    expect((await api().post('/api/pay/not-a-real-token-at-all-xxxxxxxxxxxx/payment-intent')).status).toBe(
      404,
    );
  });

  it('concurrent "pay" requests make ONE PaymentIntent (amount, idempotency key, metadata invoiceId)', async () => {
    const { invoice, token } = await sentInvoice();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => api().post(`/api/pay/${token}/payment-intent`)),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const ids = new Set(answers.map((a) => a.body.paymentIntentId));
    expect(ids.size).toBe(1);
    expect(answers[0]!.body).toMatchObject({
      invoiceNumber: invoice.invoiceNumber,
      originalAmount: '805.80',
      surchargeAmount: '13.70',
      totalAmount: '819.50',
      mode: 'live',
      testMode: false,
    });
    const intentId = answers[0]!.body.paymentIntentId as string;
    expect(stripe.paymentIntents.get(intentId)).toMatchObject({
      amount: 81_950,
      metadata: expect.objectContaining({ invoiceId: invoice.id }),
    });
    const keys = new Set(intentCreates(invoice.id).map((r) => r.idempotencyKey));
    expect([...keys]).toEqual([`invoice-payment-${invoice.id}-81950`]);
    expect(await svc.ctx.db.payment.count({ where: { customerInvoiceId: invoice.id } })).toBe(1);
  });

  it('the webhook pays the invoice exactly once (replay, second event), queues the receipt, then 409', async () => {
    const { invoice, token, job } = await sentInvoice();
    const intent = await api().post(`/api/pay/${token}/payment-intent`);
    const intentId = intent.body.paymentIntentId as string;
    const succeeded = stripe.succeedPaymentIntent(intentId);
    const [first, replay] = await Promise.all([stripe.deliver(succeeded), stripe.deliver(succeeded)]);
    const outcomes = [first, replay].map((r) => (r.body as { outcome: string }).outcome).sort();
    expect(outcomes).toEqual(['duplicate', 'invoice-paid']);
    // Stripe may also send a second event for the same intent (another id): no second effect.
    const again = await stripe.deliver(stripe.succeedPaymentIntent(intentId));
    expect(again).toMatchObject({ status: 200, body: { outcome: 'invoice-paid' } });

    const paid = await asAdmin(api().get(`/api/dashboard/customer-invoices/${invoice.id}`));
    expect(paid.body).toMatchObject({ status: 'paid', totalAmount: '819.50', paidAt: expect.any(String) });
    const items = paid.body.items as { description: string; category: string; totalPrice: string }[];
    expect(items.filter((i) => i.category === 'surcharge')).toEqual([
      expect.objectContaining({ description: 'Card surcharge 1.7%', totalPrice: '13.70' }),
    ]);
    // Surcharge taxable: GST is 819.50 / 11 = 74.50.
    expect(paid.body.gstAmount).toBe('74.50');

    const paidEvents = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
      (e) => e.data.invoiceId === invoice.id && e.data.status === 'paid',
    );
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0]!.data).toMatchObject({ jobId: job.jobId, totalAmount: '819.50' });

    const payment = await svc.ctx.db.payment.findUniqueOrThrow({ where: { providerIntentId: intentId } });
    expect(payment).toMatchObject({
      status: 'succeeded',
      customerInvoiceId: invoice.id,
      duplicateRefundStatus: null,
    });
    expect(payment.surchargeAmount.toFixed(2)).toBe('13.70');
    expect(payment.surchargeGstAmount?.toFixed(2)).toBe('1.25');

    // The receipt, through the invoice email queue and its delivery log (once).
    const receipt = await waitFor(
      () =>
        svc.ctx.db.emailDelivery.findFirst({
          where: {
            customerInvoiceId: invoice.id,
            subject: { startsWith: 'Payment receipt' },
            status: 'sent',
          },
        }),
      { timeoutMs: 20_000, message: 'receipt email recorded' },
    );
    expect(receipt).toMatchObject({
      to: 'jane.pay@example.com',
      subject: `Payment receipt for invoice ${invoice.invoiceNumber} from Perth Mobile Tyres Test`,
    });
    const receiptText = textOf(receipt.rawMessage ?? '');
    expect(receiptText).toContain('Card surcharge (1.7%, includes GST of $1.25): $13.70');
    expect(receiptText).toContain('Total paid by card: $819.50');
    expect(
      await svc.ctx.db.emailDelivery.count({
        where: { customerInvoiceId: invoice.id, subject: { startsWith: 'Payment receipt' } },
      }),
    ).toBe(1);

    // The link now says paid; paying again is refused.
    const view = await api().get(`/api/pay/${token}`);
    expect(view.body).toMatchObject({ status: 'paid', amountToPay: '0.00', totalAmount: '819.50' });
    const refused = await api().post(`/api/pay/${token}/payment-intent`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      message: 'This invoice has already been paid',
      code: 'already_paid',
    });
  });

  it('two different intents both succeed: the invoice is paid once and the second payment is refunded', async () => {
    const { invoice, token } = await sentInvoice();
    const first = await api().post(`/api/pay/${token}/payment-intent`);
    // Staff add a line after the customer opened the page: a new amount, a new intent (a second open tab).
    const line = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/items`)).send({
      description: 'Valve stems',
      category: 'tyre',
      quantity: 4,
      unitPrice: 5,
    });
    expect(line.status).toBeLessThan(300);
    const second = await api().post(`/api/pay/${token}/payment-intent`);
    expect(second.body.paymentIntentId).not.toBe(first.body.paymentIntentId);
    expect(second.body.totalAmount).toBe('839.84'); // 825.80 + 14.04

    const results = await Promise.all([
      stripe.deliver(stripe.succeedPaymentIntent(first.body.paymentIntentId)),
      stripe.deliver(stripe.succeedPaymentIntent(second.body.paymentIntentId)),
    ]);
    const outcomes = results.map((r) => (r.body as { outcome: string }).outcome).sort();
    expect(outcomes).toEqual(['invoice-already-paid', 'invoice-paid']);
    const paidEvents = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
      (e) => e.data.invoiceId === invoice.id && e.data.status === 'paid',
    );
    expect(paidEvents).toHaveLength(1);
    const payments = await svc.ctx.db.payment.findMany({ where: { customerInvoiceId: invoice.id } });
    const refunded = payments.filter((p) => p.duplicateRefundStatus !== null);
    expect(refunded).toHaveLength(1);
    expect(['requested', 'succeeded']).toContain(refunded[0]!.duplicateRefundStatus);
    const refundCalls = stripe.requests.filter(
      (r) =>
        r.method === 'POST' &&
        r.path === '/v1/refunds' &&
        r.idempotencyKey === `invoice-duplicate-refund-${refunded[0]!.providerIntentId}`,
    );
    expect(refundCalls.length).toBeGreaterThanOrEqual(1);
    expect(refundCalls[0]!.params).toMatchObject({
      payment_intent: refunded[0]!.providerIntentId,
      amount: String(Math.round(Number(refunded[0]!.totalAmount) * 100)),
    });
  });

  it('a cancelled invoice: 409 with its message', async () => {
    const { invoice, token } = await sentInvoice();
    const cancel = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${invoice.id}`)).send({
      status: 'cancelled',
    });
    expect(cancel.status).toBe(200);
    expect((await api().get(`/api/pay/${token}`)).body).toMatchObject({
      status: 'cancelled',
      amountToPay: '0.00',
    });
    const refused = await api().post(`/api/pay/${token}/payment-intent`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      message: 'This invoice has been cancelled and cannot be paid',
      code: 'invoice_cancelled',
    });
  });
  it('issue 19: the card surcharge rate in force when the intent is made is stored and charged; a later change never touches it; booking down: 503', async () => {
    const before = await sentInvoice();
    const old = await api().post(`/api/pay/${before.token}/payment-intent`);
    expect(old.body).toMatchObject({
      surchargeRate: '1.7%',
      surchargeAmount: '13.70',
      totalAmount: '819.50',
    });
    booking.rate.value = '1.50'; // the admin changes the rate, effective now
    try {
      const after = await sentInvoice();
      // $805.80 × 1.5% = 12.087 → 12.09 (half-up)
      expect((await api().get(`/api/pay/${after.token}`)).body).toMatchObject({
        surchargeRate: '1.5%',
        surchargeAmount: '12.09',
        amountToPay: '817.89',
      });
      const fresh = await api().post(`/api/pay/${after.token}/payment-intent`);
      expect(fresh.body).toMatchObject({
        surchargeRate: '1.5%',
        surchargeAmount: '12.09',
        totalAmount: '817.89',
      });
      expect(fresh.body.message).toContain('A card surcharge of 1.5% ($12.09) applies to card payments.');

      // The intent made before the change is paid at its stored 1.70%: its line and amount, not today's.
      const oldId = old.body.paymentIntentId as string;
      expect(await stripe.deliver(stripe.succeedPaymentIntent(oldId))).toMatchObject({
        body: { outcome: 'invoice-paid' },
      });
      const paidOld = await asAdmin(api().get(`/api/dashboard/customer-invoices/${before.invoice.id}`));
      expect(paidOld.body).toMatchObject({ status: 'paid', totalAmount: '819.50' });
      expect(
        (paidOld.body.items as { category: string }[]).filter((i) => i.category === 'surcharge'),
      ).toEqual([expect.objectContaining({ description: 'Card surcharge 1.7%', totalPrice: '13.70' })]);
      const stored = await svc.ctx.db.payment.findUniqueOrThrow({ where: { providerIntentId: oldId } });
      expect(stored.surchargeRate?.toFixed(2)).toBe('1.70');

      // The new one at 1.50%.
      const freshId = fresh.body.paymentIntentId as string;
      await stripe.deliver(stripe.succeedPaymentIntent(freshId));
      const paidNew = await asAdmin(api().get(`/api/dashboard/customer-invoices/${after.invoice.id}`));
      expect(paidNew.body).toMatchObject({ status: 'paid', totalAmount: '817.89' });
      expect(
        (paidNew.body.items as { category: string }[]).filter((i) => i.category === 'surcharge'),
      ).toEqual([expect.objectContaining({ description: 'Card surcharge 1.5%', totalPrice: '12.09' })]);
      expect(
        (
          await svc.ctx.db.payment.findUniqueOrThrow({ where: { providerIntentId: freshId } })
        ).surchargeRate?.toFixed(2),
      ).toBe('1.50');

      // Booking (the price list) unreachable: no intent on a guessed rate.
      booking.rate.value = null;
      const third = await sentInvoice();
      const down = await api().post(`/api/pay/${third.token}/payment-intent`);
      expect(down.status).toBe(503);
      expect(down.body.message).toBe(
        'Card payments are unavailable for a moment: we could not confirm the card surcharge. Please try again in a few minutes.',
      );
    } finally {
      booking.rate.value = '1.70';
    }
  });
});
