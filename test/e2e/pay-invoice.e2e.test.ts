/**
 * End-to-end: paying an invoice online (issue 18, item 4) against the real stack in headless Chromium. A customer's
 * on-site puncture repair is done; the admin generates the invoice on the dashboard and emails it (billing's local
 * transport records the message); the test reads the "Pay now" link from the recorded email, opens it on a phone,
 * sees the invoice with the 1.7% card surcharge, pays with Stripe's test card through billing's labelled test mode and
 * sees the success state. The dashboard's invoice list then shows the invoice paid and the job is paid. Screenshots
 * of the pay page (390 px) go to /tmp/pay-invoice-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { assertStackIsUp, BASE_URL, launchBrowser, openPage, type PageHandle } from './browser';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  ApiSession,
  createBooking,
  signIn,
  unexpectedErrors,
  waitForJob,
} from './dashboard-helpers';

jest.setTimeout(240_000);

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
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

interface Invoice {
  id: string;
  invoiceNumber: string;
  status: string;
  totalAmount: string;
}

/** The "Pay now" path from the invoice email billing recorded (its local transport), as the customer gets it. */
async function payLinkFromEmail(invoiceId: string): Promise<string> {
  const delivery = await eventually('the invoice email in the email log', async () => {
    const log = await admin.call<{ id: string; subject: string; status: string }[]>(
      'GET',
      `/api/dashboard/customer-invoices/${invoiceId}/emails`,
    );
    return log.find((d) => d.subject.startsWith('Tax invoice') && d.status === 'sent');
  });
  const res = await fetch(
    `${BASE_URL}/api/dashboard/customer-invoices/${invoiceId}/emails/${delivery.id}/message`,
    { headers: { Cookie: (admin as unknown as { cookie: string }).cookie, Origin: BASE_URL } },
  );
  expect(res.status).toBe(200);
  // Quoted-printable soft line breaks undone.
  const raw = (await res.text()).replace(/=\r?\n/g, '');
  const match = /Pay now by card: https?:\/\/\S+?(\/pay\/[A-Za-z0-9_-]{43})/.exec(raw);
  if (!match?.[1]) throw new Error(`no pay link in the email: ${raw.slice(0, 2000)}`);
  // The link names the configured public site; the test opens the same path on the stack under test.
  return match[1];
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/pay-invoice-${name}.png`, fullPage: true });
}

test('staff invoice and email a job; the customer pays from the link on a phone; the dashboard shows paid', async () => {
  // A pay-on-site puncture repair ($129.80), done by the technician.
  const booking = await createBooking({ serviceType: 'puncture-repair', customerName: 'Payton Invoice' });
  await waitForJob(admin, booking.jobId);
  await admin.call('PATCH', `/api/dashboard/jobs/${booking.jobId}/status`, { status: 'in-progress' });
  await admin.call('PATCH', `/api/dashboard/jobs/${booking.jobId}/status`, { status: 'completed' });

  // The admin generates the invoice from the job and emails it from the invoices tab.
  const desk = await openPage(requireBrowser(), 'desktop');
  pages.push(desk);
  await signIn(desk.page, ADMIN_USERNAME, ADMIN_PASSWORD);
  await desk.page.goto(`${BASE_URL}/dashboard?tab=jobs&job=${booking.jobId}`);
  const dialog = desk.page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Generate Invoice' }).click();
  await desk.page.getByText('Invoice Generated').waitFor();
  const [invoice] = await admin.call<Invoice[]>(
    'GET',
    `/api/dashboard/customer-invoices/job/${booking.jobId}`,
  );
  expect(invoice).toMatchObject({ totalAmount: '129.80' });
  await desk.page.goto(`${BASE_URL}/dashboard?tab=invoices&q=${invoice!.invoiceNumber}`);
  await desk.page.getByRole('button', { name: `Email invoice ${invoice!.invoiceNumber}` }).click();
  await desk.page.getByText('Invoice Emailed').first().waitFor({ timeout: 60_000 });

  // The customer opens "Pay now" from the email on a phone.
  const path = await payLinkFromEmail(invoice!.id);
  const phone = await openPage(requireBrowser(), 'phone');
  pages.push(phone);
  const { page } = phone;
  await page.goto(`${BASE_URL}${path}`);
  await page.getByRole('heading', { name: 'Pay your invoice' }).waitFor();
  await page.getByText('Hi Payton, thanks for choosing us.').waitFor();
  const summary = page.getByRole('region', { name: `Tax invoice ${invoice!.invoiceNumber}` });
  await summary.getByText('$129.80').first().waitFor();
  const pay = page.getByRole('region', { name: 'Pay by card' });
  // 1.7% of $129.80 = $2.2066 → $2.21 (half-up); $132.01 to pay.
  await pay.getByText('Card surcharge (1.7%)').waitFor();
  await pay.getByText('$2.21', { exact: true }).waitFor();
  await pay.getByText('$132.01', { exact: true }).waitFor();
  await pay.getByText('TEST MODE – no real payment will be taken').waitFor();
  // Nothing wider than the phone.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, 'phone');

  await pay.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.getByLabel('Expiry (MM/YY)').fill('12/30');
  await pay.getByLabel('Security code (CVC)').fill('123');
  await pay.getByRole('button', { name: 'Pay $132.01 (test)' }).click();
  await page.getByRole('heading', { name: 'Payment received – thank you!' }).waitFor();
  // The invoice as paid: its card surcharge line and the total charged.
  await summary.getByText('Card surcharge 1.7%').waitFor();
  await summary.getByText('$132.01', { exact: true }).waitFor();
  await screenshot(page, 'paid-phone');

  // Opening the link again: already paid.
  await page.reload();
  await page.getByRole('heading', { name: 'This invoice has already been paid' }).waitFor();
  expect(await page.getByLabel('Card number').count()).toBe(0);

  // Billing: paid once, with the surcharge line; the receipt is in the email log.
  const paid = await admin.call<Invoice & { items: { description: string; totalPrice: string }[] }>(
    'GET',
    `/api/dashboard/customer-invoices/${invoice!.id}`,
  );
  expect(paid).toMatchObject({ status: 'paid', totalAmount: '132.01' });
  expect(paid.items.find((i) => i.description === 'Card surcharge 1.7%')?.totalPrice).toBe('2.21');
  await eventually('the receipt email', async () => {
    const log = await admin.call<{ subject: string; status: string }[]>(
      'GET',
      `/api/dashboard/customer-invoices/${invoice!.id}/emails`,
    );
    return log.find((d) => d.subject.startsWith('Payment receipt') && d.status === 'sent');
  });

  // The dashboard's invoice list shows it paid, and the job is paid (jobs follows the invoice event).
  await desk.page.goto(`${BASE_URL}/dashboard?tab=invoices&q=${invoice!.invoiceNumber}`);
  const row = desk.page.getByRole('row').filter({ hasText: invoice!.invoiceNumber });
  await row.locator('.dash-status-tag', { hasText: /^paid$/i }).waitFor({ timeout: 20_000 });
  await eventually('the job paid', async () => {
    const job = await admin.call<{ status: string }>('GET', `/api/dashboard/jobs/${booking.jobId}`);
    return job.status === 'paid' ? job : undefined;
  });
  await desk.page.goto(`${BASE_URL}/dashboard?tab=jobs&job=${booking.jobId}`);
  await desk.page
    .getByRole('dialog')
    .locator('.dash-status-tag', { hasText: /^paid$/i })
    .first()
    .waitFor({ timeout: 20_000 });
  await desk.page.screenshot({ path: '/tmp/pay-invoice-dashboard.png' });

  expect(unexpectedErrors(phone.errors)).toEqual([]);
  expect(unexpectedErrors(desk.errors)).toEqual([]);
});
