/**
 * End-to-end: the review request and its unsubscribe link (issue 18 item 3, Spam Act 2003) against the real stack in
 * headless Chromium. A customer's on-site puncture repair is done, invoiced and marked paid; notify records one
 * review request email (the stack runs with REVIEW_URL set, scripts/e2e.mjs) carrying the review link, the sender
 * and an unsubscribe link. The customer opens the link on a phone and sees "You have been unsubscribed"; the link's
 * API then reports the address unsubscribed. The confirmation of the same booking carried its manage link.
 * Screenshot: /tmp/unsubscribe-phone.png.
 */
import type { Browser } from 'playwright-core';
import { assertStackIsUp, BASE_URL, launchBrowser, openPage, type PageHandle } from './browser';
import { ADMIN_PASSWORD, ADMIN_USERNAME, ApiSession, createBooking, waitForJob } from './dashboard-helpers';

jest.setTimeout(180_000);

let browser: Browser | undefined;
let admin: ApiSession;
const pages: PageHandle[] = [];

beforeAll(async () => {
  await assertStackIsUp();
  browser = await launchBrowser();
  admin = await ApiSession.login(ADMIN_USERNAME, ADMIN_PASSWORD);
});

afterAll(async () => {
  for (const p of pages) await p.context.close();
  await browser?.close();
});

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

interface DeliverySummary {
  id: string;
  channel: string;
  purpose: string;
  status: string;
}

/** The job's messages in notify's delivery log, once one with `purpose` has been sent. */
async function sentMessage(jobId: string, purpose: string): Promise<{ body: string; html: string | null }> {
  const found = await eventually(`the ${purpose} email in the delivery log`, async () => {
    const { deliveries } = await admin.call<{ deliveries: DeliverySummary[] }>(
      'GET',
      `/api/dashboard/notifications/deliveries?channel=email&jobId=${jobId}`,
    );
    return deliveries.find((d) => d.purpose === purpose && d.status === 'sent');
  });
  return admin.call('GET', `/api/dashboard/notifications/deliveries/${found.id}`);
}

test('a paid job gets one review request; its unsubscribe link works in one click on a phone', async () => {
  const booking = await createBooking({ serviceType: 'puncture-repair', customerName: 'Rivka Review' });
  await waitForJob(admin, booking.jobId);

  // The confirmation carried the manage link (one email, no separate "manage" message).
  const confirmation = await sentMessage(booking.jobId, 'booking-confirmation');
  expect(confirmation.body).toMatch(/Manage your booking\n[\s\S]*\/manage\/[A-Za-z0-9_-]{43}/);

  // Done, invoiced and paid on site.
  await admin.call('PATCH', `/api/dashboard/jobs/${booking.jobId}/status`, { status: 'in-progress' });
  await admin.call('PATCH', `/api/dashboard/jobs/${booking.jobId}/status`, { status: 'completed' });
  await admin.call('POST', `/api/dashboard/customer-invoices/generate/${booking.jobId}`);
  await eventually('the job invoiced', async () => {
    const job = await admin.call<{ status: string }>('GET', `/api/dashboard/jobs/${booking.jobId}`);
    return job.status === 'invoiced' ? job : undefined;
  });
  await admin.call('PATCH', `/api/dashboard/jobs/${booking.jobId}/status`, { status: 'paid' });

  const review = await sentMessage(booking.jobId, 'review-request');
  expect(review.body).toContain('https://reviews.example/mobile-tyres-perth');
  expect(review.body).toContain('This email was sent by');
  const path = /https?:\/\/\S+?(\/unsubscribe\/[A-Za-z0-9_-]{43})\b/.exec(review.body)?.[1];
  if (!path) throw new Error(`no unsubscribe link in the review request: ${review.body}`);
  const token = path.split('/').pop()!;

  // One click: the page unsubscribes and says so.
  const phone = await openPage(browser!, 'phone');
  pages.push(phone);
  await phone.page.goto(`${BASE_URL}${path}`);
  await phone.page.getByRole('heading', { name: 'You have been unsubscribed' }).waitFor();
  await phone.page.getByText(/will get no more review requests/).waitFor();
  await phone.page.getByText(/still send messages about your bookings/).waitFor();
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await phone.page.screenshot({ path: '/tmp/unsubscribe-phone.png', fullPage: true });

  const status = await fetch(`${BASE_URL}/api/unsubscribe/${token}`);
  expect(status.status).toBe(200);
  expect(await status.json()).toMatchObject({ unsubscribed: true });

  // A made-up link is refused, on the page and by the API.
  const other = await openPage(browser!, 'phone');
  pages.push(other);
  await other.page.goto(`${BASE_URL}/unsubscribe/${'Z'.repeat(43)}`);
  await other.page.getByRole('heading', { name: 'This unsubscribe link is not valid' }).waitFor();
});
