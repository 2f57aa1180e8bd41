/**
 * End-to-end: the public booking dialog and checkout against the real stack (gateway, booking, billing) in
 * headless Chromium. Issue 8: an onsite booking with a photo from start to confirmation at a phone viewport,
 * a prepaid booking through the test-mode checkout to the success page, and a slot taken by someone else
 * mid-flow (caught by the re-check at submit, and by the server's 409 when the re-check is too late).
 */
import type { Browser } from 'playwright-core';
import { assertStackIsUp, BASE_URL, launchBrowser, openPage, type PageHandle } from './browser';
import {
  takeSlot,
  bookingDialog,
  expectStep,
  fillContact,
  fillLocation,
  freeSlot,
  next,
  pickDateAndSlot,
  PNG_1X1,
  quoteDirectly,
} from './public-helpers';

jest.setTimeout(120_000);

let browser: Browser | undefined;

beforeAll(async () => {
  await assertStackIsUp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

function requireBrowser(): Browser {
  if (!browser) throw new Error('Chromium was not launched (see the beforeAll error above)');
  return browser;
}

describe('public booking', () => {
  let handle: PageHandle;

  afterEach(async () => {
    await handle?.context.close();
  });

  test('phone: an onsite new-tyres booking with a photo, from the landing page to the confirmation', async () => {
    handle = await openPage(requireBrowser(), 'phone');
    const { page, errors } = handle;
    const { date, slot } = await freeSlot();

    await page.goto(`${BASE_URL}/`);
    await page.getByRole('button', { name: 'Book Service Now' }).click();
    const dialog = bookingDialog(page);
    await expectStep(dialog, 1);
    await pickDateAndSlot(dialog, date, slot);
    await next(dialog);

    await expectStep(dialog, 2);
    await dialog.getByRole('radio', { name: /^New Tyres/ }).check();
    await next(dialog);

    await expectStep(dialog, 3);
    await dialog.getByLabel('Width').fill('205');
    await dialog.getByLabel('Profile').fill('55');
    await dialog.getByLabel('Rim').fill('16');
    await dialog.getByRole('radio', { name: '2', exact: true }).check();
    await dialog.getByText('per tyre').waitFor(); // live price from GET /api/tyre-pricing/205%2F55R16
    await next(dialog);

    await expectStep(dialog, 4);
    await fillLocation(dialog);
    await next(dialog);

    await expectStep(dialog, 5);
    await dialog.getByTestId('photo-gallery-input').setInputFiles({
      name: 'front-left-tyre.png',
      mimeType: 'image/png',
      buffer: PNG_1X1,
    });
    await dialog.getByRole('heading', { name: 'Add More Photos' }).waitFor();
    await next(dialog);

    await expectStep(dialog, 6);
    await fillContact(dialog, 'E2E Onsite Customer');
    await dialog.getByRole('radio', { name: /^Cash on Delivery/ }).check();
    const created = page.waitForResponse(
      (res) => new URL(res.url()).pathname === '/api/bookings' && res.request().method() === 'POST',
    );
    const uploaded = page.waitForResponse((res) =>
      /\/api\/bookings\/[^/]+\/photos$/.test(new URL(res.url()).pathname),
    );
    await dialog.getByRole('button', { name: 'Confirm Booking' }).click();

    expect((await created).status()).toBe(201);
    expect((await uploaded).status()).toBe(201);
    await dialog.getByRole('heading', { name: 'Booking Confirmed!' }).waitFor();
    await expect(dialog.getByText(/^JOB-/).textContent()).resolves.toMatch(/^JOB-\d+/);
    await dialog.getByText('Step 7 of 7', { exact: true }).waitFor();

    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Book Service Now' }).click();
    await expectStep(dialog, 1); // closing the confirmation reset the form
    expect(errors).toEqual([]);

    // Our booking holds one of the slot's places: once others take the rest, it is unavailable for everyone.
    await takeSlot(date, slot);
    const slots = (await (await fetch(`${BASE_URL}/api/time-slots?date=${date}`)).json()) as {
      slot: string;
      isAvailable: boolean;
    }[];
    expect(slots.find((s) => s.slot === slot)?.isAvailable).toBe(false);
  });

  test('desktop: a prepaid booking through the test-mode checkout to the success page', async () => {
    handle = await openPage(requireBrowser(), 'desktop');
    const { page } = handle;
    const { date, slot } = await freeSlot();

    await page.goto(`${BASE_URL}/`);
    await page.getByRole('button', { name: 'Book Now' }).click();
    const dialog = bookingDialog(page);
    await expectStep(dialog, 1);
    await pickDateAndSlot(dialog, date, slot);
    await next(dialog);
    await expectStep(dialog, 2);
    await dialog.getByRole('radio', { name: /^Puncture Repair/ }).check();
    await next(dialog);
    await expectStep(dialog, 4); // puncture repair skips the tyre step
    await fillLocation(dialog);
    await next(dialog);
    await expectStep(dialog, 5);
    await next(dialog);
    await expectStep(dialog, 6);
    await fillContact(dialog, 'E2E Prepaid Customer');
    await expect(dialog.getByRole('radio', { name: /^Prepaid Online/ }).isChecked()).resolves.toBe(true);

    const quoted = page.waitForResponse(
      (res) => new URL(res.url()).pathname === '/api/bookings/quote' && res.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Confirm & Pay' }).click();
    expect((await quoted).status()).toBe(201);
    await dialog.getByRole('button', { name: 'Continue to Secure Payment' }).click();

    await page.waitForURL((url) => url.pathname.startsWith('/checkout/'));
    const token = decodeURIComponent(new URL(page.url()).pathname.slice('/checkout/'.length));
    const summary = page.getByRole('region', { name: 'Order summary' });
    await summary.getByText('E2E Prepaid Customer').waitFor();
    await summary.getByText('Puncture Repair').waitFor();
    const pay = page.getByRole('region', { name: 'Card payment' });
    await pay.getByText('Card surcharge (1.7%)').waitFor();
    await pay.getByText('TEST MODE – no real payment will be taken').waitFor();

    await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
    await pay.getByLabel('Expiry (MM/YY)').fill('12/30');
    await pay.getByLabel('Security code (CVC)').fill('123');
    await pay.getByRole('button', { name: /^Pay \$/ }).click();

    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.get('payment') === 'success');
    expect(new URL(page.url()).searchParams.get('booking')).toBe(token);
    await page.getByRole('heading', { name: 'Payment successful – your booking is confirmed' }).waitFor();
  });

  test('a declined test card says "Payment Failed" and stays on the checkout', async () => {
    handle = await openPage(requireBrowser(), 'phone');
    const { page } = handle;
    const { date, slot } = await freeSlot();
    const bookingToken = await quoteDirectly(date, slot);

    await page.goto(`${BASE_URL}/checkout/${encodeURIComponent(bookingToken)}`);
    const pay = page.getByRole('region', { name: 'Card payment' });
    await pay.getByLabel('Card number').fill('4000 0000 0000 0002');
    await pay.getByLabel('Expiry (MM/YY)').fill('12/30');
    await pay.getByLabel('Security code (CVC)').fill('123');
    await pay.getByRole('button', { name: /^Pay \$/ }).click();
    await page.getByText('Payment Failed').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/checkout/${encodeURIComponent(bookingToken)}`);
  });

  test('a checkout link that does not exist says "Booking Not Found"', async () => {
    handle = await openPage(requireBrowser(), 'phone');
    await handle.page.goto(`${BASE_URL}/checkout/no-such-token-${Date.now()}`);
    await handle.page.getByRole('heading', { name: 'Booking Not Found' }).waitFor();
  });

  test('a slot taken by someone else while the form is filled in is caught at submit', async () => {
    handle = await openPage(requireBrowser(), 'phone');
    const { page } = handle;
    const { date, slot } = await freeSlot();

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
    await fillContact(dialog, 'E2E Too Late');
    await dialog.getByRole('radio', { name: /^Cash on Delivery/ }).check();

    // Someone else books the same slot now.
    expect(await takeSlot(date, slot)).toBeGreaterThan(0);

    await dialog.getByRole('button', { name: 'Confirm Booking' }).click();
    await page
      .getByText('This time slot is no longer available. Please select a different time slot.')
      .waitFor();
    await expectStep(dialog, 1);
    const radio = dialog.getByRole('radio', { name: new RegExp(`^${slot}`) });
    await expect(radio.isChecked()).resolves.toBe(false);
    await expect(radio.isDisabled()).resolves.toBe(true);
  });

  test('when the re-check is too late, the 409 refreshes the slots, clears the slot: "Time Slot Unavailable"', async () => {
    handle = await openPage(requireBrowser(), 'desktop');
    const { page } = handle;
    const { date, slot } = await freeSlot();

    await page.goto(`${BASE_URL}/`);
    await page.getByRole('button', { name: 'Book Now' }).click();
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
    await fillContact(dialog, 'E2E Race Loser');

    // The other booking lands between our re-check and our quote: answer the re-check with the list as it
    // was a moment ago, once.
    const stale = (await (await fetch(`${BASE_URL}/api/time-slots?date=${date}`)).json()) as unknown;
    expect(await takeSlot(date, slot)).toBeGreaterThan(0);
    let served = false;
    await page.route('**/api/time-slots?*', async (route) => {
      if (served) return route.continue();
      served = true;
      await route.fulfill({ json: stale });
    });
    const quoted = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/bookings/quote');
    await dialog.getByRole('button', { name: 'Confirm & Pay' }).click();

    expect((await quoted).status()).toBe(409);
    await page.getByText('Time Slot Unavailable').waitFor();
    await page
      .getByText('This time slot was just booked by someone else. Please select a different time slot.')
      .waitFor();
    await expectStep(dialog, 1);
    const radio = dialog.getByRole('radio', { name: new RegExp(`^${slot}`) });
    await expect(radio.isChecked()).resolves.toBe(false);
    await page.waitForFunction(
      (s) =>
        Array.from(document.querySelectorAll<HTMLInputElement>('input[name="timeSlot"]')).some(
          (input) => input.value === s && input.disabled,
        ),
      slot,
    );
  });
});

/**
 * Emergency callout "as soon as possible" (issue 19 audit): at 7:00 in Perth no 30-60 minute promise (callouts run
 * Mon-Fri 8am-4pm); the next slot and the call button instead. At 8:05 the 8-10 AM slot under way is offered as
 * "as soon as possible". Booking's clock moves with the stack's test clock (x-test-clock-offset-ms), the page's with
 * Playwright's.
 */
describe('public booking: emergency callout on the clock', () => {
  const CLOCK_HEADER = 'x-test-clock-offset-ms';
  let handle: PageHandle;

  afterEach(async () => {
    await handle?.context.close();
  });

  /** A business day (tomorrow on) whose 8-10 AM slot is still free. */
  async function dayWithEarlySlotFree(): Promise<string> {
    for (let offset = 1; offset <= 60; offset++) {
      const date = new Date(Date.now() + 8 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
      const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
      if (weekday === 0 || weekday === 6) continue;
      const slots = (await (await fetch(`${BASE_URL}/api/time-slots?date=${date}`)).json()) as {
        slot: string;
        isAvailable: boolean;
      }[];
      if (slots.some((s) => s.slot === '8-10 AM' && s.isAvailable)) return date;
    }
    throw new Error('no business day with 8-10 AM free in the next 60 days');
  }

  test('7:00 Perth: no "as soon as possible", the next slot and the call button; at 8:05 the slot under way', async () => {
    const date = await dayWithEarlySlotFree();
    handle = await openPage(requireBrowser(), 'phone');
    const { page, context, errors } = handle;
    const at = new Date(`${date}T07:00:00+08:00`);
    await page.clock.install({ time: at });
    await context.setExtraHTTPHeaders({ [CLOCK_HEADER]: String(at.getTime() - Date.now()) });

    await page.goto(`${BASE_URL}/`);
    await page.getByRole('button', { name: 'Book Service Now' }).click();
    const dialog = bookingDialog(page);
    await expectStep(dialog, 1);
    await pickDateAndSlot(dialog, date, '8-10 AM');
    const note = dialog.getByRole('note');
    await note
      .getByText(
        'An emergency callout (30-60 minutes) is not available right now: emergency callouts run Monday to Friday, 8am–4pm. The next available time today is 8-10 AM.',
        { exact: false },
      )
      .waitFor();
    await note.getByRole('link', { name: /^Call / }).waitFor();
    await expect(dialog.getByText(/As soon as possible/).count()).resolves.toBe(0);

    // 8:05: booking's clock and the page's move on; the picker looks at the clock again.
    const later = new Date(`${date}T08:05:00+08:00`);
    await context.setExtraHTTPHeaders({ [CLOCK_HEADER]: String(later.getTime() - Date.now()) });
    await page.clock.fastForward(later.getTime() - at.getTime());
    await dialog
      .getByText('As soon as possible: a technician will be with you in 30-60 minutes', { exact: true })
      .waitFor();
    await expect(dialog.getByRole('radio', { name: /^8-10 AM/ }).isEnabled()).resolves.toBe(true);
    await expect(note.count()).resolves.toBe(0);
    expect(errors).toEqual([]);
  });
});
