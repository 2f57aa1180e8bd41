/**
 * The money walk of issue 12 ("the price quoted is the price invoiced, paid and reported"), through the gateway
 * against the real services: what a customer is quoted is what the invoice totals, its GST is one eleventh of that,
 * and the PDF the customer receives says so.
 *
 *   1. Puncture repair, paid on site: quote → book → staff start and complete the work → Generate Invoice → PDF.
 *   2. Two new tyres, prepaid online with the test card: quote → checkout (1.7% card surcharge) → the paid invoice
 *      billing makes itself equals the card total, with the surcharge line; the job stays "new" until the work is
 *      done; Generate answers 409 (no second, higher draft); completing the work closes the job as paid.
 */
import { formatMoney, gstInInclusive, toCents, withCardSurcharge } from '@tyres/kernel';
import { pdfText } from '../../services/billing/test/pdf-text';
import { BASE_URL, assertStackIsUp } from './browser';
import { ADMIN_PASSWORD, ADMIN_USERNAME, createBooking, findFreeSlot, unique } from './dashboard-helpers';

jest.setTimeout(180_000);

interface Quote {
  total: string;
  gst: string;
  discount: string;
  callbackRequired: boolean;
}
interface Item {
  description: string;
  category: string;
  quantity: number;
  unitPrice: string;
  totalPrice: string;
  gstFree: boolean;
}
interface Invoice {
  id: string;
  invoiceNumber: string;
  status: string;
  amountType: 'inclusive' | 'exclusive';
  paymentIntentId: string | null;
  subtotalAmount: string;
  gstAmount: string;
  totalAmount: string;
  items: Item[];
}
interface Job {
  id: string;
  jobNumber: string;
  status: string;
  paymentStatus: string;
  customerValue: string;
}

/** Polls until `check` answers something (not undefined), or fails naming what it waited for. */
async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** A signed-in staff member's calls through the gateway: `raw` answers the response whatever its status. */
class Staff {
  private constructor(private readonly cookie: string) {}

  static async login(username: string, password: string): Promise<Staff> {
    const res = await fetch(`${BASE_URL}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: BASE_URL },
      body: JSON.stringify({ username, password }),
    });
    if (!res.ok) throw new Error(`login answered ${res.status}`);
    return new Staff((res.headers.get('set-cookie') ?? '').split(';')[0] ?? '');
  }

  raw(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(`${BASE_URL}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        Cookie: this.cookie,
        Origin: BASE_URL,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.raw(method, path, body);
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
}

/** A public call (no session), answering status and JSON body. */
async function publicCall<T>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Origin: BASE_URL },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** The invoice's PDF as a staff member downloads it, read back as text. */
async function pdfOf(admin: Staff, invoice: Invoice): Promise<string> {
  const made = await admin.call<{ downloadUrl: string; status: string }>(
    'POST',
    `/api/dashboard/customer-invoices/${invoice.id}/pdf`,
  );
  const bytes = await eventually('the invoice PDF', async () => {
    const res = await admin.raw('GET', made.downloadUrl);
    if (res.status !== 200) return undefined;
    expect(res.headers.get('content-type')).toBe('application/pdf');
    return Buffer.from(await res.arrayBuffer());
  });
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return pdfText(bytes);
}

describe('money walk: the price quoted is the price invoiced and paid', () => {
  let admin: Staff;

  beforeAll(async () => {
    await assertStackIsUp();
    admin = await Staff.login(ADMIN_USERNAME, ADMIN_PASSWORD);
  });

  const job = (id: string) => admin.call<Job>('GET', `/api/dashboard/jobs/${id}`);
  /** The jobs service learns of a booking by event. */
  const waitForJob = (id: string) => eventually(`job ${id} in the jobs service`, () => job(id));
  const setStatus = (id: string, status: string) =>
    admin.call<unknown>('PATCH', `/api/dashboard/jobs/${id}/status`, { status });
  const invoicesOf = (jobId: string) =>
    admin.call<Invoice[]>('GET', `/api/dashboard/customer-invoices/job/${jobId}`);

  it('puncture repair on site: quoted $129.80 → invoice total $129.80 with GST $11.80 (total ÷ 11), and the PDF says so', async () => {
    const quote = await publicCall<Quote>('POST', '/api/pricing/quote', {
      serviceType: 'puncture-repair',
      prepaid: false,
    });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ total: '129.80', gst: '11.80', callbackRequired: false });

    const booking = await createBooking({ serviceType: 'puncture-repair' });
    await waitForJob(booking.jobId);
    expect((await job(booking.jobId)).customerValue).toBe(quote.body.total);
    await setStatus(booking.jobId, 'in-progress');
    await setStatus(booking.jobId, 'completed');

    // Generate Invoice (billing learns of the booking by event: it may take a moment).
    const generated = await eventually('Generate Invoice', async () => {
      const res = await admin.raw('POST', `/api/dashboard/customer-invoices/generate/${booking.jobId}`);
      if (res.status === 404) return undefined;
      expect(res.status).toBe(201);
      return ((await res.json()) as { customerInvoice: Invoice }).customerInvoice;
    });
    const total = toCents(quote.body.total);
    expect(generated).toMatchObject({
      amountType: 'inclusive',
      status: 'draft',
      totalAmount: quote.body.total,
      gstAmount: formatMoney(gstInInclusive(total)),
      subtotalAmount: formatMoney(total - gstInInclusive(total)),
    });
    expect(generated.gstAmount).toBe('11.80');
    expect(generated.items.map((i) => [i.description, i.totalPrice])).toEqual([
      ['Mobile callout fee', '89.80'],
      ['Puncture repair', '40.00'],
    ]);

    const text = await pdfOf(admin, generated);
    for (const expected of [
      'TAX INVOICE',
      generated.invoiceNumber,
      'Amounts include GST',
      'Mobile callout fee',
      'Puncture repair',
      'Total (AUD)',
      '$129.80',
      'Includes GST',
      '$11.80',
      'Amounts include GST: the total of $129.80 includes GST of $11.80.',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('$142.78'); // the old "GST on top" total

    // The jobs service moved the job on when billing announced the invoice.
    await eventually('the job to be invoiced', async () =>
      (await job(booking.jobId)).status === 'invoiced' ? true : undefined,
    );
  });

  it('two new tyres prepaid by card: the paid invoice equals the card total (with the 1.7% surcharge line), once; Generate answers 409', async () => {
    const tyre = { serviceType: 'new-tyres', tyreSize: '175/65R14', quantity: 2 };
    const quote = await publicCall<Quote>('POST', '/api/pricing/quote', { ...tyre, prepaid: true });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ callbackRequired: false, discount: '30.00' });
    const price = toCents(quote.body.total);
    expect(quote.body.gst).toBe(formatMoney(gstInInclusive(price)));

    // The booking dialog's prepaid path: a quote holding the slot, then the checkout.
    const { date, slot } = await findFreeSlot();
    const booked = await publicCall<{
      bookingToken: string;
      amount: string;
      jobId: string;
      jobNumber: string;
    }>('POST', '/api/bookings/quote', {
      customer: {
        name: `E2E ${unique('Prepaid')}`,
        email: `${unique('e2e')}@example.com`,
        phone: '0400 111 222',
      },
      vehicle: {
        make: 'Ford',
        model: 'Ranger',
        year: 2020,
        registration: unique('P').slice(0, 8).toUpperCase(),
      },
      job: {
        serviceType: 'new-tyres',
        tyreSize: tyre.tyreSize,
        tyreQuantity: tyre.quantity,
        scheduledDate: date,
        timeSlot: slot,
        address: '5 Test Street',
        suburb: 'Rockingham',
        postcode: '6168',
        paymentMethod: 'prepaid',
      },
    });
    expect(booked.status).toBe(201);
    expect(booked.body.amount).toBe(quote.body.total);
    const intent = await publicCall<{
      clientSecret: string;
      paymentIntentId: string;
      originalAmount: string;
      surchargeAmount: string;
      totalAmount: string;
      testMode: boolean;
    }>('POST', '/api/create-payment-intent-token', { bookingToken: booked.body.bookingToken });
    expect(intent.status).toBe(200);
    const charged = withCardSurcharge(price);
    expect(intent.body).toMatchObject({
      testMode: true,
      originalAmount: quote.body.total,
      surchargeAmount: formatMoney(charged.surcharge),
      totalAmount: formatMoney(charged.total),
    });
    const paid = await publicCall<{ status: string }>('POST', '/api/payments/test-mode/confirm', {
      clientSecret: intent.body.clientSecret,
      cardNumber: '4242 4242 4242 4242',
    });
    expect(paid.body.status).toBe('succeeded');

    // The job appears (booking confirms the paid quote) with its paid invoice, made by billing.
    const jobId = booked.body.jobId;
    await waitForJob(jobId);
    const [invoice] = await eventually('the prepaid invoice', async () => {
      const list = await invoicesOf(jobId);
      return list.length > 0 ? list : undefined;
    });
    expect(invoice).toMatchObject({
      status: 'paid',
      amountType: 'inclusive',
      paymentIntentId: intent.body.paymentIntentId,
      totalAmount: intent.body.totalAmount,
      gstAmount: formatMoney(gstInInclusive(charged.total)),
    });
    // The discounted job price (the tyres take what the fees leave), the surcharge line, the paid note.
    expect(invoice!.items).toMatchObject([
      {
        description: 'Mobile callout fee (less $30.00 prepaid online discount)',
        category: 'callout',
        totalPrice: '59.80',
      },
      {
        description: expect.stringMatching(/^New tyre 175\/65R14/),
        category: 'tyre',
        quantity: 2,
        totalPrice: formatMoney(price - toCents('59.80') - toCents('80.00')),
      },
      { description: 'Tyre fitting', category: 'labour', totalPrice: '50.00' },
      { description: 'Wheel balancing', category: 'labour', totalPrice: '30.00' },
      { description: 'Card surcharge 1.7%', category: 'surcharge', totalPrice: intent.body.surchargeAmount },
      { description: 'Paid online at booking - thank you', category: 'note', totalPrice: '0.00' },
    ]);

    // The work has not been done: the paid invoice does not make the job invoiced or paid.
    expect((await job(jobId)).status).toBe('new');
    // No second, higher draft: Generate answers 409 naming the paid invoice.
    const again = await admin.raw('POST', `/api/dashboard/customer-invoices/generate/${jobId}`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe(
      `Job ${booked.body.jobNumber} already has invoice ${invoice!.invoiceNumber}`,
    );

    const text = await pdfOf(admin, invoice!);
    for (const expected of [
      invoice!.invoiceNumber,
      'Amounts include GST',
      'Card surcharge 1.7%',
      `$${intent.body.surchargeAmount}`,
      'Total (AUD)',
      `$${intent.body.totalAmount}`,
      'Includes GST',
      `$${invoice!.gstAmount}`,
      'PAID on',
      `Paid by card at booking (payment reference ${intent.body.paymentIntentId}).`,
    ])
      expect(text).toContain(expected);

    // The technician does the work: completing it closes the job as paid, with no second invoice.
    await setStatus(jobId, 'in-progress');
    await setStatus(jobId, 'completed');
    expect(await job(jobId)).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await invoicesOf(jobId)).map((i) => [i.invoiceNumber, i.status, i.totalAmount])).toEqual([
      [invoice!.invoiceNumber, 'paid', intent.body.totalAmount],
    ]);
  });
});
