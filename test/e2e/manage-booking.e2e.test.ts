/**
 * End-to-end: "manage my booking" (issue 18, item 1) against the real stack in headless Chromium. A customer books
 * and pays on a phone (booking dialog, then the test-mode checkout); the test reads the manage link from the confirmation email that
 * notify recorded (its delivery log, through the admin API), opens it on a phone, moves the booking to another slot,
 * then cancels more than 24 hours ahead and sees the full-refund wording before and after confirming. An unknown
 * token shows the "not valid" page with the call button. Screenshots at 390 and 1366 px go to /tmp/manage-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { ApiSession, ADMIN_PASSWORD, ADMIN_USERNAME } from './dashboard-helpers';
import { assertStackIsUp, BASE_URL, launchBrowser, openPage, type PageHandle } from './browser';
import {
  bookingDialog,
  dayLabel,
  expectStep,
  fillContact,
  fillLocation,
  next,
  pickDateAndSlot,
} from './public-helpers';

jest.setTimeout(180_000);

let browser: Browser | undefined;
let admin: ApiSession;

beforeAll(async () => {
  await assertStackIsUp();
  browser = await launchBrowser();
  admin = await ApiSession.login(ADMIN_USERNAME, ADMIN_PASSWORD);
});

afterAll(async () => {
  await browser?.close();
});

function requireBrowser(): Browser {
  if (!browser) throw new Error('Chromium was not launched (see the beforeAll error above)');
  return browser;
}

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function perthDate(offsetDays: number): string {
  const now = new Date(Date.now() + 8 * 3600_000); // Perth is UTC+8 all year
  now.setUTCDate(now.getUTCDate() + offsetDays);
  return now.toISOString().slice(0, 10);
}

/**
 * Free slots on business days at least `fromDays` ahead (so a cancellation is in the 24+ hours band), skipping the
 * ones already used by this file.
 */
const used = new Set<string>();
async function freeSlotFrom(fromDays: number): Promise<{ date: string; slot: string }> {
  for (let offset = fromDays; offset <= fromDays + 60; offset++) {
    const date = perthDate(offset);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
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
  throw new Error('no free slot found');
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

/** A prepaid booking (quote, then a test card through billing's test mode): returns its job id. */
async function bookAndPay(date: string, slot: string, email: string): Promise<string> {
  const quote = await publicPost<{ bookingToken: string; jobId: string }>('/api/bookings/quote', {
    customer: { name: 'Manage Customer', email, phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: 'MNG123' },
    job: {
      serviceType: 'puncture-repair',
      scheduledDate: date,
      timeSlot: slot,
      address: '10 Rockingham Beach Road',
      suburb: 'Rockingham',
      postcode: '6168',
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

interface DeliverySummary {
  id: string;
  purpose: string;
  recipient: string;
}

/** The manage link from the confirmation email notify recorded for the job (its delivery log). */
async function manageLinkFromEmail(jobId: string): Promise<string> {
  const delivery = await eventually('the confirmation email (with its manage link) in the delivery log', async () => {
    const { deliveries } = await admin.call<{ deliveries: DeliverySummary[] }>(
      'GET',
      `/api/dashboard/notifications/deliveries?channel=email&jobId=${jobId}`,
    );
    return deliveries.find((d) => d.purpose === 'booking-confirmation');
  });
  const detail = await admin.call<{ body: string }>(
    'GET',
    `/api/dashboard/notifications/deliveries/${delivery.id}`,
  );
  const match = /https?:\/\/\S+?(\/manage\/[A-Za-z0-9_-]{20,})/.exec(detail.body);
  if (!match?.[1]) throw new Error(`no manage link in the email: ${detail.body}`);
  // The link names the configured public site; the test opens the same path on the stack under test.
  return `${BASE_URL}${match[1]}`;
}

/**
 * A prepaid puncture repair booked the way a customer does: the booking dialog, then the checkout's labelled test
 * mode with Stripe's test card. Returns the job id from the quote's answer.
 */
async function bookAndPayOnThePhone(page: Page, date: string, slot: string): Promise<string> {
  await page.goto(`${BASE_URL}/`);
  await page.getByRole('button', { name: 'Book Service Now' }).click();
  const dialog = bookingDialog(page);
  await expectStep(dialog, 1);
  await pickDateAndSlot(dialog, date, slot);
  await next(dialog);
  await expectStep(dialog, 2);
  await dialog.getByRole('radio', { name: /^Puncture Repair/ }).check();
  await next(dialog);
  await expectStep(dialog, 4);
  await fillLocation(dialog);
  await next(dialog);
  await expectStep(dialog, 5);
  await next(dialog);
  await expectStep(dialog, 6);
  await fillContact(dialog, 'E2E Manage Customer');
  const quoted = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/bookings/quote' && res.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Confirm & Pay' }).click();
  const quote = await quoted;
  expect(quote.status()).toBe(201);
  const { jobId } = (await quote.json()) as { jobId: string };
  await dialog.getByRole('button', { name: 'Continue to Secure Payment' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/checkout/'));
  const pay = page.getByRole('region', { name: 'Card payment' });
  await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.getByLabel('Expiry (MM/YY)').fill('12/30');
  await pay.getByLabel('Security code (CVC)').fill('123');
  await pay.getByRole('button', { name: /^Pay \$/ }).click();
  await page.getByRole('heading', { name: 'Payment successful – your booking is confirmed' }).waitFor();
  return jobId;
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/manage-${name}.png`, fullPage: true });
}

describe('manage my booking', () => {
  let handle: PageHandle;

  afterEach(async () => {
    await handle?.context.close();
  });

  test('phone: open the link from the email, reschedule, then cancel 24+ hours ahead with a full refund', async () => {
    handle = await openPage(requireBrowser(), 'phone');
    const { page, errors } = handle;
    const first = await freeSlotFrom(3);
    const jobId = await bookAndPayOnThePhone(page, first.date, first.slot);
    const link = await manageLinkFromEmail(jobId);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Your booking', level: 1 }).waitFor();
    const details = page.getByRole('region', { name: 'Booking details' });
    await details.getByText(`${dayLabel(first.date)}, ${first.slot}`).waitFor();
    await details.getByText(/^Paid by card \(\$/).waitFor();
    // Not indexed, and no referrer carries the token anywhere.
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('meta[name="referrer"]').getAttribute('content')).toBe('no-referrer');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).not.toContain('/manage/');
    await screenshot(page, 'phone-390');

    // Reschedule to another free slot (further ahead, so the cancellation below is still 24+ hours before).
    const second = await freeSlotFrom(4);
    await page.getByRole('button', { name: 'Reschedule' }).click();
    const form = page.getByRole('form', { name: 'Choose a new date and time' });
    const day = form.getByRole('button', { name: dayLabel(second.date), exact: true });
    for (let i = 0; i < 3 && !(await day.isVisible()); i++) {
      await form.getByRole('button', { name: 'Next month' }).click();
    }
    await day.click();
    await form.getByRole('radio', { name: new RegExp(`^${second.slot.replace(/-/g, '\\-')}`) }).check();
    await screenshot(page, 'phone-390-reschedule');
    await form.getByRole('button', { name: 'Move my booking' }).click();
    await page.getByText('Booking moved').waitFor();
    await details.getByText(`${dayLabel(second.date)}, ${second.slot}`).waitFor();
    const slotsThen = (await (await fetch(`${BASE_URL}/api/time-slots?date=${first.date}`)).json()) as {
      slot: string;
      isAvailable: boolean;
    }[];
    expect(slotsThen.find((s) => s.slot === first.slot)?.isAvailable).toBe(true); // the old slot is free again

    // Cancel: the terms are read again and stated before confirming.
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Cancel this booking?' });
    const wording = confirm.getByText(/^Cancelling now: full refund of \$[\d,]+\.\d{2} to your card\.$/);
    await wording.waitFor();
    const refundText = (await wording.textContent()) ?? '';
    await screenshot(page, 'phone-390-cancel-confirm');
    await confirm.getByRole('button', { name: 'Yes, cancel booking' }).click();
    const cancelled = page.getByRole('status').filter({ hasText: 'This booking has been cancelled' });
    await cancelled.waitFor();
    const amount = /\$[\d,]+\.\d{2}/.exec(refundText)?.[0] ?? '';
    await cancelled.getByText(`A refund of ${amount} is being returned to your card.`).waitFor();
    // A cancelled booking offers no actions.
    expect(await page.getByRole('button', { name: 'Reschedule' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    await screenshot(page, 'phone-390-cancelled');

    // The same page on a desktop.
    const desktop = await openPage(requireBrowser(), 'desktop');
    try {
      await desktop.page.goto(link);
      await desktop.page.getByText('This booking has been cancelled').waitFor();
      await screenshot(desktop.page, 'desktop-1366-cancelled');
      expect(desktop.errors).toEqual([]);
    } finally {
      await desktop.context.close();
    }
    expect(errors).toEqual([]);
  });

  test('desktop: a live booking at 1366 px and 360 px, and an unknown link says so with the number to call', async () => {
    const slot = await freeSlotFrom(3);
    const jobId = await bookAndPay(slot.date, slot.slot, `manage-d-${Date.now().toString(36)}@example.com`);
    const link = await manageLinkFromEmail(jobId);

    // The narrowest phone the site supports: nothing wider than the screen, the details panel open.
    const small = await openPage(requireBrowser(), { width: 360, height: 740, mobile: true });
    try {
      await small.page.goto(link);
      await small.page.getByRole('button', { name: 'Correct details' }).click();
      await small.page.getByRole('form', { name: 'Correct your details' }).waitFor();
      expect(await small.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await screenshot(small.page, 'phone-360-details');
      expect(small.errors).toEqual([]);
    } finally {
      await small.context.close();
    }

    handle = await openPage(requireBrowser(), 'desktop');
    const { page, errors } = handle;
    await page.goto(link);
    await page.getByRole('heading', { name: 'Change your booking' }).waitFor();
    await page.getByText(/^Cancelling now: full refund of/).waitFor();
    await screenshot(page, 'desktop-1366');

    await page.goto(`${BASE_URL}/manage/${'x'.repeat(43)}`);
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    await page.getByRole('link', { name: /^Call / }).waitFor();
    await screenshot(page, 'desktop-1366-invalid');
    // The 404 of the unknown token is the one expected console error (the browser logs failed requests).
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
  });
});
