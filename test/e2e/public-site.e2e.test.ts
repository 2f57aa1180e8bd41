/**
 * End-to-end: the public site through the gateway in headless Chromium. The 404 page, prerendered pages
 * served as real HTML before any script (what a crawler sees), sitemap.xml and robots.txt, the navigation
 * at phone size, and hydration without console errors.
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

async function html(path: string): Promise<{ status: number; body: string; type: string | null }> {
  // No redirects followed: /about must be the page itself, not a redirect to /about/ (nor the SPA fallback).
  const res = await fetch(`${BASE_URL}${path}`, { headers: { Accept: 'text/html' }, redirect: 'manual' });
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') };
}

function jsonLd(body: string): Record<string, unknown>[] {
  return [...body.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? '{}') as Record<string, unknown>,
  );
}

describe('crawlable pages (HTML before any script)', () => {
  test('a suburb page is served as full HTML with its metadata and the business structured data', async () => {
    const { status, body, type } = await html('/mobile-tyres-rockingham');
    expect(status).toBe(200);
    expect(type).toMatch(/text\/html/);
    expect(body).toMatch(/<title>Mobile Tyres Rockingham WA 6168[^<]*<\/title>/);
    expect(body).toMatch(/<meta[^>]+name="description"[^>]+content="[^"]*Rockingham WA 6168/);
    expect(body).toMatch(/<meta[^>]+name="keywords"[^>]+content="[^"]*mobile tyres Rockingham/);
    expect(body).toMatch(/<link[^>]+rel="canonical"[^>]+href="https?:\/\/[^"]+\/mobile-tyres-rockingham"/);
    expect(body).toMatch(/<meta[^>]+property="og:title"/);
    expect(body).toMatch(/<meta[^>]+name="twitter:card"/);
    expect(body).toContain(
      '<h1 id="pub-suburb-title" class="pub-hero__title">Mobile Tyres <!-- -->Rockingham</h1>',
    );
    expect(body).toContain('6168');
    expect(body).toContain('30-60 mins');
    const business = jsonLd(body).find((d) => d['@type'] === 'LocalBusiness');
    expect(business).toBeDefined();
    expect((business?.areaServed as { name: string }[]).map((a) => a.name)).toEqual([
      'Perth',
      'Mandurah',
      'Rockingham',
      'Fremantle',
    ]);
    expect(business?.aggregateRating).toMatchObject({ ratingValue: '4.8', reviewCount: '150' });
    expect(jsonLd(body).some((d) => d['@type'] === 'FAQPage')).toBe(true);
  });

  test.each([
    [
      '/',
      '/',
      /^Mobile Tyres Perth & Peel/,
      'Mobile tyres, puncture repair &amp; batteries. We come to you.',
    ],
    ['/about', '/about', /^About Us \|/, 'Mobile tyre specialists for Perth and Peel'],
    ['/privacy', '/privacy', /^Privacy Policy \|/, 'Privacy Policy'],
    ['/terms', '/terms', /^Terms of Service \|/, 'Terms of Service'],
    [
      '/suburb/canning-vale',
      '/mobile-tyres-canning-vale',
      /^Mobile Tyres Canning Vale WA 6155/,
      'Canning Vale',
    ],
  ])('%s is prerendered with its own title, canonical link and h1', async (path, canonical, title, h1) => {
    const { status, body } = await html(path);
    expect(status).toBe(200);
    expect(body).toContain('data-prerendered');
    expect(body.match(/<title>([^<]+)<\/title>/)?.[1]?.replace(/&amp;/g, '&')).toMatch(title);
    expect(body.match(/rel="canonical" href="([^"]+)"/)?.[1]).toMatch(
      new RegExp(`^https?://[^/]+${canonical}$`),
    );
    expect(jsonLd(body).some((d) => d['@type'] === 'LocalBusiness')).toBe(true);
    expect(body.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]).toContain(h1);
  });

  test('with scripts disabled a suburb page still shows its content', async () => {
    const context = await requireBrowser().newContext({
      javaScriptEnabled: false,
      viewport: VIEWPORTS.phone,
    });
    try {
      const page = await context.newPage();
      await page.goto(`${BASE_URL}/suburb/rockingham`);
      await page.getByRole('heading', { level: 1, name: 'Mobile Tyres Rockingham' }).waitFor();
      await page.getByRole('heading', { name: 'Frequently asked questions' }).waitFor();
      await expect(page.title()).resolves.toMatch(/^Mobile Tyres Rockingham/);
    } finally {
      await context.close();
    }
  });

  test('sitemap.xml lists the crawlable pages; robots.txt points to it', async () => {
    const sitemap = await fetch(`${BASE_URL}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    const xml = await sitemap.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
    expect(locs).toEqual(
      expect.arrayContaining(['/', '/about', '/privacy', '/terms', '/mobile-tyres-rockingham']),
    );
    expect(locs.filter((p) => p.startsWith('/mobile-tyres-'))).toHaveLength(42);
    const robots = await fetch(`${BASE_URL}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(await robots.text()).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
  });
});

describe.each(Object.keys(VIEWPORTS) as ViewportName[])('public site (%s)', (viewport) => {
  let handle: PageHandle;

  beforeEach(async () => {
    handle = await openPage(requireBrowser(), viewport);
  });

  afterEach(async () => {
    await handle?.context.close();
  });

  test('the 404 page: the spec text, Back to Home, a call link and the hours', async () => {
    const { page, errors } = handle;
    await page.goto(`${BASE_URL}/no-such-page-${Date.now()}`);
    await page.getByRole('heading', { level: 1, name: 'Page Not Found' }).waitFor();
    await expect(page.getByText(NOT_FOUND_TEXT).isVisible()).resolves.toBe(true);
    const call = page.getByRole('main').getByRole('link', { name: /^Call / });
    await expect(call.getAttribute('href')).resolves.toMatch(/^tel:/);
    await page.getByText('Open Monday to Friday, 8am–4pm').waitFor();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL(`${BASE_URL}/`);
    await page.getByRole('button', { name: 'Book Service Now' }).waitFor();
    expect(errors).toEqual([]);
  });

  test('a prerendered page hydrates without errors and navigates client-side', async () => {
    const { page, errors } = handle;
    await page.goto(`${BASE_URL}/mobile-tyres-rockingham`);
    await page.getByRole('heading', { level: 1, name: 'Mobile Tyres Rockingham' }).waitFor();
    // Hydrated: the booking button works.
    await page.getByRole('button', { name: 'Book in Rockingham' }).click();
    await page
      .getByRole('dialog', { name: 'Book a Service' })
      .getByText('Step 1 of 7', { exact: true })
      .waitFor();
    await page.getByRole('button', { name: 'Close booking' }).click();
    if (viewport === 'phone') {
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('dialog', { name: 'Menu' });
      await expect(menu.getByRole('link', { name: 'Call Now' }).getAttribute('href')).resolves.toMatch(
        /^tel:/,
      );
      await menu.getByRole('link', { name: 'About' }).click();
      await expect(menu.isVisible()).resolves.toBe(false);
      // Phones get the floating call button. Whether it shows at this instant depends on what is under it: it steps
      // aside (visibility: hidden) over any price or button (CallFab.test.tsx, public-screens' overlap checks).
      const fab = page.getByRole('link', { name: /^Call now on /, includeHidden: true });
      await expect(fab.getAttribute('href')).resolves.toMatch(/^tel:/);
    } else {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
      await expect(page.getByRole('link', { name: /^Call now on / }).isVisible()).resolves.toBe(false);
    }
    await page.waitForURL(`${BASE_URL}/about`);
    await page.getByRole('heading', { name: 'Our values' }).waitFor();
    await expect(page.title()).resolves.toMatch(/^About Us/);
    expect(errors).toEqual([]);
  });

  test('the Areas link scrolls to the 42 suburbs', async () => {
    const { page } = handle;
    await page.goto(`${BASE_URL}/about`);
    if (viewport === 'phone') {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Areas' }).click();
    } else {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Areas' }).click();
    }
    await page.waitForURL(`${BASE_URL}/#areas`);
    const areas = page.getByRole('region', { name: 'Areas we service' });
    await areas.getByRole('link', { name: 'Rockingham' }).waitFor();
    await expect(areas.getByRole('link').count()).resolves.toBe(42);
    await page.waitForFunction(() => {
      const box = document.getElementById('areas')?.getBoundingClientRect();
      return box !== undefined && box.top < window.innerHeight && box.bottom > 0;
    });
  });
});
