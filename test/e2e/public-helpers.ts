/**
 * Helpers for the public site's end-to-end specs (test/e2e/public-*.e2e.test.ts): free slots found through the
 * real API, and the booking dialog driven the way a customer does (getByRole / getByLabel, no test ids except
 * for the hidden file inputs).
 */
import type { Locator, Page } from 'playwright-core';
import { BASE_URL } from './browser';

export const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'] as const;

/** A 1x1 PNG (real magic bytes: the booking service checks them). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2026-11-24" -> "Tuesday 24 November 2026": the calendar's accessible name for a day. */
export function dayLabel(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return `${WEEKDAYS[date.getUTCDay()]} ${d} ${MONTHS[m - 1]} ${y}`;
}

function perthDate(offsetDays: number): string {
  const now = new Date(Date.now() + 8 * 3600_000); // Perth is UTC+8 all year
  now.setUTCDate(now.getUTCDate() + offsetDays);
  return now.toISOString().slice(0, 10);
}

interface SlotState {
  slot: string;
  isAvailable: boolean;
}

/**
 * The first free slots on business days from tomorrow (Perth), asked from the real API, skipping the ones
 * already handed out in this run: each test books its own slot, so reruns against one stack still work.
 */
const handedOut = new Set<string>();
export async function freeSlot(): Promise<{ date: string; slot: string }> {
  for (let offset = 1; offset <= 60; offset++) {
    const date = perthDate(offset);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const res = await fetch(`${BASE_URL}/api/time-slots?date=${date}`);
    if (!res.ok)
      throw new Error(`GET /api/time-slots?date=${date} answered ${res.status}: ${await res.text()}`);
    const slots = (await res.json()) as SlotState[];
    for (const s of slots) {
      const key = `${date} ${s.slot}`;
      if (s.isAvailable && !handedOut.has(key)) {
        handedOut.add(key);
        return { date, slot: s.slot };
      }
    }
  }
  throw new Error('no free slot in the next 60 days');
}

/** Books a slot as "someone else" would, straight through the API. */
/**
 * Someone else takes every place left in a slot: a slot holds as many jobs as technicians rostered that day (issue 19),
 * so one booking may not fill it. Books directly until the public list shows it unavailable; returns how many it took.
 */
export async function takeSlot(date: string, slot: string): Promise<number> {
  for (let booked = 0; booked < 10;) {
    const slots = (await (await fetch(`${BASE_URL}/api/time-slots?date=${date}`)).json()) as SlotState[];
    if (!slots.find((s) => s.slot === slot)?.isAvailable) return booked;
    const res = await bookDirectly(date, slot);
    if (res.status !== 201) throw new Error(`booking ${date} ${slot} directly answered ${res.status}`);
    booked++;
  }
  throw new Error(`${date} ${slot} was still available after 10 bookings`);
}

export async function bookDirectly(date: string, slot: string): Promise<Response> {
  return fetch(`${BASE_URL}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      customer: { name: 'Other Customer', email: 'other@example.com', phone: '0400 000 000' },
      vehicle: { make: 'Mazda', model: '3', year: 2019, registration: 'OTHER1' },
      job: {
        serviceType: 'puncture-repair',
        scheduledDate: date,
        timeSlot: slot,
        address: '1 Other Street',
        suburb: 'Fremantle',
        postcode: '6160',
        paymentMethod: 'onsite',
      },
    }),
  });
}

/** A prepaid quote made straight through the API (as the dialog does); returns its booking token. */
export async function quoteDirectly(date: string, slot: string, address = '5 Test Street'): Promise<string> {
  const res = await fetch(`${BASE_URL}/api/bookings/quote`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      customer: { name: 'Prepaid Customer', email: 'prepaid@example.com', phone: '0400 111 222' },
      vehicle: { make: 'Ford', model: 'Ranger', year: 2020, registration: 'PREP1' },
      job: {
        serviceType: 'puncture-repair',
        scheduledDate: date,
        timeSlot: slot,
        address,
        suburb: 'Rockingham',
        postcode: '6168',
        paymentMethod: 'prepaid',
      },
    }),
  });
  if (res.status !== 201) throw new Error(`quote answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { bookingToken: string }).bookingToken;
}

export function bookingDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Book a Service' });
}

export async function expectStep(dialog: Locator, n: number): Promise<void> {
  await dialog.getByText(`Step ${n} of 7`, { exact: true }).waitFor();
  // The step moves focus to its heading in the next frame; typing before that would lose keystrokes.
  await dialog.page().waitForFunction(() => document.activeElement?.tagName === 'H3');
}

export async function next(dialog: Locator): Promise<void> {
  await dialog.getByRole('button', { name: 'Next', exact: true }).click();
}

/** Step 1: the calendar (paging months if needed), then the slot. */
export async function pickDateAndSlot(dialog: Locator, date: string, slot: string): Promise<void> {
  const day = dialog.getByRole('button', { name: dayLabel(date), exact: true });
  for (let i = 0; i < 3 && !(await day.isVisible()); i++) {
    await dialog.getByRole('button', { name: 'Next month' }).click();
  }
  await day.click();
  await dialog.getByRole('radio', { name: new RegExp(`^${slot.replace(/[-]/g, '\\-')}`) }).check();
}

export async function fillLocation(dialog: Locator): Promise<void> {
  const address = dialog.getByRole('combobox', { name: 'Street address' });
  await address.fill('10 Rockingham Beach Road');
  await dialog.getByLabel('Suburb', { exact: true }).fill('Rockingham');
  await dialog.getByLabel('Postcode', { exact: true }).fill('6168');
  await dialog.getByLabel('Vehicle make').fill('Toyota');
  await dialog.getByLabel('Model', { exact: true }).fill('Corolla');
  await dialog.getByLabel('Year', { exact: true }).fill('2018');
  await dialog.getByLabel('Registration').fill('1abc234');
}

export async function fillContact(dialog: Locator, name: string): Promise<void> {
  await dialog.getByLabel('Full name').fill(name);
  await dialog.getByLabel('Phone number').fill('0412 345 678');
  await dialog.getByLabel('Email address').fill('e2e-customer@example.com');
}

/**
 * Prices the floating call button covers right now: every "$12.34" on the page whose text box intersects the
 * button's box, while the button is on show (visible, and not under an open modal dialog, which sits above it in
 * the top layer). Found by what the page shows, independent of how the site decides to move the button.
 */
export async function pricesUnderCallButton(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const fab = document.querySelector<HTMLElement>('.pub-fab');
    if (!fab) return [];
    const style = getComputedStyle(fab);
    if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return [];
    const box = fab.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return [];
    if (document.querySelector('dialog:modal')) return [];
    const hits: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.nodeValue ?? '';
      const price = /\$\s?\d[\d,]*(?:\.\d{2})?/g;
      for (let m = price.exec(text); m; m = price.exec(text)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        for (const r of Array.from(range.getClientRects())) {
          if (r.width === 0 || r.height === 0) continue;
          if (r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom)
            hits.push(
              `${m[0]} in "${text.trim().slice(0, 40)}" at ${Math.round(r.left)},${Math.round(r.top)}`,
            );
        }
      }
    }
    return hits;
  });
}

/**
 * Scrolls every price on the page to the height of the floating call button, one after the other (and the page's
 * top and bottom), and returns each price found under the button on show. Empty when no price is ever hidden.
 */
export async function pricesEverUnderCallButton(page: Page): Promise<string[]> {
  const stops = await page.evaluate(() => {
    const fab = document.querySelector<HTMLElement>('.pub-fab');
    if (!fab || getComputedStyle(fab).display === 'none') return [];
    const fabTop = fab.getBoundingClientRect().top;
    const ys = new Set<number>([0, document.documentElement.scrollHeight]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!/\$\s?\d/.test(node.nodeValue ?? '')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const r = range.getBoundingClientRect();
      if (r.height === 0) continue;
      // Where the page must be scrolled for this price to sit level with the button (20 px steps).
      ys.add(Math.max(0, Math.round((window.scrollY + r.top - fabTop) / 20) * 20));
    }
    return [...ys].sort((a, b) => a - b);
  });
  const found: string[] = [];
  for (const y of stops) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    // The button steps aside within a frame or two and fades for 150 ms.
    await page.waitForTimeout(250);
    for (const hit of await pricesUnderCallButton(page)) found.push(`scrolled to ${y}: ${hit}`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  return found;
}
