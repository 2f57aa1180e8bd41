/**
 * End-to-end: the cancellation policy applied the same way everywhere (issue 18), against the real stack in headless
 * Chromium. Booking's "now" is moved per request with the stack's test clock (TEST_CLOCK=header,
 * services/booking/src/test-clock.ts: `x-test-clock-offset-ms`), and the dashboard's browser clock with Playwright's,
 * so a booking days ahead can be cancelled "30 hours" or "6 hours" before its slot, or marked a no-show "after it
 * started", whatever the time of day the suite runs.
 *
 *  (a) a customer opens the link from the recorded confirmation email, reschedules, then cancels a prepaid booking
 *      30 hours ahead: the page states the full refund before confirming; billing refunds it through the Stripe fake;
 *  (b) another prepaid booking cancelled 6 hours ahead: the page states no refund, none is made;
 *  (c) staff cancel with the fee waived: the reason and the waiver are on the job's cancellation record;
 *  (d) the day-before reminder is a delayed job in notify's `reminders` BullMQ queue and goes when it is cancelled;
 *  (e) staff mark a no-show: an invoice for the job's price appears on the job.
 * Screenshots go to /tmp/cancellation-*.png.
 */
import { Queue } from 'bullmq';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiSession, ADMIN_PASSWORD, ADMIN_USERNAME, signIn, unexpectedErrors } from './dashboard-helpers';
import { assertStackIsUp, BASE_URL, launchBrowser, openPage, type PageHandle } from './browser';
import { dayLabel } from './public-helpers';

jest.setTimeout(240_000);

const HOUR = 3_600_000;
const CLOCK_HEADER = 'x-test-clock-offset-ms';
const SLOT_START: Record<string, string> = {
  '8-10 AM': '08:00',
  '10-12 AM': '10:00',
  '12-2 PM': '12:00',
  '2-4 PM': '14:00',
};

let browser: Browser | undefined;
let admin: ApiSession;
let reminders: Queue | undefined;

beforeAll(async () => {
  await assertStackIsUp();
  browser = await launchBrowser();
  admin = await ApiSession.login(ADMIN_USERNAME, ADMIN_PASSWORD);
});

afterAll(async () => {
  await reminders?.close();
  await browser?.close();
});

function requireBrowser(): Browser {
  if (!browser) throw new Error('Chromium was not launched (see the beforeAll error above)');
  return browser;
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 45_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 400));
  }
}

/** The Perth calendar date `offsetDays` from today. */
function perthDate(offsetDays: number): string {
  return new Date(Date.now() + 8 * HOUR + offsetDays * 86_400_000).toISOString().slice(0, 10);
}
const isWeekday = (date: string) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay());
/** When a slot starts (Perth is UTC+8 all year). */
const slotStart = (date: string, slot: string) => new Date(`${date}T${SLOT_START[slot]}:00+08:00`);

/** Free slots on weekdays from `fromDays` ahead, never one this file used already. */
const used = new Set<string>();
async function freeSlotFrom(
  fromDays: number,
  toDays = fromDays + 60,
): Promise<{ date: string; slot: string }> {
  for (let offset = fromDays; offset <= toDays; offset++) {
    const date = perthDate(offset);
    if (!isWeekday(date)) continue;
    const res = await fetch(`${BASE_URL}/api/time-slots?date=${date}`);
    if (!res.ok) throw new Error(`GET /api/time-slots answered ${res.status}`);
    for (const s of (await res.json()) as { slot: string; isAvailable: boolean }[]) {
      const key = `${date} ${s.slot}`;
      if (s.isAvailable && !used.has(key)) {
        used.add(key);
        return { date, slot: s.slot };
      }
    }
  }
  throw new Error(`no free slot between ${fromDays} and ${toDays} days ahead`);
}

async function publicPost<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

const customer = (tag: string) => ({
  name: `Policy ${tag}`,
  email: `policy-${tag}-${Date.now().toString(36)}@example.com`,
  phone: '0412 345 678',
});
const vehicle = { make: 'Toyota', model: 'Corolla', year: 2018, registration: 'POL123' };
const place = { address: '10 Rockingham Beach Road', suburb: 'Rockingham', postcode: '6168' };

/** A prepaid puncture repair paid with the test card through billing's test mode: its job id and what was charged. */
async function bookAndPay(date: string, slot: string, tag: string): Promise<string> {
  const quote = await publicPost<{ bookingToken: string; jobId: string }>('/api/bookings/quote', {
    customer: customer(tag),
    vehicle,
    job: {
      serviceType: 'puncture-repair',
      scheduledDate: date,
      timeSlot: slot,
      ...place,
      paymentMethod: 'prepaid',
    },
  });
  const intent = await publicPost<{ clientSecret: string }>('/api/create-payment-intent-token', {
    bookingToken: quote.bookingToken,
  });
  await publicPost('/api/payments/test-mode/confirm', {
    clientSecret: intent.clientSecret,
    cardNumber: '4242 4242 4242 4242',
  });
  return quote.jobId;
}

/** A pay-on-site booking: its job id and number. */
async function bookOnsite(date: string, slot: string, tag: string) {
  return publicPost<{ jobId: string; jobNumber: string }>('/api/bookings', {
    customer: customer(tag),
    vehicle,
    job: {
      serviceType: 'puncture-repair',
      scheduledDate: date,
      timeSlot: slot,
      ...place,
      paymentMethod: 'onsite',
    },
  });
}

interface DeliverySummary {
  id: string;
  purpose: string;
}

/** The manage link in the booking confirmation email notify recorded for the job (its delivery log, the admin API). */
async function manageLinkFromEmail(jobId: string): Promise<string> {
  const delivery = await eventually(
    'the confirmation email (with its manage link) in the delivery log',
    async () => {
      const { deliveries } = await admin.call<{ deliveries: DeliverySummary[] }>(
        'GET',
        `/api/dashboard/notifications/deliveries?channel=email&jobId=${jobId}`,
      );
      return deliveries.find((d) => d.purpose === 'booking-confirmation');
    },
  );
  const detail = await admin.call<{ body: string }>(
    'GET',
    `/api/dashboard/notifications/deliveries/${delivery.id}`,
  );
  const match = /https?:\/\/\S+?(\/manage\/[A-Za-z0-9_-]{20,})/.exec(detail.body);
  if (!match?.[1]) throw new Error(`no manage link in the email: ${detail.body}`);
  return `${BASE_URL}${match[1]}`;
}

/** Booking's clock for every request of this browser context: `at` instead of now (time still flows). */
async function bookingClockAt(context: BrowserContext, at: Date): Promise<void> {
  await context.setExtraHTTPHeaders({ [CLOCK_HEADER]: String(at.getTime() - Date.now()) });
}

interface Refund {
  jobId: string;
  jobNumber: string;
  amount: string;
  status: string;
  mode: string;
}
const refundsOf = async (jobId: string) =>
  (await admin.call<Refund[]>('GET', '/api/dashboard/refunds?limit=100')).filter((r) => r.jobId === jobId);

async function jobStatus(jobId: string): Promise<string | undefined> {
  try {
    return (await admin.call<{ status: string }>('GET', `/api/dashboard/jobs/${jobId}`)).status;
  } catch {
    return undefined;
  }
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/cancellation-${name}.png`, fullPage: true });
}

/** The job's detail in the dashboard, signed in as the administrator. */
async function openJobInDashboard(page: Page, jobId: string) {
  await signIn(page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await page.goto(`${BASE_URL}/dashboard?tab=jobs&job=${encodeURIComponent(jobId)}`);
  const detail = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('heading', { name: 'Job Progress' }) });
  await detail.waitFor();
  return detail;
}

describe('the cancellation policy, end to end', () => {
  let handle: PageHandle | undefined;

  afterEach(async () => {
    await handle?.context.close();
    handle = undefined;
  });

  test('(a) from the recorded email: reschedule, then cancel a prepaid booking 30 hours ahead; refunded in full via Stripe', async () => {
    handle = await openPage(requireBrowser(), 'phone');
    const { page, context, errors } = handle;
    const first = await freeSlotFrom(3);
    const jobId = await bookAndPay(first.date, first.slot, 'a');
    const link = await manageLinkFromEmail(jobId);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Your booking', level: 1 }).waitFor();
    const details = page.getByRole('region', { name: 'Booking details' });
    await details.getByText(`${dayLabel(first.date)}, ${first.slot}`).waitFor();

    // Reschedule to another free slot (on the page, as the customer does).
    const second = await freeSlotFrom(4);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    const form = page.getByRole('form', { name: 'Choose a new date and time' });
    const day = form.getByRole('button', { name: dayLabel(second.date), exact: true });
    for (let i = 0; i < 3 && !(await day.isVisible()); i++) {
      await form.getByRole('button', { name: 'Next month' }).click();
    }
    await day.click();
    await form.getByRole('radio', { name: new RegExp(`^${second.slot.replace(/-/g, '\\-')}`) }).check();
    await form.getByRole('button', { name: 'Move my booking' }).click();
    await page.getByText('Booking moved').waitFor();
    await details.getByText(`${dayLabel(second.date)}, ${second.slot}`).waitFor();

    // 30 hours before the new slot: the page states the full refund before the customer confirms.
    await bookingClockAt(context, new Date(slotStart(second.date, second.slot).getTime() - 30 * HOUR));
    await page.reload();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this booking?' });
    const wording = confirm.getByText(/^Cancelling now: full refund of \$[\d,]+\.\d{2} to your card\.$/);
    await wording.waitFor();
    const amount = /\$([\d,]+\.\d{2})/.exec((await wording.textContent()) ?? '')?.[1] ?? '';
    expect(amount).not.toBe('');
    await screenshot(page, 'a-30h-confirm');
    await confirm.getByRole('button', { name: 'Yes, cancel booking' }).click();
    const cancelled = page.getByRole('status').filter({ hasText: 'This booking has been cancelled' });
    await cancelled.getByText(`A refund of $${amount} is being returned to your card.`).waitFor();
    await screenshot(page, 'a-30h-cancelled');

    // Billing refunds the whole charge through the Stripe fake; the refund settles as succeeded.
    const refund = await eventually('the refund to succeed', async () => {
      const [r] = await refundsOf(jobId);
      return r?.status === 'succeeded' ? r : undefined;
    });
    expect(refund).toMatchObject({ amount: amount.replace(/,/g, ''), status: 'succeeded' });
    expect(await refundsOf(jobId)).toHaveLength(1);
    await eventually('the job to show cancelled', async () =>
      (await jobStatus(jobId)) === 'cancelled' ? true : undefined,
    );
    expect(errors).toEqual([]);

    // Staff see it in the dashboard: Invoices tab, Card Refunds, succeeded.
    const staff = await openPage(requireBrowser(), 'desktop');
    try {
      await signIn(staff.page, ADMIN_USERNAME, ADMIN_PASSWORD);
      await staff.page.goto(`${BASE_URL}/dashboard?tab=invoices`);
      const row = staff.page
        .getByRole('list', { name: 'Card refunds' })
        .getByRole('listitem', { name: `Refund for ${refund.jobNumber}` });
      await row.getByText('Succeeded').waitFor();
      expect(await row.textContent()).toContain(`$${amount}`);
      await screenshot(staff.page, 'a-dashboard-refunds');
      expect(unexpectedErrors(staff.errors)).toEqual([]);
    } finally {
      await staff.context.close();
    }
  });

  test('(b) a prepaid booking cancelled 6 hours ahead: the page states no refund, and none is made', async () => {
    handle = await openPage(requireBrowser(), 'phone');
    const { page, context, errors } = handle;
    const slot = await freeSlotFrom(3);
    const jobId = await bookAndPay(slot.date, slot.slot, 'b');
    const link = await manageLinkFromEmail(jobId);

    await bookingClockAt(context, new Date(slotStart(slot.date, slot.slot).getTime() - 6 * HOUR));
    await page.goto(link);
    await page.getByRole('heading', { name: 'Your booking', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this booking?' });
    await confirm
      .getByText(
        /^No refund: less than 12 hours before your booking\. The \$[\d,]+\.\d{2} you paid is kept\.$/,
      )
      .waitFor();
    await screenshot(page, 'b-6h-confirm');
    await confirm.getByRole('button', { name: 'Yes, cancel booking' }).click();
    const cancelled = page.getByRole('status').filter({ hasText: 'This booking has been cancelled' });
    await cancelled.getByText(/^No refund was due: the \$[\d,]+\.\d{2} you paid is kept/).waitFor();
    await screenshot(page, 'b-6h-cancelled');

    // Jobs applied the cancellation; billing (the same event) has had time to: no refund was recorded.
    await eventually('the job to show cancelled', async () =>
      (await jobStatus(jobId)) === 'cancelled' ? true : undefined,
    );
    await new Promise((r) => setTimeout(r, 3000));
    expect(await refundsOf(jobId)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('(c) staff cancel with the fee waived: the reason and the waiver are on the job', async () => {
    const slot = await freeSlotFrom(3);
    const { jobId, jobNumber } = await bookOnsite(slot.date, slot.slot, 'c');
    await eventually('the job in the dashboard', async () => ((await jobStatus(jobId)) ? true : undefined));
    handle = await openPage(requireBrowser(), 'desktop');
    const { page, context, errors } = handle;
    // 18 hours before the slot: half the price is the fee, which staff waive.
    const at = new Date(slotStart(slot.date, slot.slot).getTime() - 18 * HOUR);
    await page.clock.install({ time: at });
    await bookingClockAt(context, at);
    const detail = await openJobInDashboard(page, jobId);
    await detail.getByRole('button', { name: 'Cancel Job' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: `Cancel Job ${jobNumber}` });
    const terms = dialog.getByRole('region', { name: 'Cancellation terms' });
    await terms.getByText('12 to 24 hours before the booking: 50% refund').waitFor();
    await terms.getByText(/^Cancellation fee: \$[\d,]+\.\d{2}$/).waitFor();
    await dialog.getByRole('checkbox', { name: 'Waive the fee' }).check();
    await terms.getByText(/^Cancellation fee: \$[\d,]+\.\d{2} \(waived\)$/).waitFor();
    await dialog.getByLabel(/Reason/).fill('Customer in hospital');
    await screenshot(page, 'c-staff-cancel');
    await dialog.getByRole('button', { name: 'Cancel Job' }).click();
    await page.getByText('Job Cancelled').first().waitFor();

    // The cancellation record on the job: who, why, the policy, the fee waived.
    const record = detail
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Cancellation' }) });
    await record.getByText('Customer in hospital').waitFor({ timeout: 20_000 });
    await record.getByText(/by staff/).waitFor();
    await record.getByText('12 to 24 hours before the booking: 50% refund').waitFor();
    await record.getByText(/\$[\d,]+\.\d{2} \(waived\)/).waitFor();
    await screenshot(page, 'c-cancellation-record');
    // The booking's record keeps the staff member (the audit trail of the waiver).
    const booking = await admin.call<{ cancelled: Record<string, unknown> }>(
      'GET',
      `/api/dashboard/bookings/${jobId}/cancellation`,
    );
    expect(booking.cancelled).toMatchObject({
      cancelledBy: 'staff',
      reason: 'Customer in hospital',
      band: 'half_refund',
      feeWaived: true,
    });
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  test("(d) tomorrow's booking has its day-before reminder in the reminders queue, removed when it is cancelled", async () => {
    const prefix = process.env.E2E_REDIS_PREFIX;
    if (prefix === undefined) throw new Error('E2E_REDIS_PREFIX is not set: run through scripts/e2e.mjs');
    reminders = new Queue('reminders', {
      connection: { url: process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379', maxRetriesPerRequest: null },
      prefix: `${prefix}notify`,
    });
    // The next weekday whose reminder (5 pm Perth the day before) is still ahead: tomorrow until 5 pm Perth.
    let offset = 1;
    for (; offset < 8; offset++) {
      const date = perthDate(offset);
      const reminderAt = new Date(`${perthDate(offset - 1)}T17:00:00+08:00`);
      if (isWeekday(date) && reminderAt.getTime() > Date.now() + 5 * 60_000) break;
    }
    const slot = await freeSlotFrom(offset, offset + 7);
    const { jobId } = await bookOnsite(slot.date, slot.slot, 'd');
    const id = `reminder-${jobId}-${slot.date.replace(/-/g, '')}-${SLOT_START[slot.slot]!.replace(':', '')}`;
    const job = await eventually('the reminder job', async () => (await reminders!.getJob(id)) ?? undefined);
    expect(await job.getState()).toBe('delayed');
    expect(job.data).toMatchObject({ bookingJobId: jobId, scheduledDate: slot.date, timeSlot: slot.slot });
    // Due at 5 pm Perth the day before the booking.
    const dueAt = new Date(job.timestamp + (job.opts.delay ?? 0));
    expect(dueAt.getTime()).toBeGreaterThan(Date.now());
    expect(new Date(dueAt.getTime() + 8 * HOUR).toISOString().slice(11, 16)).toBe('17:00');

    // The customer cancels with the link from their email: the reminder goes.
    const link = await manageLinkFromEmail(jobId);
    const token = link.split('/manage/')[1]!;
    await publicPost(`/api/manage/${token}/cancel`, { reason: 'Plans changed' });
    await eventually('the reminder to be removed', async () =>
      (await reminders!.getJob(id)) ? undefined : true,
    );
  });

  test('(e) staff mark a no-show once the slot has started: an invoice for the price appears on the job', async () => {
    const slot = await freeSlotFrom(3);
    const { jobId, jobNumber } = await bookOnsite(slot.date, slot.slot, 'e');
    await eventually('the job in the dashboard', async () => ((await jobStatus(jobId)) ? true : undefined));
    const price = (
      await admin.call<{ price: string }>('GET', `/api/dashboard/bookings/${jobId}/cancellation`)
    ).price;
    handle = await openPage(requireBrowser(), 'desktop');
    const { page, context, errors } = handle;
    // Half an hour into the slot, nobody home.
    const at = new Date(slotStart(slot.date, slot.slot).getTime() + 30 * 60_000);
    await page.clock.install({ time: at });
    await bookingClockAt(context, at);
    const detail = await openJobInDashboard(page, jobId);
    await detail.getByRole('button', { name: 'Mark No-Show' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: `Mark Job ${jobNumber} as No-Show?` });
    const money = `$${Number(price).toLocaleString('en-AU', { minimumFractionDigits: 2 })}`;
    await dialog
      .getByText(`The customer is charged in full: an invoice for ${money} (the job's price) is raised.`)
      .waitFor();
    await screenshot(page, 'e-no-show-confirm');
    await dialog.getByRole('button', { name: 'Mark No-Show' }).click();
    await page.getByText('Marked No-Show').first().waitFor();

    // Billing raised the invoice for the whole price; the job shows it, and its record says no-show.
    const invoice = await eventually('the no-show invoice', async () => {
      const list = await admin.call<{ invoiceNumber: string; totalAmount: string; status: string }[]>(
        'GET',
        `/api/dashboard/customer-invoices/job/${jobId}`,
      );
      return list.find((i) => i.totalAmount === price);
    });
    expect(invoice.status).toBe('draft');
    await page.reload();
    const reopened = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('heading', { name: 'Job Progress' }) });
    await reopened.getByText(invoice.invoiceNumber).waitFor({ timeout: 20_000 });
    const record = reopened
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'No-Show' }) });
    await record.getByText('No-show: charged in full').waitFor();
    await screenshot(page, 'e-no-show-invoice');
    expect(await jobStatus(jobId)).toBe('cancelled');
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
