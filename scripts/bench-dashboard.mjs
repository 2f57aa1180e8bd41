#!/usr/bin/env node
/* global window, document */
// `npm run bench:dashboard`: the staff dashboard's script size per route and the time to interactive of the jobs tab
// with 5,000 jobs (budget < 2 s on this machine; the list is paginated on the server, 25 a page).
//
// Runs the built shell + dashboard against test/e2e/dashboard-stub-server.ts (the real services' list contracts,
// in memory, with STUB_LATENCY_MS per API call) in headless Chromium (/usr/bin/chromium).
//   BENCH_SKIP_BUILD=1   reuse frontends/{shell,dashboard}/dist
//   BENCH_RUNS=5         time-to-interactive samples per viewport (median reported)
//   BENCH_JOBS=5000      jobs in the stub
//   BENCH_LATENCY_MS=40  added to every stub API answer
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PORT = Number(process.env.BENCH_PORT ?? 18790);
const BASE = `http://127.0.0.1:${PORT}`;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 40);
const BUDGET_MS = 2000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIST = {
  shell: path.join(ROOT, 'frontends/shell/dist'),
  dashboard: path.join(ROOT, 'frontends/dashboard/dist'),
};

function run(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function startStub() {
  const child = spawn('npx', ['tsx', 'test/e2e/dashboard-stub-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), STUB_JOBS: String(JOBS), STUB_LATENCY_MS: String(LATENCY) },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('stub server did not start in 60 s')), 60_000);
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('dashboard stub on')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`stub server exited ${code}`)));
  });
  return child;
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Raw and gzip size of a built file, by its URL path. */
function fileSizes(urlPath) {
  const [prefix, dir] = urlPath.startsWith('/remotes/dashboard/')
    ? ['/remotes/dashboard/', DIST.dashboard]
    : ['/', DIST.shell];
  const file = path.join(dir, decodeURIComponent(urlPath.slice(prefix.length)));
  if (!existsSync(file) || !statSync(file).isFile()) return { raw: 0, gzip: 0 };
  const body = readFileSync(file);
  return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
}

async function newContext(browser, viewport) {
  const context = await browser.newContext({
    viewport: viewport === 'phone' ? { width: 390, height: 844 } : { width: 1366, height: 900 },
    isMobile: viewport === 'phone',
    hasTouch: viewport === 'phone',
    locale: 'en-AU',
    timezoneId: 'Australia/Perth',
  });
  await context.addCookies([{ name: 'stub_session', value: 'admin', url: BASE }]);
  return context;
}

const ROUTES = [
  {
    name: 'login (/auth)',
    url: '/auth',
    ready: (p) => p.getByRole('heading', { name: 'Staff Login' }).waitFor(),
    signedOut: true,
  },
  {
    name: 'jobs tab',
    url: '/dashboard?tab=jobs',
    ready: (p) => p.locator('.ant-table-row').first().waitFor(),
  },
  {
    name: 'job detail dialog',
    url: '/dashboard?tab=jobs&job=aaaaaaaa-0000-4000-8000-000000000001',
    ready: (p) => p.getByText('Job Progress').waitFor(),
  },
  {
    name: 'schedule tab',
    url: '/dashboard?tab=schedule',
    ready: (p) => p.getByText('Job Schedule & Assignment').waitFor(),
  },
  {
    name: 'invoices tab',
    url: '/dashboard?tab=invoices',
    ready: (p) => p.locator('.ant-table-row').first().waitFor(),
  },
  {
    name: 'expenses tab',
    url: '/dashboard?tab=expenses',
    ready: (p) => p.getByText('Business Expenses').waitFor(),
  },
  {
    name: 'time slots tab',
    url: '/dashboard?tab=time-slots',
    ready: (p) => p.getByText('Time Slot Management').waitFor(),
  },
  {
    name: 'reports tab (charts)',
    url: '/dashboard?tab=reports',
    ready: (p) => p.locator('.recharts-surface').first().waitFor(),
  },
  { name: 'team tab', url: '/dashboard?tab=team', ready: (p) => p.getByText('Team Management').waitFor() },
  { name: 'settings tab', url: '/dashboard?tab=settings', ready: (p) => p.getByText('Account').waitFor() },
  {
    name: 'new booking',
    url: '/dashboard/booking/new',
    ready: (p) => p.getByText('Service Location').waitFor(),
  },
  {
    name: 'new invoice',
    url: '/dashboard/invoices/new?jobId=aaaaaaaa-0000-4000-8000-000000000004',
    ready: (p) => p.getByText('Invoice Information').waitFor(),
  },
];

async function scriptSizes(browser) {
  const rows = [];
  for (const route of ROUTES) {
    const context = await newContext(browser, 'desktop');
    if (route.signedOut) await context.clearCookies();
    const page = await context.newPage();
    const scripts = new Set();
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname);
    });
    await page.goto(`${BASE}${route.url}`);
    await route.ready(page);
    await page.waitForTimeout(1500); // let lazy chunks the route asked for finish
    let remote = { raw: 0, gzip: 0 };
    let total = { raw: 0, gzip: 0 };
    for (const url of scripts) {
      const size = fileSizes(url);
      total = { raw: total.raw + size.raw, gzip: total.gzip + size.gzip };
      if (url.startsWith('/remotes/dashboard/'))
        remote = { raw: remote.raw + size.raw, gzip: remote.gzip + size.gzip };
    }
    const remoteFiles = [...scripts].filter((u) => u.startsWith('/remotes/dashboard/')).length;
    rows.push({ route: route.name, files: remoteFiles, remote, total });
    await context.close();
  }
  return rows;
}

/**
 * Time to interactive of the jobs tab: from navigation start until the first page of jobs is on screen and the main
 * thread has had no long task (> 50 ms) for 500 ms; the page is then checked to answer input (next page).
 */
async function jobsTabTti(browser, viewport) {
  const samples = [];
  let rowsShown = 0;
  let totalJobs = 0;
  let inputMs = 0;
  for (let i = 0; i < RUNS; i++) {
    const context = await newContext(browser, viewport);
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.startTime + entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    const rowSelector = viewport === 'phone' ? '.dash-cards > li' : '.ant-table-row';
    await page.goto(`${BASE}/dashboard?tab=jobs`, { waitUntil: 'commit' });
    await page.locator(rowSelector).first().waitFor({ timeout: 30_000 });
    const visibleAt = await page.evaluate(() => performance.now());
    // Quiet window: 500 ms without a long task.
    let tti;
    for (;;) {
      await page.waitForTimeout(500);
      const last = await page.evaluate(() => Math.max(0, ...window.__longTasks));
      const now = await page.evaluate(() => performance.now());
      tti = Math.max(visibleAt, last);
      if (now - last >= 500) break;
    }
    samples.push(tti);
    rowsShown = await page.locator(rowSelector).count();
    totalJobs = Number((await page.locator('.dash-panel__count').textContent())?.replace(/\D/g, '') ?? 0);
    // Interactive: the next page answers.
    const before = await page.locator(rowSelector).first().textContent();
    const t0 = Date.now();
    if (viewport === 'phone') await page.locator('.ant-pagination-next').click();
    else await page.locator('.ant-pagination-next button, li.ant-pagination-next').first().click();
    await page.waitForFunction(
      ([sel, text]) => document.querySelector(sel)?.textContent !== text,
      [rowSelector, before],
      { timeout: 10_000 },
    );
    inputMs = Math.max(inputMs, Date.now() - t0);
    await context.close();
  }
  return {
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    rowsShown,
    totalJobs,
    inputMs,
  };
}

async function main() {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
  if (!process.env.BENCH_SKIP_BUILD) {
    await run('npm', [
      'run',
      'build',
      '--workspace',
      'frontends/shell',
      '--workspace',
      'frontends/dashboard',
    ]);
  }
  for (const [name, dir] of Object.entries(DIST))
    if (!existsSync(path.join(dir, name === 'shell' ? 'index.html' : 'mf-manifest.json')))
      throw new Error(`${dir} is not built: run without BENCH_SKIP_BUILD`);

  const stub = await startStub();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    console.log(
      `\nScript per route (cold cache, desktop). "dashboard" = the remote's own chunks; "page total" adds the shell and shared libraries.`,
    );
    const sizes = await scriptSizes(browser);
    const pad = (s, n) => String(s).padEnd(n);
    const padl = (s, n) => String(s).padStart(n);
    console.log(
      `${pad('route', 24)}${padl('files', 6)}${padl('dashboard raw', 15)}${padl('dashboard gzip', 16)}${padl('page total gzip', 17)}`,
    );
    for (const r of sizes)
      console.log(
        `${pad(r.route, 24)}${padl(r.files, 6)}${padl(kb(r.remote.raw), 15)}${padl(kb(r.remote.gzip), 16)}${padl(kb(r.total.gzip), 17)}`,
      );

    console.log(
      `\nJobs tab with ${JOBS} jobs (server pages of 25, ${LATENCY} ms added per API call), ${RUNS} runs per viewport:`,
    );
    let ok = true;
    for (const viewport of ['desktop', 'phone']) {
      const r = await jobsTabTti(browser, viewport);
      const pass = r.median < BUDGET_MS;
      ok &&= pass;
      console.log(
        `  ${pad(viewport, 8)} time to interactive median ${Math.round(r.median)} ms (min ${Math.round(r.min)}, max ${Math.round(r.max)}); ` +
          `${r.rowsShown} of ${r.totalJobs} jobs rendered; next page answered in ${r.inputMs} ms  ${pass ? 'PASS' : 'FAIL'} (< ${BUDGET_MS} ms)`,
      );
    }
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    try {
      process.kill(-stub.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
