/**
 * Issue 19 (audit of job editing, money): an admin's edit of a job's price (jobs, PATCH /api/dashboard/jobs/{id},
 * job.updated.v1) reaches booking, whose cancellation and no-show terms are what billing charges. Booking, jobs and
 * billing run for real (in-process, one shared exchange, each with its own database):
 *  - a pay-on-site battery job booked at 0.00, priced 189.50 by an admin, then marked a no-show: the manage page
 *    shows 189.50 and billing's "No-show charge" invoice totals 189.50 (not 0.00);
 *  - edited, then cancelled by the customer 18 hours before the slot: the page offered a 50% fee of the new price
 *    (94.75) and billing's cancellation fee invoice is 94.75;
 *  - an older job.updated delivered late (a replay with a new envelope) does not bring the old price back, and a
 *    staff edit of the notes made before the customer's own correction does not overwrite it (last writer per field).
 */
import { randomUUID } from 'node:crypto';
import { JobUpdated, type EventInput } from '@tyres/events';
import { slotStartsAt, type TimeSlot } from '@tyres/kernel';
import { waitFor } from '@tyres/testkit';
import { bookingBody, businessDays, EventObserver } from '../../services/booking/test/integration/harness';
import { call, startMultiService, type MultiServiceStack } from '../support/multi-service';

jest.setTimeout(180_000);

const SERVICES = ['booking', 'jobs', 'billing'] as const;
type Service = (typeof SERVICES)[number];
const HOUR = 3_600_000;

interface Stack extends Omit<MultiServiceStack<Service>, 'publish'> {
  events: EventObserver;
  publish(data: EventInput<typeof JobUpdated>): Promise<string>;
}

async function startStack(label: string): Promise<Stack> {
  const stack = await startMultiService({
    label,
    services: SERVICES,
    bookingEnv: {
      BOOKING_HORIZON_DAYS: '3660',
      HOLD_SWEEP_INTERVAL_MS: '250',
      PUBLIC_SITE_URL: 'https://tyres.test',
    },
  });
  const events = await EventObserver.attach(stack.amqpUrl, stack.prefix, stack.rabbit);
  return {
    ...stack,
    events,
    publish: (data) => stack.publish(JobUpdated, data),
    async stop() {
      await events.close();
      await stack.stop();
    },
  };
}

let stack: Stack;
let admin: Record<string, string>;
beforeAll(async () => {
  stack = await startStack('job-edit-terms');
  admin = stack.identity('admin');
});
afterAll(async () => {
  await stack?.stop();
});
afterEach(() => {
  stack.clock.offsetMs = 0;
});

const one = async (s: Service, sql: string, params: unknown[]) =>
  (await stack.pg[s].query(sql, params)).rows[0] as Record<string, unknown> | undefined;
const nextDay = businessDays('2031-09-01');
const SLOT: TimeSlot = '10-12 AM';
/** Sets booking's clock to `ms` after the start of (date, SLOT) (negative: before). */
const atSlot = (date: string, ms: number) => {
  stack.clock.offsetMs = slotStartsAt(date, SLOT).getTime() + ms - Date.now();
};

const tokenIn = (text: string) => /https:\/\/tyres\.test\/manage\/([A-Za-z0-9_-]{43})\b/.exec(text)?.[1];

/** A pay-on-site battery booking (quoted on site: 0.00), known to jobs and billing; its manage token. */
async function bookBattery(date: string) {
  const res = await call(
    stack.url.booking,
    'POST',
    '/api/bookings',
    bookingBody(date, SLOT, {
      job: { serviceType: 'battery-service', tyreSize: null, tyreQuantity: null, notes: 'Side gate' },
    }),
  );
  expect(res.status).toBe(201);
  const { jobId } = res.body as { jobId: string };
  const email = await stack.events.waitFor<{ jobId?: string; purpose?: string; text: string }>(
    'email.requested.v1',
    (d) => d.jobId === jobId && d.purpose === 'booking-manage-link',
    20_000,
  );
  const token = tokenIn(email.data.text);
  expect(token).toBeDefined();
  await waitFor(() => one('jobs', `SELECT 1 FROM jobs.jobs WHERE id = $1`, [jobId]), {
    timeoutMs: 20_000,
    message: 'jobs has the job',
  });
  await waitFor(() => one('billing', `SELECT 1 FROM billing.job_snapshots WHERE job_id = $1`, [jobId]), {
    timeoutMs: 20_000,
    message: 'billing has the job',
  });
  return { jobId, token: token! };
}

/** The admin's edit in jobs (optimistic version = the edits so far), then booking has applied it. */
async function edit(jobId: string, version: number, changes: Record<string, unknown>) {
  const res = await call(
    stack.url.jobs,
    'PATCH',
    `/api/dashboard/jobs/${jobId}`,
    { ...changes, reason: 'Priced on site', version },
    admin,
  );
  expect(res.status).toBe(200);
  await waitFor(
    () =>
      one('booking', `SELECT 1 FROM booking.bookings WHERE job_id = $1 AND job_edit_version = $2`, [
        jobId,
        version + 1,
      ]),
    { timeoutMs: 20_000, message: 'booking applies JobUpdated' },
  );
  return res.body as Record<string, unknown>;
}

const page = (token: string) => call(stack.url.booking, 'GET', `/api/manage/${token}`);

/** Billing's invoice for the job once BookingCancelled reached it: total and line descriptions. */
async function feeInvoice(jobId: string) {
  const inv = await waitFor(
    () =>
      one(
        'billing',
        `SELECT i.total_amount::text AS total, i.gst_amount::text AS gst, i.status,
                (SELECT string_agg(it.description, '|') FROM billing.customer_invoice_items it
                  WHERE it.customer_invoice_id = i.id) AS lines
           FROM billing.customer_invoices i WHERE i.job_id = $1`,
        [jobId],
      ),
    { timeoutMs: 20_000, message: 'billing raises the fee invoice' },
  );
  return inv as { total: string; gst: string; status: string; lines: string };
}

describe("an admin's price edit reaches booking's terms", () => {
  it('no-show of a battery job priced 0.00 → 189.50: the page shows 189.50 and billing charges 189.50', async () => {
    const date = nextDay();
    const { jobId, token } = await bookBattery(date);
    expect((await page(token)).body).toMatchObject({ price: '0.00' });

    await edit(jobId, 0, { customerValue: '189.50' });
    const shown = await page(token);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ price: '189.50', cancellation: { band: 'full_refund', fee: '0.00' } });

    atSlot(date, 30 * 60_000);
    const res = await call(
      stack.url.booking,
      'POST',
      `/api/dashboard/bookings/${jobId}/no-show`,
      { note: 'Nobody home' },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      price: '189.50',
      cancelled: { kind: 'no_show', band: 'no_refund', refund: '0.00', fee: '189.50' },
    });
    const event = await stack.events.waitFor<{ jobId: string; fee: string; kind: string }>(
      'booking.cancelled.v1',
      (d) => d.jobId === jobId,
    );
    expect(event.data).toMatchObject({ kind: 'no_show', fee: '189.50' });
    // 189.50 incl. GST: GST = 189.50 ÷ 11 = 17.227… → 17.23.
    expect(await feeInvoice(jobId)).toMatchObject({ total: '189.50', gst: '17.23', lines: 'No-show charge' });
  });

  it('customer cancels 18 h before the slot after the edit: 50% of the new price, 94.75, offered and charged', async () => {
    const date = nextDay();
    const { jobId, token } = await bookBattery(date);
    await edit(jobId, 0, { customerValue: '189.50' });

    atSlot(date, -18 * HOUR);
    const shown = await page(token);
    expect(shown.body).toMatchObject({
      price: '189.50',
      cancellation: { band: 'half_refund', refundPercent: 50, refund: '0.00', fee: '94.75' },
    });
    const res = await call(stack.url.booking, 'POST', `/api/manage/${token}/cancel`, {
      reason: 'Plans changed',
      expected: { band: 'half_refund', refund: '0.00', fee: '94.75' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      cancelled: { cancelledBy: 'customer', band: 'half_refund', fee: '94.75' },
    });
    expect(await feeInvoice(jobId)).toMatchObject({ total: '94.75', lines: 'Cancellation fee' });
  });

  it('an older edit delivered late does not revert a newer one; the customer keeps a later notes correction', async () => {
    const date = nextDay();
    const { jobId, token } = await bookBattery(date);
    const first = await edit(jobId, 0, { customerValue: '189.50' });
    const second = await edit(jobId, 1, { customerValue: '210.00', address: '9 Corrected Road' });
    expect(second).toMatchObject({ customerValue: '210.00' });
    expect((await page(token)).body).toMatchObject({
      price: '210.00',
      address: { street: '9 Corrected Road', suburb: 'Mandurah', postcode: '6210' },
    });

    // Version 1 again, in a new envelope (not stopped by the inbox): the newer version stands.
    const v1 = {
      jobId,
      jobNumber: String(first.jobNumber),
      version: 1,
      changed: ['customerValue'] as const,
      status: 'new' as const,
      customerValue: '189.50',
      address: '12 Smith St',
      suburb: 'Mandurah',
      postcode: '6210',
      vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, color: null, registration: 'X' },
      notes: 'Side gate',
      tyreSize: null,
      tyreQuantity: null,
      tyreBrand: null,
      updatedBy: randomUUID(),
      updatedAt: new Date(Date.now() - HOUR).toISOString(),
    };
    const replayed = await stack.publish({ ...v1, changed: ['customerValue'] });
    await waitFor(
      () =>
        one(
          'booking',
          `SELECT 1 FROM booking.inbox_events WHERE event_id = $1 AND handler = 'booking.applyJobEdit'`,
          [replayed],
        ),
      { timeoutMs: 20_000, message: 'booking handled the replay' },
    );
    expect((await page(token)).body).toMatchObject({
      price: '210.00',
      address: { street: '9 Corrected Road' },
    });

    // The customer corrects the notes; a staff notes edit made before that, delivered after, does not overwrite
    // them (the price of that newer version still applies: only staff set it).
    const corrected = await call(stack.url.booking, 'PATCH', `/api/manage/${token}`, {
      notes: 'Back lane, blue gate',
    });
    expect(corrected.status).toBe(200);
    const late = await stack.publish({
      ...v1,
      version: 3,
      changed: ['customerValue', 'notes'],
      customerValue: '220.00',
      address: '9 Corrected Road',
      notes: 'Staff note from before',
      updatedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await waitFor(
      () =>
        one(
          'booking',
          `SELECT 1 FROM booking.inbox_events WHERE event_id = $1 AND handler = 'booking.applyJobEdit'`,
          [late],
        ),
      { timeoutMs: 20_000, message: 'booking handled the late edit' },
    );
    expect((await page(token)).body).toMatchObject({ price: '220.00', notes: 'Back lane, blue gate' });

    // A staff edit after the correction wins the notes.
    await stack.publish({
      ...v1,
      version: 4,
      changed: ['notes'],
      customerValue: '220.00',
      address: '9 Corrected Road',
      notes: 'Dog in yard',
      updatedAt: new Date().toISOString(),
    });
    await waitFor(
      () =>
        one('booking', `SELECT 1 FROM booking.bookings WHERE job_id = $1 AND job_edit_version = 4`, [jobId]),
      { timeoutMs: 20_000, message: 'booking applies version 4' },
    );
    expect((await page(token)).body).toMatchObject({ price: '220.00', notes: 'Dog in yard' });
  });
});
