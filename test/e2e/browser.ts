/**
 * Shared browser setup for end-to-end specs: Debian's Chromium driven by playwright-core
 * (architecture section 8). Fails loudly, never skips, when Chromium or the stack is missing.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with "apt-get install -y chromium" ` +
        '(Debian package) or set CHROMIUM_PATH to a Chromium/Chrome binary.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

/** Throws a clear error when nothing answers at BASE_URL (instead of timing out in a selector). */
export async function assertStackIsUp(baseUrl = BASE_URL): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Error(
      `Nothing answers at ${baseUrl} (${String(error)}). Start the stack (npm start) or set E2E_BASE_URL.`,
      { cause: error },
    );
  }
  const body = await res.text();
  if (!res.ok || !body.includes('id="root"')) {
    throw new Error(
      `${baseUrl}/ answered ${res.status} without the shell's index.html. Build the front ends ` +
        '(npm run build:frontends) and check that the gateway serves frontends/shell/dist.',
    );
  }
}

export interface PageHandle {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
}

/** A screen size of its own: width and height, and whether it is a touch phone. */
export interface ScreenSize {
  width: number;
  height: number;
  mobile: boolean;
}

/** A fresh context (no cookies) at the given viewport, collecting console and page errors. */
export async function openPage(browser: Browser, viewport: ViewportName | ScreenSize): Promise<PageHandle> {
  const size: ScreenSize =
    typeof viewport === 'string' ? { ...VIEWPORTS[viewport], mobile: viewport === 'phone' } : viewport;
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    isMobile: size.mobile,
    hasTouch: size.mobile,
    deviceScaleFactor: 1,
    locale: 'en-AU',
    timezoneId: 'Australia/Perth',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}
