/**
 * The journeys that cross services, through the gateway of the stack scripts/parity.mjs starts exactly as
 * docker-compose.yml describes it (`npm run test:parity`). Each step names the call between processes it relies on,
 * so a miswired variable in compose fails here with the journey a customer or staff member would see break:
 *
 *   front ends    gateway → frontend-shell / frontend-public / frontend-dashboard (SHELL_URL, *_REMOTE_URL)
 *   sign-in, WS   gateway (Redis sessions) → notify (NOTIFY_URL, WebSocket upgrade)
 *   checkout      gateway → booking (quote, hold) → billing → booking (/internal/booking-token, billing's
 *                 BOOKING_URL) → test card → PaymentSucceeded → booking → BookingCreated → jobs, billing, notify
 *                 (the dashboard's live notification, the customer's confirmation email over SMTP)
 *   invoice       billing's PDF and email workers (Redis, SMTP_URL); reporting's GST report (events)
 *   reschedule, cancel, delete   gateway → jobs → booking (jobs' BOOKING_URL): the slot moves or is freed
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatMoney, toCents, withCardSurcharge } from '@tyres/kernel';
import WebSocket from 'ws';
import { pdfText } from '../../services/billing/test/pdf-text';

const BASE_URL = process.env.PARITY_BASE_URL ?? '';
const ADMIN_USERNAME = process.env.PARITY_ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.PARITY_ADMIN_PASSWORD ?? '';
const MAIL_DIR = process.env.PARITY_MAIL_DIR ?? '';
/** The sender .env gives billing and notify (EMAIL_FROM of the parity run). */
const EMAIL_FROM = 'invoices@parity.test';
/** The business details of the run's .env (SITE_URL, BUSINESS_NAME, BUSINESS_PHONE, BUSINESS_ABN, BUSINESS_EMAIL). */
const BUSINESS = JSON.parse(process.env.PARITY_BUSINESS ?? '{}') as Record<string, string>;

jest.setTimeout(120_000);

// ---------------------------------------------------------------------------------------------------------------
// Helpers

const unique = (prefix: string): string =>
  `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Polls until `check` answers something (not undefined), or fails naming what it waited for. */
async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
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

interface Answer<T> {
  status: number;
  body: T;
}

/** A call through the gateway as a browser on the site makes it (same origin), with or without a session. */
async function call<T>(method: string, urlPath: string, body?: unknown, cookie?: string): Promise<Answer<T>> {
  const res = await fetch(`${BASE_URL}${urlPath}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
      Origin: BASE_URL,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T };
}

/** Fails with the answer when the status is not the expected one. */
function expectStatus<T>(answer: Answer<T>, status: number, what: string): T {
  if (answer.status !== status)
    throw new Error(`${what}: answered ${answer.status}, expected ${status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

interface Mail {
  from: string;
  to: string[];
  raw: string;
}
/** The messages the run's SMTP receiver got (scripts/parity.mjs writes each one as JSON). */
function mails(): Mail[] {
  return readdirSync(MAIL_DIR)
    .sort()
    .map((f) => JSON.parse(readFileSync(path.join(MAIL_DIR, f), 'utf8')) as Mail);
}
const mailTo = (address: string, subject: RegExp) =>
  eventually(`an email to ${address} with subject ${String(subject)}`, async () =>
    mails().find((m) => m.to.includes(address) && subject.test(decodedSubject(m.raw))),
  );

/** The Subject header, RFC 2047 encoded words decoded (nodemailer encodes non-ASCII and long subjects). */
function decodedSubject(raw: string): string {
  const header = /^Subject: ((?:.*)(?:\r?\n[ \t].*)*)/im.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_all, enc: string, text: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** The PDF attached to a MIME message (base64 part of type application/pdf). */
function pdfAttachment(raw: string): { filename: string; content: Buffer } | undefined {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1] ?? '');
  for (const boundary of boundaries)
    for (const part of raw.split(`--${boundary}`)) {
      const split = part.search(/\r?\n\r?\n/);
      if (split < 0) continue;
      const headers = part.slice(0, split);
      if (!/content-type:\s*application\/pdf/i.test(headers)) continue;
      const filename = /filename="?([^";\r\n]+)"?/i.exec(headers)?.[1] ?? '';
      return { filename, content: Buffer.from(part.slice(split).replace(/\s+/g, ''), 'base64') };
    }
  return undefined;
}

interface Slot {
  slot: string;
  isAvailable: boolean;
}
/** Perth's date `offsetDays` from today. */
const perthDate = (offsetDays: number): string =>
  new Date(Date.now() + 8 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function slotsOn(date: string): Promise<Slot[]> {
  return expectStatus(
    await call<Slot[]>('GET', `/api/time-slots/availability?date=${date}`),
    200,
    'slot list',
  );
}
const isFree = async (date: string, slot: string): Promise<boolean> =>
  (await slotsOn(date)).find((s) => s.slot === slot)?.isAvailable === true;

/**
 * A free weekday slot, from a random day 3–50 days ahead (inside booking's 90-day horizon) so repeated runs rarely
 * meet; `not` excluded.
 */
async function freeSlot(not: { date: string; slot: string }[] = []): Promise<{ date: string; slot: string }> {
  const start = 3 + Math.floor(Math.random() * 48);
  for (let offset = start; offset < start + 35; offset++) {
    const date = perthDate(offset);
    const day = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (day === 0 || day === 6) continue;
    const free = (await slotsOn(date)).find(
      (s) => s.isAvailable && !not.some((n) => n.date === date && n.slot === s.slot),
    );
    if (free) return { date, slot: free.slot };
  }
  throw new Error('no free slot in 35 days');
}

interface Job {
  id: string;
  jobNumber: string;
  status: string;
  timeSlot: string;
  scheduledDate: string;
}
interface Invoice {
  id: string;
  invoiceNumber: string;
  status: string;
  totalAmount: string;
  paymentIntentId: string | null;
}

const customer = () => ({
  name: `Parity ${unique('Customer')}`,
  email: `${unique('parity')}@example.com`,
  phone: '0400 123 456',
});
const vehicle = () => ({
  make: 'Toyota',
  model: 'Hilux',
  year: 2019,
  registration: unique('P').slice(0, 8).toUpperCase(),
});

/** A pay-on-site booking from the public site (POST /api/bookings), in a free slot. */
async function onsiteBooking(): Promise<{ jobId: string; jobNumber: string; date: string; slot: string }> {
  const { date, slot } = await freeSlot();
  const answer = await call<{ jobId: string; jobNumber: string }>('POST', '/api/bookings', {
    customer: customer(),
    vehicle: vehicle(),
    job: {
      serviceType: 'puncture-repair',
      scheduledDate: date,
      timeSlot: slot,
      address: '12 Ocean Reef Road',
      suburb: 'Joondalup',
      postcode: '6027',
      paymentMethod: 'onsite',
    },
  });
  const booked = expectStatus(answer, 201, 'POST /api/bookings');
  expect(await isFree(date, slot)).toBe(false);
  return { ...booked, date, slot };
}

// ---------------------------------------------------------------------------------------------------------------

describe('production parity: the journeys across services, on the stack as docker-compose.yml runs it', () => {
  let cookie = '';
  let socket: WebSocket;
  const received: { type: string; data: Record<string, unknown> }[] = [];
  /** The prepaid booking of the checkout journey, used by the invoice and reschedule journeys. */
  let prepaid: { jobId: string; jobNumber: string; date: string; slot: string; email: string } | undefined;
  let prepaidInvoice: Invoice | undefined;

  beforeAll(() => {
    if (!BASE_URL || !MAIL_DIR)
      throw new Error('Run these through `npm run test:parity` (scripts/parity.mjs).');
  });
  afterAll(() => socket?.close());

  it("front ends: pages from the shell container, rendered at its start with .env's business details; the remotes from theirs; through the gateway", async () => {
    const page = await fetch(`${BASE_URL}/`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    const landing = await page.text();
    expect(landing).toContain('id="root"');
    // The shell's start step rendered the prerendered pages with compose's SITE_URL and BUSINESS_* (not the
    // image's placeholders).
    expect(landing).toContain(`rel="canonical" href="${BUSINESS.SITE_URL}/"`);
    expect(landing).toContain(BUSINESS.BUSINESS_NAME);
    expect(landing).toContain(BUSINESS.BUSINESS_PHONE);
    expect(landing).not.toContain('tyres-site-url.invalid');
    // A client-side route is the SPA shell (app.html), a prerendered page its own HTML.
    const dashboard = await fetch(`${BASE_URL}/dashboard`, { headers: { Accept: 'text/html' } });
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain('id="root"');
    const about = await fetch(`${BASE_URL}/about`, { headers: { Accept: 'text/html' } });
    expect(about.status).toBe(200);
    expect(await about.text()).not.toBe(landing);
    const config = await fetch(`${BASE_URL}/config.json`);
    expect(config.status).toBe(200);
    expect(JSON.stringify(await config.json())).toContain(BUSINESS.SITE_URL);
    const sitemap = await fetch(`${BASE_URL}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(await sitemap.text()).toContain(`<loc>${BUSINESS.SITE_URL}/</loc>`);
    for (const remote of ['public', 'dashboard']) {
      const entry = await fetch(`${BASE_URL}/remotes/${remote}/remoteEntry.js`);
      expect([remote, entry.status]).toEqual([remote, 200]);
      expect((await entry.text()).length).toBeGreaterThan(100);
      expect((await fetch(`${BASE_URL}/remotes/${remote}/no-such-chunk.js`)).status).toBe(404);
    }
  });

  it('staff sign in (gateway, Redis) and the dashboard socket connects (gateway → notify WebSocket)', async () => {
    const res = await fetch(`${BASE_URL}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: BASE_URL },
      body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
    });
    expect(res.status).toBe(200);
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/=/);
    expectStatus(await call('GET', '/api/user', undefined, cookie), 200, 'GET /api/user');

    socket = new WebSocket(`${BASE_URL.replace(/^http/, 'ws')}/ws/notifications`, {
      headers: { Cookie: cookie, Origin: BASE_URL },
    });
    socket.on('message', (data: WebSocket.RawData) => {
      received.push(JSON.parse(String(data)) as { type: string; data: Record<string, unknown> });
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('unexpected-response', (_req, r) =>
        reject(new Error(`WebSocket upgrade answered ${r.statusCode}`)),
      );
      socket.once('error', reject);
    });
    const connected = await eventually('the socket\'s "connected" message', async () =>
      received.find((m) => m.type === 'connected'),
    );
    expect(connected.data).toMatchObject({ role: 'admin' });
  });

  it('public prepaid checkout: quote, hold, card payment (billing → booking), then the job, the paid invoice, the live notification and the confirmation email', async () => {
    const tyre = { serviceType: 'new-tyres', tyreSize: '175/65R14', quantity: 2 };
    const quote = expectStatus(
      await call<{ total: string; discount: string }>('POST', '/api/pricing/quote', {
        ...tyre,
        prepaid: true,
      }),
      200,
      'quote',
    );
    expect(quote.discount).toBe('30.00');
    const { date, slot } = await freeSlot();
    const who = customer();
    const held = expectStatus(
      await call<{ bookingToken: string; amount: string; jobId: string; jobNumber: string }>(
        'POST',
        '/api/bookings/quote',
        {
          customer: who,
          vehicle: vehicle(),
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
        },
      ),
      201,
      'POST /api/bookings/quote',
    );
    expect(held.amount).toBe(quote.total);
    expect(await isFree(date, slot)).toBe(false); // the hold

    // billing looks the booking up at booking (/internal/booking-token): billing's BOOKING_URL.
    const intent = expectStatus(
      await call<{ clientSecret: string; paymentIntentId: string; totalAmount: string; testMode: boolean }>(
        'POST',
        '/api/create-payment-intent-token',
        { bookingToken: held.bookingToken },
      ),
      200,
      'POST /api/create-payment-intent-token',
    );
    expect(intent.testMode).toBe(true);
    expect(intent.totalAmount).toBe(formatMoney(withCardSurcharge(toCents(quote.total)).total));
    const paid = expectStatus(
      await call<{ status: string }>('POST', '/api/payments/test-mode/confirm', {
        clientSecret: intent.clientSecret,
        cardNumber: '4242 4242 4242 4242',
      }),
      200,
      'test card payment',
    );
    expect(paid.status).toBe('succeeded');

    // booking confirms the paid quote; jobs, billing and notify learn of it by event.
    const job = await eventually(`job ${held.jobNumber} in the jobs service`, async () => {
      const r = await call<Job>('GET', `/api/dashboard/jobs/${held.jobId}`, undefined, cookie);
      return r.status === 200 ? r.body : undefined;
    });
    expect(job).toMatchObject({ jobNumber: held.jobNumber, status: 'new', timeSlot: slot });
    const notice = await eventually(`the dashboard's live notification of ${held.jobNumber}`, async () =>
      received.find((m) => m.type === 'new_booking' && m.data.jobNumber === held.jobNumber),
    );
    expect(notice.data).toMatchObject({ jobNumber: held.jobNumber, timeSlot: slot });
    prepaidInvoice = await eventually('the paid invoice billing makes for the prepaid booking', async () => {
      const r = await call<Invoice[]>(
        'GET',
        `/api/dashboard/customer-invoices/job/${held.jobId}`,
        undefined,
        cookie,
      );
      return r.status === 200 && r.body.length > 0 ? r.body[0] : undefined;
    });
    expect(prepaidInvoice).toMatchObject({
      status: 'paid',
      totalAmount: intent.totalAmount,
      paymentIntentId: intent.paymentIntentId,
    });
    // notify's booking confirmation went out through the SMTP server .env names (SMTP_URL).
    const confirmation = await mailTo(who.email, new RegExp(`Booking confirmed: .*\\(${held.jobNumber}\\)`));
    expect(confirmation.from).toBe(EMAIL_FROM);
    prepaid = { jobId: held.jobId, jobNumber: held.jobNumber, date, slot, email: who.email };
  });

  it("invoice PDF and email (billing's workers on Redis, SMTP), and the invoice in reporting's GST report", async () => {
    if (!prepaid || !prepaidInvoice) throw new Error('needs the prepaid checkout');
    const invoice = prepaidInvoice;
    const made = expectStatus(
      await call<{ downloadUrl: string; status: string }>(
        'POST',
        `/api/dashboard/customer-invoices/${invoice.id}/pdf`,
        undefined,
        cookie,
      ),
      200,
      'POST …/pdf',
    );
    const pdf = await fetch(`${BASE_URL}${made.downloadUrl}`, { headers: { Cookie: cookie } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = pdfText(Buffer.from(await pdf.arrayBuffer()));
    expect(text).toContain(invoice.invoiceNumber);
    expect(text).toContain(`$${invoice.totalAmount}`);
    // billing prints the business of compose's .env (BUSINESS_NAME, BUSINESS_ABN).
    expect(text).toContain(BUSINESS.BUSINESS_NAME);
    expect(text).toContain(BUSINESS.BUSINESS_ABN);

    const sent = expectStatus(
      await call<{ transport: string; delivered: boolean; to: string }>(
        'POST',
        `/api/dashboard/customer-invoices/${invoice.id}/email`,
        {},
        cookie,
      ),
      200,
      'POST …/email',
    );
    expect(sent).toMatchObject({ transport: 'smtp', delivered: true, to: prepaid.email });
    const mail = await mailTo(prepaid.email, new RegExp(`Tax invoice ${invoice.invoiceNumber}`));
    expect(mail.from).toBe(EMAIL_FROM);
    const attachment = pdfAttachment(mail.raw);
    expect(attachment?.filename).toBe(`${invoice.invoiceNumber}.pdf`);
    expect(pdfText(attachment!.content)).toContain(invoice.invoiceNumber);

    // reporting projects billing's invoice events into its reports.
    const today = perthDate(0);
    await eventually(`invoice ${invoice.invoiceNumber} in the GST report`, async () => {
      const r = await call<unknown>(
        'GET',
        `/api/dashboard/reports/gst?startDate=${perthDate(-1)}&endDate=${today}`,
        undefined,
        cookie,
      );
      return r.status === 200 && JSON.stringify(r.body).includes(invoice.invoiceNumber) ? true : undefined;
    });
  });

  it('reschedule (gateway → jobs → booking): the job moves, the old slot is free again, the new one taken', async () => {
    if (!prepaid) throw new Error('needs the prepaid checkout');
    const to = await freeSlot([{ date: prepaid.date, slot: prepaid.slot }]);
    const moved = expectStatus(
      await call<Job>(
        'PUT',
        `/api/dashboard/jobs/${prepaid.jobId}/reschedule`,
        { scheduledDate: to.date, timeSlot: to.slot },
        cookie,
      ),
      200,
      'reschedule',
    );
    expect(moved.timeSlot).toBe(to.slot);
    expect(await isFree(prepaid.date, prepaid.slot)).toBe(true);
    expect(await isFree(to.date, to.slot)).toBe(false);
  });

  it('cancel (gateway → jobs → booking): the job is cancelled and its slot is free again', async () => {
    const booking = await onsiteBooking();
    await eventually(`job ${booking.jobNumber} in the jobs service`, async () =>
      (await call('GET', `/api/dashboard/jobs/${booking.jobId}`, undefined, cookie)).status === 200
        ? true
        : undefined,
    );
    const cancelled = expectStatus(
      await call<Job>(
        'PATCH',
        `/api/dashboard/jobs/${booking.jobId}/status`,
        { status: 'cancelled' },
        cookie,
      ),
      200,
      'cancel',
    );
    expect(cancelled.status).toBe('cancelled');
    expect(await isFree(booking.date, booking.slot)).toBe(true);
  });

  it('delete (gateway → jobs → booking): the job is gone and its slot is free again', async () => {
    const booking = await onsiteBooking();
    await eventually(`job ${booking.jobNumber} in the jobs service`, async () =>
      (await call('GET', `/api/dashboard/jobs/${booking.jobId}`, undefined, cookie)).status === 200
        ? true
        : undefined,
    );
    const deleted = expectStatus(
      await call<{ success: boolean; jobNumber: string }>(
        'DELETE',
        `/api/dashboard/jobs/${booking.jobId}`,
        undefined,
        cookie,
      ),
      200,
      'delete',
    );
    expect(deleted).toMatchObject({ success: true, jobNumber: booking.jobNumber });
    expect((await call('GET', `/api/dashboard/jobs/${booking.jobId}`, undefined, cookie)).status).toBe(404);
    expect(await isFree(booking.date, booking.slot)).toBe(true);
  });
});
