import { randomBytes, randomUUID } from 'node:crypto';
import { BookingCreated, createEvent, JobStatusChanged, type EventInput } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingCreated, fakeBooking, outbox, seedJob, startTestBilling, type TestBilling } from './helpers';

jest.setTimeout(120_000);

/**
 * Issue 12 ("money is right end to end"): invoice amount types, GST-free lines, purchases and expenses, a prepaid
 * booking's paid invoice (exactly once, whatever order the payment and the job arrive in), and Generate answering
 * 409 on a job that already has an invoice.
 */
describe('GST amounts: amount types, GST-free, prepaid invoices', () => {
  let svc: TestBilling;
  let token: string;
  let bookings: Map<string, object>;
  let fake: Awaited<ReturnType<typeof fakeBooking>>;
  const api = () => svc.http();
  const asAdmin = <T extends { set(k: string, v: string): T }>(req: T) => req.set('x-identity-token', token);
  const invoicesOf = (jobId: string) =>
    svc.ctx.db.customerInvoice.findMany({
      where: { jobId },
      include: { items: { orderBy: { position: 'asc' } } },
    });

  beforeAll(async () => {
    bookings = new Map();
    fake = await fakeBooking(bookings);
    svc = await startTestBilling('billing-gst', { BOOKING_URL: fake.url });
    token = svc.token(svc.admin);
  });
  afterAll(async () => {
    await svc?.stop();
    await fake?.close();
  });

  describe('customer invoices carry an amount type', () => {
    it('a new invoice is tax inclusive by default: the line amounts include GST, GST = taxable lines ÷ 11', async () => {
      const job = await seedJob(svc);
      const created = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        dueDate: '2026-12-31',
      });
      expect(created.status).toBe(201);
      expect(created.body.customerInvoice).toMatchObject({
        amountType: 'inclusive',
        paymentIntentId: null,
        totalAmount: '0.00',
      });
      const id = created.body.customerInvoice.id as string;
      const items = `/api/dashboard/customer-invoices/${id}/items`;
      const repair = await asAdmin(api().post(items)).send({
        description: 'Puncture repair',
        unitPrice: '129.80',
      });
      expect(repair.body.item).toMatchObject({ totalPrice: '129.80', gstFree: false });
      expect(repair.body.customerInvoice).toMatchObject({
        subtotalAmount: '118.00',
        gstAmount: '11.80',
        totalAmount: '129.80',
      });
      // A GST-free line adds to the total but carries no GST.
      const fee = await asAdmin(api().post(items)).send({
        description: 'Tyre disposal levy',
        category: 'labour',
        unitPrice: '5.00',
        gstFree: true,
      });
      expect(fee.status).toBe(201);
      expect(fee.body.item).toMatchObject({ gstFree: true, totalPrice: '5.00' });
      expect(fee.body.customerInvoice).toMatchObject({
        subtotalAmount: '123.00',
        gstAmount: '11.80',
        totalAmount: '134.80',
      });
      // Marking the line taxable recomputes.
      const taxed = await asAdmin(api().patch(`${items}/${fee.body.item.id}`)).send({ gstFree: false });
      expect(taxed.body.item.gstFree).toBe(false);
      expect(taxed.body.customerInvoice).toMatchObject({ gstAmount: '12.25', totalAmount: '134.80' });

      const detail = (await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}`))).body;
      expect(detail.items.map((i: { gstFree: boolean }) => i.gstFree)).toEqual([false, false]);
      const listed = (await asAdmin(api().get(`/api/dashboard/customer-invoices?jobId=${job.jobId}`)))
        .body[0];
      expect(listed).toMatchObject({ amountType: 'inclusive', paymentIntentId: null, totalAmount: '134.80' });
    });

    it('switching the amount type keeps the line amounts as entered and recomputes GST and totals', async () => {
      const job = await seedJob(svc);
      const id = (
        await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
          jobId: job.jobId,
          dueDate: '2026-12-31',
        })
      ).body.customerInvoice.id as string;
      const items = `/api/dashboard/customer-invoices/${id}/items`;
      await asAdmin(api().post(items)).send({
        description: 'Tyres',
        category: 'tyre',
        quantity: 2,
        unitPrice: '150.00',
      });
      await asAdmin(api().post(items)).send({ description: 'Levy', unitPrice: '10.00', gstFree: true });

      const exclusive = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        amountType: 'exclusive',
      });
      expect(exclusive.status).toBe(200);
      expect(exclusive.body.customerInvoice).toMatchObject({
        amountType: 'exclusive',
        subtotalAmount: '310.00',
        gstAmount: '30.00',
        totalAmount: '340.00',
      });
      expect(exclusive.body.customerInvoice.items.map((i: { totalPrice: string }) => i.totalPrice)).toEqual([
        '300.00',
        '10.00',
      ]);
      const back = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        amountType: 'inclusive',
      });
      expect(back.body.customerInvoice).toMatchObject({
        amountType: 'inclusive',
        subtotalAmount: '282.73',
        gstAmount: '27.27',
        totalAmount: '310.00',
      });
      const updates = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
        (e) => e.data.invoiceId === id,
      );
      expect(
        updates.slice(-2).map((e) => [e.data.amountType, e.data.totalAmount, e.data.changedFields]),
      ).toEqual([
        ['exclusive', '340.00', ['amountType', 'subtotalAmount', 'gstAmount', 'totalAmount']],
        ['inclusive', '310.00', ['amountType', 'subtotalAmount', 'gstAmount', 'totalAmount']],
      ]);
      expect((updates.at(-1)?.data.items as { gstFree: boolean }[]).map((i) => i.gstFree)).toEqual([
        false,
        true,
      ]);
      // A bad amount type is a clear 400.
      const bad = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        amountType: 'net',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe("Amount type must be 'inclusive' or 'exclusive'");
      // A tax inclusive invoice's largest line is its total: a line that fits the column fits the invoice.
      const big = await asAdmin(api().post(items)).send({
        description: 'Fleet contract',
        unitPrice: '99999000.00',
      });
      expect(big.status).toBe(201);
      expect(big.body.customerInvoice.totalAmount).toBe('99999310.00');
    });

    it('an invoice created tax exclusive adds GST on top; the page total of an invoice without lines is its ex-GST subtotal + GST', async () => {
      const job = await seedJob(svc);
      const created = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        dueDate: '2026-12-31',
        amountType: 'exclusive',
        subtotalAmount: '129.80',
      });
      expect(created.body.customerInvoice).toMatchObject({
        amountType: 'exclusive',
        subtotalAmount: '129.80',
        gstAmount: '12.98',
        totalAmount: '142.78',
      });
      const inclusive = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: (await seedJob(svc)).jobId,
        dueDate: '2026-12-31',
        subtotalAmount: '118.00',
      });
      // Without lines the ex-GST subtotal is the page's: 118.00 + 11.80 = 129.80, and 129.80 ÷ 11 = 11.80.
      expect(inclusive.body.customerInvoice).toMatchObject({
        amountType: 'inclusive',
        subtotalAmount: '118.00',
        gstAmount: '11.80',
        totalAmount: '129.80',
      });
    });
  });

  describe('a second invoice', () => {
    const complete = async (job: EventInput<typeof BookingCreated>, to: 'completed' | 'paid') => {
      await svc.publish(JobStatusChanged, {
        jobId: job.jobId,
        jobNumber: job.jobNumber,
        from: 'in-progress',
        to,
        changedAt: new Date().toISOString(),
        changedBy: svc.admin.id,
        assignedTechnicianId: null,
        serviceType: job.serviceType,
        scheduledDate: job.scheduledDate,
        timeSlot: job.timeSlot,
        customerValue: job.customerValue,
      });
      await waitFor(
        async () => (await svc.ctx.db.jobSnapshot.findUnique({ where: { jobId: job.jobId } }))?.status === to,
        { timeoutMs: 10_000 },
      );
    };

    it('Generate on a job that has an invoice answers 409 naming it; Create Invoice adds one once the work is done', async () => {
      const job = await seedJob(svc, {
        serviceType: 'puncture-repair',
        customerValue: '129.80',
        tyreSize: null,
        tyreQuantity: null,
      });
      const first = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      expect(first.body.customerInvoice).toMatchObject({
        amountType: 'inclusive',
        subtotalAmount: '118.00',
        gstAmount: '11.80',
        totalAmount: '129.80',
      });
      const number = first.body.customerInvoice.invoiceNumber as string;
      // Before the work is done: one active invoice per job.
      const early = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        dueDate: '2026-12-31',
      });
      expect(early.status).toBe(409);
      expect(early.body.message).toBe(`Job ${job.jobNumber} already has invoice ${number}`);

      await complete(job, 'completed');
      const extra = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        dueDate: '2026-12-31',
      });
      expect(extra.status).toBe(201);
      expect(extra.body.customerInvoice.invoiceNumber).not.toBe(number);
      // Generate still refuses: it never makes a second invoice from the job's price.
      const again = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      expect(again.status).toBe(409);
      expect(again.body.message).toBe(`Job ${job.jobNumber} already has invoice ${number}`);
      expect(await svc.ctx.db.customerInvoice.count({ where: { jobId: job.jobId } })).toBe(2);

      // Marking the job paid settles every open invoice of it.
      await complete(job, 'paid');
      await waitFor(
        async () =>
          (await svc.ctx.db.customerInvoice.count({ where: { jobId: job.jobId, status: 'paid' } })) === 2,
        { timeoutMs: 10_000 },
      );
    });
  });

  describe('purchase invoices and expenses can be GST-free', () => {
    it('a GST-free purchase invoice has no GST and ex-GST = total; changing either recomputes', async () => {
      const job = await seedJob(svc);
      const res = await asAdmin(api().post('/api/dashboard/purchase-invoices')).send({
        jobId: job.jobId,
        invoiceNumber: 'GOV-1',
        supplierName: 'Department of Transport',
        totalAmount: '110.00',
        gstFree: true,
      });
      expect(res.status).toBe(201);
      const p = res.body.purchaseInvoice;
      expect(p).toMatchObject({
        totalAmount: '110.00',
        gstAmount: '0.00',
        subtotal: '110.00',
        gstFree: true,
      });
      const recorded = (await outbox(svc, 'purchase-invoice.recorded.v1')).find(
        (e) => e.data.purchaseInvoiceId === p.id,
      );
      expect(recorded?.data).toMatchObject({ totalAmount: '110.00', gstAmount: '0.00', subtotal: '110.00' });

      const taxed = await asAdmin(api().patch(`/api/dashboard/purchase-invoices/${p.id}`)).send({
        gstFree: false,
      });
      expect(taxed.body.purchaseInvoice).toMatchObject({
        gstFree: false,
        gstAmount: '10.00',
        subtotal: '100.00',
      });
      const updated = (await outbox(svc, 'purchase-invoice.updated.v1')).filter(
        (e) => e.data.purchaseInvoiceId === p.id,
      );
      expect(updated.at(-1)?.data).toMatchObject({
        gstAmount: '10.00',
        subtotal: '100.00',
        changedFields: ['gstFree', 'totalAmount', 'gstAmount', 'subtotal'],
      });
      const free = await asAdmin(api().patch(`/api/dashboard/purchase-invoices/${p.id}`)).send({
        gstFree: true,
        totalAmount: '55.55',
      });
      expect(free.body.purchaseInvoice).toMatchObject({
        totalAmount: '55.55',
        gstAmount: '0.00',
        subtotal: '55.55',
      });
      // Default: GST applies.
      const normal = await asAdmin(api().post('/api/dashboard/purchase-invoices')).send({
        jobId: job.jobId,
        invoiceNumber: 'TW-1',
        supplierName: 'Tyre Wholesale',
        totalAmount: '110.00',
      });
      expect(normal.body.purchaseInvoice).toMatchObject({ gstFree: false, gstAmount: '10.00' });
      const list = await asAdmin(api().get(`/api/dashboard/purchase-invoices/job/${job.jobId}`));
      expect(list.body.map((x: { gstFree: boolean }) => x.gstFree).sort()).toEqual([false, true]);
    });

    it('a GST-free expense has no GST; marking it taxable gives amount ÷ 11', async () => {
      const base = '/api/dashboard/business-expenses';
      const res = await asAdmin(api().post(base)).send({
        supplierName: 'Shire of Peel',
        description: 'Council rates',
        amount: '880.00',
        category: 'rent',
        expenseDate: '2026-11-18',
        gstFree: true,
      });
      expect(res.status).toBe(201);
      expect(res.body.expense).toMatchObject({ amount: '880.00', gstAmount: '0.00', gstFree: true });
      const id = res.body.expense.id as string;
      const recorded = (await outbox(svc, 'expense.recorded.v1')).find((x) => x.data.expenseId === id);
      expect(recorded?.data).toMatchObject({ amount: '880.00', gstAmount: '0.00' });
      const taxed = await asAdmin(api().patch(`${base}/${id}`)).send({ gstFree: false });
      expect(taxed.body.expense).toMatchObject({ gstFree: false, gstAmount: '80.00' });
      expect((await asAdmin(api().get(`${base}/${id}`))).body.gstFree).toBe(false);
      const bad = await asAdmin(api().post(base)).send({
        supplierName: 'X',
        description: 'Y',
        amount: '1.00',
        category: 'misc',
        expenseDate: '2026-11-18',
        gstFree: 'no idea',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('gstFree must be true or false');
    });
  });

  describe("a prepaid booking's invoice", () => {
    const token = () => randomBytes(24).toString('base64url');
    /** A prepaid quote for two new tyres: (139 + 25 + 15) × 2 + 89.80 − 30 = 417.80; card total 417.80 + 7.10. */
    const quote = (jobId: string) => ({
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
    const prepaidJob = (jobId: string, paymentIntentId: string | null) =>
      bookingCreated({
        jobId,
        tyreQuantity: 2,
        tyreBrand: null,
        customerValue: '417.80',
        paymentMethod: 'prepaid',
        paymentStatus: paymentIntentId ? 'paid' : 'pending',
        stripePaymentIntentId: paymentIntentId,
      });
    /** Creates the card payment for a job and returns its intent and a confirm() that pays it with the test card. */
    const payment = async (jobId: string) => {
      const t = token();
      bookings.set(t, quote(jobId));
      const intent = (await api().post('/api/create-payment-intent-token').send({ bookingToken: t }))
        .body as {
        clientSecret: string;
        paymentIntentId: string;
        totalAmount: string;
        surchargeAmount: string;
      };
      expect(intent).toMatchObject({ totalAmount: '424.90', surchargeAmount: '7.10' });
      const confirm = () =>
        api()
          .post('/api/payments/test-mode/confirm')
          .send({ clientSecret: intent.clientSecret, cardNumber: '4242 4242 4242 4242' });
      return { intent, confirm };
    };
    /** BookingCreated as booking emits it once paid; returns when billing has handled it. */
    const bookingArrives = async (data: EventInput<typeof BookingCreated>) => {
      const event = createEvent(BookingCreated, data, { source: 'booking', correlationId: randomUUID() });
      await svc.publisher.publish(event);
      await waitFor(async () => (await svc.ctx.db.inboxEvent.count({ where: { eventId: event.id } })) === 1, {
        timeoutMs: 10_000,
      });
      return event;
    };

    const expectPaidInvoice = async (jobId: string, paymentIntentId: string) => {
      const invoices = await invoicesOf(jobId);
      expect(invoices).toHaveLength(1);
      const [invoice] = invoices;
      const payment = await svc.ctx.db.payment.findUnique({ where: { providerIntentId: paymentIntentId } });
      expect(invoice).toMatchObject({
        status: 'paid',
        amountType: 'inclusive',
        paymentIntentId,
        paidAt: payment?.succeededAt,
      });
      expect(invoice?.totalAmount.toFixed(2)).toBe(payment?.totalAmount.toFixed(2));
      expect(invoice?.totalAmount.toFixed(2)).toBe('424.90');
      expect(invoice?.gstAmount.toFixed(2)).toBe('38.63'); // 424.90 ÷ 11
      expect(invoice?.subtotalAmount.toFixed(2)).toBe('386.27');
      expect(
        invoice?.items.map((i) => [
          i.description,
          i.category,
          i.quantity,
          i.totalPrice.toFixed(2),
          i.gstFree,
        ]),
      ).toEqual([
        ['Mobile callout fee (less $30.00 prepaid online discount)', 'callout', 1, '59.80', false],
        ['New tyre 205/55R16', 'tyre', 2, '278.00', false],
        ['Tyre fitting', 'labour', 2, '50.00', false],
        ['Wheel balancing', 'labour', 2, '30.00', false],
        ['Card surcharge 1.7%', 'surcharge', 1, '7.10', false],
        ['Paid online at booking - thank you', 'note', 1, '0.00', false],
      ]);
      return invoice!;
    };

    it('payment first, then the job (the usual order): made on BookingCreated, paid, equal to the card total, once', async () => {
      const jobId = randomUUID();
      const { intent, confirm } = await payment(jobId);
      expect((await confirm()).body.status).toBe('succeeded');
      // Billing does not know the job yet: nothing to invoice.
      expect(
        await svc.ctx.db.customerInvoice.count({ where: { paymentIntentId: intent.paymentIntentId } }),
      ).toBe(0);

      const data = prepaidJob(jobId, intent.paymentIntentId);
      const event = await bookingArrives(data);
      const invoice = await expectPaidInvoice(jobId, intent.paymentIntentId);
      const issued = (await outbox(svc, 'customer-invoice.issued.v2')).filter((e) => e.data.jobId === jobId);
      expect(issued).toHaveLength(1);
      expect(issued[0]).toMatchObject({
        causationId: event.id,
        data: {
          status: 'paid',
          amountType: 'inclusive',
          paymentIntentId: intent.paymentIntentId,
          totalAmount: '424.90',
          gstAmount: '38.63',
          subtotalAmount: '386.27',
        },
      });
      expect((issued[0]?.data.items as { category: string }[]).map((i) => i.category)).toContain('surcharge');

      // The same booking again (a replay, or re-sent under a new id), the payment confirmed again: still one.
      await svc.publisher.publish(event);
      await bookingArrives(data);
      expect((await confirm()).body.status).toBe('succeeded');
      expect(await invoicesOf(jobId)).toHaveLength(1);

      // Generate never adds a second, higher draft: 409 naming the paid invoice.
      const gen = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${jobId}`));
      expect(gen.status).toBe(409);
      expect(gen.body.message).toBe(`Job ${data.jobNumber} already has invoice ${invoice.invoiceNumber}`);
      expect(await invoicesOf(jobId)).toHaveLength(1);
      const byJob = await asAdmin(api().get(`/api/dashboard/customer-invoices/job/${jobId}`));
      expect(byJob.body).toHaveLength(1);
      expect(byJob.body[0]).toMatchObject({
        status: 'paid',
        amountType: 'inclusive',
        paymentIntentId: intent.paymentIntentId,
        totalAmount: '424.90',
      });
    });

    it('job first, then the payment: made in the payment confirmation, once', async () => {
      const jobId = randomUUID();
      const { intent, confirm } = await payment(jobId);
      await bookingArrives(prepaidJob(jobId, null));
      expect(await invoicesOf(jobId)).toHaveLength(0);
      expect((await confirm()).body.status).toBe('succeeded');
      await expectPaidInvoice(jobId, intent.paymentIntentId);
      // Booking then confirms the booking (BookingCreated, paid): nothing more.
      await bookingArrives(prepaidJob(jobId, intent.paymentIntentId));
      await expectPaidInvoice(jobId, intent.paymentIntentId);
    });

    it('payment and job at the same moment: exactly one invoice', async () => {
      for (let round = 0; round < 3; round++) {
        const jobId = randomUUID();
        const { intent, confirm } = await payment(jobId);
        const [confirmed] = await Promise.all([
          confirm(),
          bookingArrives(prepaidJob(jobId, intent.paymentIntentId)),
        ]);
        expect(confirmed.body.status).toBe('succeeded');
        await waitFor(async () => (await invoicesOf(jobId)).length > 0, { timeoutMs: 10_000 });
        await expectPaidInvoice(jobId, intent.paymentIntentId);
      }
    });

    it('lines that would not add up to the card total make no invoice, and never fail the payment or the booking', async () => {
      const jobId = randomUUID();
      const { intent, confirm } = await payment(jobId);
      // Someone changed the stored payment by hand: its parts no longer add up to what the card was charged.
      await svc.sql(
        `UPDATE billing.payments SET original_amount = 400.00 WHERE provider_intent_id = $1`,
        intent.paymentIntentId,
      );
      expect((await confirm()).body.status).toBe('succeeded');
      await bookingArrives(prepaidJob(jobId, intent.paymentIntentId));
      expect(await svc.ctx.db.jobSnapshot.findUnique({ where: { jobId } })).not.toBeNull();
      expect(await invoicesOf(jobId)).toHaveLength(0);
      // Staff can still invoice the job themselves.
      expect((await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${jobId}`))).status).toBe(
        201,
      );
    });

    it('a job that already had an invoice gets no second one when its payment succeeds', async () => {
      const jobId = randomUUID();
      const { intent, confirm } = await payment(jobId);
      await bookingArrives(prepaidJob(jobId, null));
      const draft = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${jobId}`));
      expect(draft.status).toBe(201);
      expect((await confirm()).body.status).toBe('succeeded');
      const invoices = await invoicesOf(jobId);
      expect(invoices.map((i) => i.id)).toEqual([draft.body.customerInvoice.id]);
      expect(invoices[0]?.paymentIntentId).toBeNull();
      expect(
        await svc.ctx.db.customerInvoice.count({ where: { paymentIntentId: intent.paymentIntentId } }),
      ).toBe(0);
    });
  });
});
