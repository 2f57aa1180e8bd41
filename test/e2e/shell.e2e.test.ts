/**
 * End-to-end: the shell, its two remotes and the session API, driven in Chromium at phone and
 * desktop sizes against a running stack (E2E_BASE_URL, default http://localhost:8080).
 * Nothing is skipped: without Chromium or a running stack every test fails with the reason.
 */
import type { Browser } from 'playwright-core';
import {
  assertStackIsUp,
  BASE_URL,
  launchBrowser,
  openPage,
  VIEWPORTS,
  type PageHandle,
  type ViewportName,
} from './browser';

jest.setTimeout(90_000);

const NOT_FOUND_TEXT =
  "Sorry, the page you're looking for doesn't exist or has been moved. Let's get you back on track!";

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

describe.each(Object.keys(VIEWPORTS) as ViewportName[])('shell (%s)', (viewport) => {
  let handle: PageHandle;

  beforeEach(async () => {
    handle = await openPage(requireBrowser(), viewport);
  });

  afterEach(async () => {
    await handle?.context.close();
  });

  test('the landing page renders through the shell and the public remote', async () => {
    const { page, errors } = handle;
    const remoteEntry = page.waitForResponse(
      (res) => new URL(res.url()).pathname === '/remotes/public/remoteEntry.js',
    );

    await page.goto(`${BASE_URL}/`);

    expect((await remoteEntry).status()).toBe(200);
    await page.getByRole('button', { name: 'Book Service Now' }).waitFor();
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
    expect(errors).toEqual([]);
  });

  test('an unknown path shows the 404 page', async () => {
    const { page } = handle;

    await page.goto(`${BASE_URL}/no-such-page-${Date.now()}`);

    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await expect(page.getByText(NOT_FOUND_TEXT).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Back to Home' }).isVisible()).resolves.toBe(true);
  });

  test('/dashboard without a session redirects to /auth with the Staff Login form', async () => {
    const { page } = handle;

    await page.goto(`${BASE_URL}/dashboard`);

    await page.waitForURL((url) => url.pathname === '/auth');
    await page.getByRole('heading', { name: 'Staff Login' }).waitFor();
    await expect(page.getByLabel('Username').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
  });

  test('a wrong password shows "Invalid username or password"', async () => {
    const { page } = handle;
    await page.goto(`${BASE_URL}/auth`);
    await page.getByRole('heading', { name: 'Staff Login' }).waitFor();

    // A user that does not exist, so repeated runs never lock out a real account.
    await page.getByLabel('Username').fill(`e2e-nobody-${viewport}-${Date.now()}`);
    await page.getByLabel('Password').fill('definitely-wrong');
    const login = page.waitForResponse(
      (res) => new URL(res.url()).pathname === '/api/login' && res.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Sign In' }).click();

    expect((await login).status()).toBe(401);
    await page.getByText('Invalid username or password').waitFor();
    expect(page.url()).toBe(`${BASE_URL}/auth`);
  });

  test('the business host from /config.json opens the staff app at /', async () => {
    const { page } = handle;
    // The runtime config, not the bundle, decides: declare this stack's own host the business host.
    await page.route('**/config.json', (route) =>
      route.fulfill({ json: { businessHost: new URL(BASE_URL).hostname } }),
    );

    await page.goto(`${BASE_URL}/`);

    await page.waitForURL((url) => url.pathname === '/auth');
    await page.getByRole('heading', { name: 'Staff Login' }).waitFor();
  });

  test('a remote that cannot be loaded shows Retry, and Retry recovers', async () => {
    const { page } = handle;
    await page.route('**/remotes/public/**', (route) => route.abort('connectionrefused'));

    await page.goto(`${BASE_URL}/`);
    await page.getByRole('button', { name: 'Retry' }).waitFor();

    await page.unroute('**/remotes/public/**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('button', { name: 'Book Service Now' }).waitFor();
  });
});
