/**
 * End-to-end fuzzing of the real stack (issue 14): generated hostile bodies, queries and paths (fast-check) sent to
 * every public and dashboard route of test/fuzz/catalogue.ts, as an anonymous visitor, a technician and an admin.
 * Every answer must be below 500 (a 503 only with Retry-After, and it is reported), of the right status class
 * (test/fuzz/expectations.ts) and, when an error, JSON with a message. State-changing routes only get requests the
 * server must refuse, and everything staff can list is compared before and after each route's batch: nothing
 * half-written.
 *
 *   FUZZ_SEED=123   reproduce a run (the seed is printed at the start and in every failure)
 *   FUZZ_RUNS=40    cases per route for its main caller (default 20; others get a third or a quarter)
 *   FUZZ_SEND_KNOWN=1  also send what KNOWN_FAILURES holds back (to check that a fix landed)
 *   FUZZ_ROUTE=jobs only the routes whose "METHOD /path" matches this regular expression ('^(?!.*photos)': all
 *                   but the photo upload)
 */
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import { matchRoute, OWN_ROUTES, ROUTES, WS_ROUTES } from '../../services/gateway/src/http/routing';
import {
  CATALOGUE,
  routeId,
  samplePath,
  WS_CATALOGUE,
  type Fixtures,
  type Identity,
  type RouteSpec,
} from '../fuzz/catalogue';
import {
  createFixtures,
  differences,
  settledSnapshot,
  snapshot,
  touchedDays,
  type Stack,
} from '../fuzz/fixtures';
import { caseCount, generateCases, photoBody, type FuzzRequest } from '../fuzz/generators';
import { judge, report } from '../fuzz/expectations';
import { anonymous, BASE_URL, call, closeClient, send, sessionHeaders, type Session } from '../fuzz/http';

jest.setTimeout(180_000);

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 20));
const ONLY = process.env.FUZZ_ROUTE;
const SEND_KNOWN = process.env.FUZZ_SEND_KNOWN === '1';
const CONCURRENCY = 4;
const ADMIN_USERNAME = process.env.E2E_ADMIN_USERNAME ?? 'admin';
const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? '';

/**
 * Failures an in-flight change of issue 14 fixes: reported, not failed. The lead empties this list as the fixes
 * land (a run prints "no longer fails" for an entry whose cases all passed).
 */
// Empty: the cut-short upload that crashed booking is fixed (commit d1357a4) and its test now runs.
const KNOWN_FAILURES: { tag: string; reason: string; notSent?: true }[] = [];

const ROUTES_UNDER_TEST = CATALOGUE.filter((r) => !ONLY || new RegExp(ONLY).test(routeId(r)));

// --- the run's tally -----------------------------------------------------------------------------------------------

const tally = {
  sent: 0,
  byClass: { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, none: 0 } as Record<string, number>,
  tooMany: 0,
  retryLater: [] as string[],
  failures: [] as string[],
  known: new Map<string, number>(),
  /** The first reports of each known failure (the lead checks them against the fix). */
  knownReports: new Map<string, string[]>(),
  knownPassed: new Map<string, number>(),
  notSent: new Map<string, number>(),
  started: 0,
  requestMs: 0,
};
let requestNo = 0;

function classOf(status: number) {
  return status ? `${Math.floor(status / 100)}xx` : 'none';
}

let stack: Stack;
let fixtures: Fixtures;
let initial: Record<string, unknown>;

function sessionOf(identity: Identity): Session {
  return identity === 'admin' ? stack.admin : identity === 'technician' ? stack.technician : anonymous;
}

/** Sends the requests (a few at a time), judges each answer; returns the failures of this batch. */
async function run(requests: FuzzRequest[]): Promise<{ failures: string[]; statuses: number[] }> {
  const failures: string[] = [];
  const statuses: number[] = new Array<number>(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      const req = requests[i]!;
      const requestId = `fuzz-${SEED}-${++requestNo}`;
      const headers: Record<string, string> = {
        ...sessionHeaders(sessionOf(req.identity)),
        'x-request-id': requestId,
        ...req.headers,
      };
      for (const h of req.dropHeaders ?? []) delete headers[h];
      const res = await send({
        method: req.method,
        target: req.target,
        headers,
        ...(req.body ? { body: req.body } : {}),
        ...(req.chunked ? { chunked: true } : {}),
        ...(req.lyingLength ? { lyingLength: req.lyingLength, timeoutMs: 10_000 } : {}),
      });
      tally.sent++;
      tally.requestMs += res.ms;
      tally.byClass[classOf(res.status)]!++;
      if (res.status === 429) tally.tooMany++;
      statuses[i] = res.status;
      const verdict = judge(req, res);
      if (verdict.retryLater)
        tally.retryLater.push(
          `${routeId(req.route)} as ${req.identity}: 503 Retry-After ${res.headers['retry-after']}`,
        );
      const known = req.tag ? KNOWN_FAILURES.find((k) => k.tag === req.tag) : undefined;
      if (verdict.ok) {
        if (known) tally.knownPassed.set(known.tag, (tally.knownPassed.get(known.tag) ?? 0) + 1);
        continue;
      }
      // A case may send its own (hostile) request id: the gateway then logs under one it makes up.
      const loggedAs = req.headers['x-request-id'] ? '(the case sent its own x-request-id)' : requestId;
      const text = report(req, res, verdict, SEED, loggedAs);
      if (known) {
        tally.known.set(known.tag, (tally.known.get(known.tag) ?? 0) + 1);
        const reports = tally.knownReports.get(known.tag) ?? [];
        if (reports.length < 3) tally.knownReports.set(known.tag, [...reports, text]);
        continue;
      }
      failures.push(text);
      tally.failures.push(text);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { failures, statuses };
}

function casesOf(route: RouteSpec): FuzzRequest[] {
  const identities = route.identities ?? (['anonymous', 'technician', 'admin'] as Identity[]);
  return identities
    .flatMap((identity) => generateCases(route, identity, fixtures, caseCount(route, identity, RUNS), SEED))
    .filter((req) => {
      const known = KNOWN_FAILURES.find((k) => k.tag === req.tag);
      if (!known?.notSent || SEND_KNOWN) return true;
      tally.notSent.set(known.tag, (tally.notSent.get(known.tag) ?? 0) + 1);
      return false;
    });
}

/**
 * Best effort: the specs after this one share the database, so the fuzz fixtures go (the job frees its slot, the
 * technician is deactivated: accounts are never deleted). A failure here is logged, not failed.
 */
async function removeFixtures() {
  if (!stack) return;
  const f = stack.fixtures;
  const steps: [string, string, unknown?][] = [
    ['DELETE', `/api/dashboard/customer-invoices/${f.invoiceId}`],
    ['DELETE', `/api/dashboard/purchase-invoices/${f.purchaseId}`],
    ['DELETE', `/api/dashboard/business-expenses/${f.expenseId}`],
    ['DELETE', `/api/dashboard/jobs/${f.jobId}`],
    ['PATCH', `/api/admin/users/${f.technicianId}/status`, { isActive: false }],
  ];
  for (const [method, target, body] of steps)
    await call(stack.admin, method, target, body).catch((err: Error) =>
      console.log(`fuzz: could not remove a fixture: ${err.message}`),
    );
}

beforeAll(async () => {
  tally.started = Date.now();
  console.log(
    `fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}${ONLY ? ` FUZZ_ROUTE=${ONLY}` : ''} against ${BASE_URL}`,
  );
  stack = await createFixtures(ADMIN_USERNAME, ADMIN_PASSWORD);
  fixtures = stack.fixtures;
  initial = await settledSnapshot(stack, [fixtures.freeDate, fixtures.bookedDate]);
});

afterAll(async () => {
  await removeFixtures();
  const seconds = ((Date.now() - tally.started) / 1000).toFixed(1);
  const c = tally.byClass;
  const lines = [
    `fuzz summary: ${tally.sent} requests (FUZZ_SEED=${SEED}, FUZZ_RUNS=${RUNS}, ${ROUTES_UNDER_TEST.length} routes) in ${seconds} s` +
      ` (${(tally.requestMs / 1000).toFixed(1)} s of request time): 2xx ${c['2xx']}, 3xx ${c['3xx']}, 4xx ${c['4xx']}` +
      ` (429: ${tally.tooMany}), 5xx ${c['5xx']}, no answer ${c.none}; failures ${tally.failures.length}`,
  ];
  for (const [tag, n] of tally.known)
    lines.push(
      `  known failure ×${n}: ${KNOWN_FAILURES.find((k) => k.tag === tag)?.reason}`,
      ...(tally.knownReports.get(tag) ?? []).map((r) => r.replace(/^/gm, '    ')),
    );
  for (const [tag, n] of tally.notSent)
    lines.push(
      `  not sent ×${n}, known failure ${tag} (remove it from KNOWN_FAILURES once fixed): ` +
        `${KNOWN_FAILURES.find((k) => k.tag === tag)?.reason}`,
    );
  for (const k of KNOWN_FAILURES)
    if (!tally.known.has(k.tag) && tally.knownPassed.has(k.tag))
      lines.push(
        `  KNOWN_FAILURES entry ${k.tag} no longer fails (${tally.knownPassed.get(k.tag)} cases passed): remove it`,
      );
  for (const r of tally.retryLater) lines.push(`  retry later: ${r}`);
  console.log(lines.join('\n'));
  closeClient();
});

// --- the catalogue against the code ----------------------------------------------------------------------------------

const SAMPLE: Fixtures = {
  adminId: '11111111-1111-4111-8111-111111111111',
  technicianId: '22222222-2222-4222-8222-222222222222',
  jobId: '33333333-3333-4333-8333-333333333333',
  jobNumber: 'JOB-1',
  lineItemId: '44444444-4444-4444-8444-444444444444',
  invoiceId: '55555555-5555-4555-8555-555555555555',
  invoiceItemId: '66666666-6666-4666-8666-666666666666',
  purchaseId: '77777777-7777-4777-8777-777777777777',
  expenseId: '88888888-8888-4888-8888-888888888888',
  freeDate: '2030-01-02',
  freeSlot: '8-10 AM',
  bookedDate: '2030-01-03',
  bookedSlot: '10-12 AM',
  today: '2030-01-01',
  inThirtyDays: '2030-01-31',
};

/** "/api/x/:id/*rest" or "/api/x/{id}" → "/api/x/{}/{}". */
const shape = (method: string, p: string) =>
  `${method.toUpperCase()} ${p.replace(/\/$/, '').replace(/(:|\*)\w+|\{\w+\}/g, '{}') || '/'}`;

/** Route registrations in each service's HTTP files, with the prefix each router is mounted at. */
const ROUTE_FILES: { file: string; prefix: string; receiver: string }[] = [
  { file: 'services/booking/src/http/routes.ts', prefix: '', receiver: 'app' },
  { file: 'services/jobs/src/http/routes.ts', prefix: '', receiver: 'router' },
  { file: 'services/billing/src/http/payments.ts', prefix: '', receiver: 'r' },
  {
    file: 'services/billing/src/http/customer-invoices.ts',
    prefix: '/api/dashboard/customer-invoices',
    receiver: 'r',
  },
  {
    file: 'services/billing/src/http/purchase-invoices.ts',
    prefix: '/api/dashboard/purchase-invoices',
    receiver: 'r',
  },
  {
    file: 'services/billing/src/http/expenses.ts',
    prefix: '/api/dashboard/business-expenses',
    receiver: 'r',
  },
  { file: 'services/reporting/src/http/routes.ts', prefix: '/api/dashboard/reports', receiver: 'router' },
  { file: 'services/notify/src/http/routes.ts', prefix: '/api/dashboard/notifications', receiver: 'api' },
];

describe('the route catalogue', () => {
  test('covers every entry of the gateway routing table, and names the service each entry sends it to', () => {
    const uncovered = ROUTES.filter(
      (entry) => !CATALOGUE.some((r) => matchRoute(samplePath(r, SAMPLE).split('?')[0]!) === entry),
    ).map((e) => e.prefix ?? String(e.pattern));
    expect(uncovered).toEqual([]);
    const wsUncovered = WS_ROUTES.filter(
      (e) => !WS_CATALOGUE.some((w) => matchRoute(w.path, WS_ROUTES) === e),
    );
    expect(wsUncovered).toEqual([]);
    const misrouted = CATALOGUE.flatMap((r) => {
      const entry = matchRoute(samplePath(r, SAMPLE));
      return entry?.upstream === r.upstream
        ? []
        : [`${routeId(r)}: catalogue ${r.upstream}, gateway ${entry?.upstream}`];
    });
    expect(misrouted).toEqual([]);
  });

  test("covers the gateway's own routes with the access the gateway gives them", () => {
    const problems = Object.values(OWN_ROUTES).flatMap((own) => {
      const entry = CATALOGUE.find((r) => shape(r.method, r.path) === shape(own.method, own.path));
      if (!entry) return [`${own.method} ${own.path}: not in the catalogue`];
      return entry.access === own.access
        ? []
        : [`${own.method} ${own.path}: catalogue ${entry.access}, gateway ${own.access}`];
    });
    expect(problems).toEqual([]);
  });

  test("has every operation of the services' OpenAPI documents that the gateway routes", () => {
    // The documents are complete (each service's coverage test walks its router), so this also catches a route
    // registered in a way the source scan below cannot read.
    const dir = path.join(__dirname, '..', '..', 'frontends', 'platform', 'src', 'api-types');
    const known = new Set(CATALOGUE.map((r) => shape(r.method, r.path)));
    const missing: string[] = [];
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.openapi.json'))) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const [template, item] of Object.entries(doc.paths)) {
        if (!matchRoute(template.replace(/\{[^}]+\}/g, 'x'))) continue; // not routed by the gateway (/internal)
        // The slash form of a tyre size: the same route as /api/tyre-pricing/{tyreSize}, documented twice.
        if (template === '/api/tyre-pricing/{width}/{profileRim}') continue;
        for (const method of Object.keys(item).filter((k) =>
          ['get', 'post', 'put', 'patch', 'delete'].includes(k),
        ))
          if (!known.has(shape(method.toUpperCase(), template)))
            missing.push(`${method.toUpperCase()} ${template} (${file})`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('has every route the services and the gateway register', () => {
    const known = new Set(CATALOGUE.map((r) => shape(r.method, r.path)));
    const missing: string[] = [];
    const silent: string[] = [];
    for (const { file, prefix, receiver } of ROUTE_FILES) {
      let found = 0;
      const source = fs.readFileSync(path.join(__dirname, '..', '..', file), 'utf8');
      const call = new RegExp(
        `\\b${receiver.replace('.', '\\.')}\\.(get|post|put|patch|delete)\\(\\s*'([^']+)'`,
        'g',
      );
      for (const m of source.matchAll(call)) {
        const full = m[2]!.startsWith('/api/') ? m[2]! : `${prefix}${m[2] === '/' ? '' : m[2]}`;
        if (!full.startsWith('/api/')) continue;
        const s = shape(m[1]!, full);
        found++;
        if (!known.has(s)) missing.push(`${s} (${file})`);
      }
      // A file whose routes are no longer registered this way would pass silently: say so instead.
      if (!found) silent.push(file);
    }
    expect(missing).toEqual([]);
    expect(silent).toEqual([]);
  });

  test(`has ${CATALOGUE.length} routes, each with who may call it`, () => {
    expect(CATALOGUE.length).toBeGreaterThan(60);
    for (const r of CATALOGUE) expect(['public', 'staff', 'admin']).toContain(r.access);
  });
});

// --- fuzzing ------------------------------------------------------------------------------------------------------

const reads = ROUTES_UNDER_TEST.filter((r) => !r.writes);
const writes = ROUTES_UNDER_TEST.filter((r) => r.writes);

/** One test per route ("METHOD /path"); none (skipped) when FUZZ_ROUTE leaves no route here. */
function eachRoute(routes: RouteSpec[], fn: (route: RouteSpec) => Promise<void>) {
  if (!routes.length) return test.skip('(no route under FUZZ_ROUTE)', () => undefined);
  test.each(routes.map((r) => [routeId(r), r] as const))('%s', (_name, route) => fn(route));
}

describe('read-only and public routes: hostile queries, paths and bodies', () => {
  eachRoute(reads, async (route) => {
    const { failures } = await run(casesOf(route));
    if (failures.length) throw new Error(`${failures.length} wrong answers:\n\n${failures.join('\n\n')}`);
  });
});

describe('state-changing routes: every request refused, nothing half-written', () => {
  eachRoute(writes, async (route) => {
    const requests = casesOf(route);
    const days = new Set([fixtures.freeDate, fixtures.bookedDate]);
    for (const req of requests) {
      const text = `${req.target} ${req.body && req.body.length < 200_000 ? req.body.toString('utf8') : ''}`;
      for (const d of touchedDays(text, fixtures.today).slice(0, 6)) days.add(d);
    }
    // A snapshot that fails (a service down) is reported with the batch, not instead of it.
    const problems: string[] = [];
    const take = (when: string) =>
      snapshot(stack, days).catch((err: Error) => {
        problems.push(`snapshot ${when} the batch failed: ${err.message}`);
        return undefined;
      });
    const before = await take('before');
    const { failures, statuses } = await run(requests);
    const after = await take('after');
    const changed = before && after ? differences(before, after) : [];
    const accepted = statuses.filter((s) => s < 400).length;
    problems.unshift(...failures);
    if (changed.length)
      problems.push(
        `stored data changed around a batch of ${requests.length} requests (${accepted} not refused):\n  ${changed.join('\n  ')}`,
      );
    if (problems.length) throw new Error(`${problems.length} problems:\n\n${problems.join('\n\n')}`);
  });
});

// --- WebSocket upgrades -------------------------------------------------------------------------------------------

function upgrade(target: string, headers: Record<string, string>): Promise<number> {
  const u = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const req = http.request({
      hostname: u.hostname,
      port: u.port || 80,
      path: target,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': Buffer.from('fuzz-fuzz-fuzz!!').toString('base64'),
        ...headers,
      },
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer to the upgrade')));
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('WebSocket /ws/notifications', () => {
  test('refuses anonymous and cross-site upgrades, hostile paths never reach notify, staff get through', async () => {
    const results = {
      anonymous: await upgrade('/ws/notifications', { origin: BASE_URL }),
      garbageCookie: await upgrade('/ws/notifications', { origin: BASE_URL, cookie: 'session=garbage' }),
      crossSite: await upgrade('/ws/notifications', {
        ...sessionHeaders(stack.admin),
        origin: 'https://evil.example',
      }),
      dotSegments: await upgrade('/ws/notifications/..%2f..%2fapi', sessionHeaders(stack.admin)),
      technician: await upgrade('/ws/notifications', sessionHeaders(stack.technician)),
    };
    tally.sent += 5;
    expect(results).toEqual({
      anonymous: 401,
      garbageCookie: 401,
      crossSite: 403,
      dotSegments: expect.any(Number) as number,
      technician: 101,
    });
    expect(results.dotSegments).toBeLessThan(500);
  });
});

// --- requests Node's HTTP parser refuses ----------------------------------------------------------------------------

describe('requests too long for the HTTP parser', () => {
  // Past Node's 16 KB header limit the gateway's server answers before any route runs: still a 4xx a front end can
  // show, JSON with a message like every other refusal.
  test.each([
    ['a 20 000-character path', `/api/dashboard/jobs/${'x'.repeat(20_000)}`, {}],
    ['a 20 000-character query', `/api/time-slots?date=${'x'.repeat(20_000)}`, {}],
    ['a 20 000-character header', '/api/pricing', { 'x-fuzz': 'x'.repeat(20_000) }],
  ] as const)('%s gets a 4xx JSON answer with a message', async (_name, target, extra) => {
    const res = await send({ method: 'GET', target, headers: { origin: BASE_URL, ...extra } });
    tally.sent++;
    tally.byClass[classOf(res.status)]!++;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect({
      status: res.status,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body.toString('utf8').slice(0, 200),
    }).toEqual({
      status: res.status,
      contentType: expect.stringMatching(/json/) as string,
      body: expect.stringMatching(/"message":"[^"]+"/) as string,
    });
  });
});

// --- afterwards ---------------------------------------------------------------------------------------------------

describe('after the run', () => {
  test('nothing changed anywhere (reports included, once their events settled), and no role leaked', async () => {
    // Prototype pollution or a confused session would show here: roles must be what they were.
    const me = await call<{ role: string }>(stack.technician, 'GET', '/api/user');
    expect(me.data.role).toBe('technician');
    const techOnAdmin = await send({
      method: 'GET',
      target: '/api/admin/users',
      headers: sessionHeaders(stack.technician),
    });
    expect(techOnAdmin.status).toBe(403);
    const anon = await send({ method: 'GET', target: '/api/dashboard/jobs', headers: { origin: BASE_URL } });
    expect(anon.status).toBe(401);
    tally.sent += 3;

    const final = await settledSnapshot(stack, [fixtures.freeDate, fixtures.bookedDate]);
    expect(differences(initial, final)).toEqual([]);
  });
});

// --- uploads that stop half-way -------------------------------------------------------------------------------------

/** True while the booking service answers (through the gateway). */
async function bookingAnswers(): Promise<boolean> {
  const res = await send({ method: 'GET', target: '/api/pricing', headers: { origin: BASE_URL } });
  tally.sent++;
  return res.status === 200;
}

describe('photo uploads that stop half-way (sent last: they have taken the booking service down)', () => {
  const cutShortKnown = !SEND_KNOWN && KNOWN_FAILURES.find((k) => k.tag === 'upload-cut-short' && k.notSent);
  if (cutShortKnown) tally.notSent.set('upload-cut-short', 1);
  (cutShortKnown ? test.skip : test)(
    'a multipart body cut short in a file is a 400, and booking keeps answering',
    async () => {
      const { body, contentType } = photoBody('truncated', 1);
      const res = await send({
        method: 'POST',
        target: `/api/bookings/${fixtures.jobId}/photos`,
        headers: { origin: BASE_URL, 'content-type': contentType, 'x-request-id': `fuzz-${SEED}-truncated` },
        body,
      });
      tally.sent++;
      const alive = await bookingAnswers();
      expect({ status: res.status, bookingAnswers: alive }).toEqual({ status: 400, bookingAnswers: true });
    },
  );

  test('a client that hangs up in the middle of a file leaves booking answering', async () => {
    const { body, contentType } = photoBody('wrongMagic', 2);
    const u = new URL(BASE_URL);
    await new Promise<void>((resolve) => {
      const req = http.request({
        hostname: u.hostname,
        port: u.port || 80,
        method: 'POST',
        path: `/api/bookings/${fixtures.jobId}/photos`,
        agent: false,
        headers: {
          origin: BASE_URL,
          'content-type': contentType,
          'content-length': String(body.length + 100_000),
        },
      });
      req.on('error', () => resolve());
      req.on('response', (r) => {
        r.resume();
        resolve();
      });
      req.write(body.subarray(0, body.length - 10));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    tally.sent++;
    await new Promise((r) => setTimeout(r, 300));
    expect(await bookingAnswers()).toBe(true);
  });
});
