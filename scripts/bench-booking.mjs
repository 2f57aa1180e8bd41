#!/usr/bin/env node
// `npm run bench:booking`: the booking service through the gateway, on the whole local stack (scripts/lib/stack.mjs).
//
//   1. GET /api/time-slots?date=...   50 connections, BENCH_DURATION s (default 10)   budget p99 < 50 ms
//   2. POST /api/bookings             20 connections, BENCH_BOOKINGS requests (default 2000), each (date, slot)
//                                     booked up to its capacity, so all of them must succeed  budget p99 < 150 ms
// Capacity (issue 19): BENCH_TECHNICIANS technicians (default 2) are put on the roster Monday to Friday, so every slot
// holds that many jobs; consecutive requests book the same slot, so they race for its lock. 0 = no roster (1 job).
// Budgets also require zero errors and zero non-2xx answers. Runs on its own database (BENCH_DATABASE_URL, default
// .../tyres_bench_booking, dropped and recreated each run) and its own event prefix, so it never touches dev data.
// Starts the gateway and booking (the path measured); BENCH_FULL_STACK=1 starts every service as `npm start` does.
import autocannon from 'autocannon';
import os from 'node:os';
import pg from 'pg';
import { checkInfra, run, stackEnv, startServices, stopServices, waitForHealthy } from './lib/stack.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const SLOT_CONNECTIONS = Number(process.env.BENCH_SLOT_CONNECTIONS ?? 50);
const BOOKING_CONNECTIONS = Number(process.env.BENCH_BOOKING_CONNECTIONS ?? 20);
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 2000);
const WARMUP_BOOKINGS = 200;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/tyres_bench_booking';
const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];
const TECHNICIANS = Number(process.env.BENCH_TECHNICIANS ?? 2);
const CAPACITY = Math.max(TECHNICIANS, 1);
/** WA public holidays are closed (issue 19): set once the kernel is built (main). */
let isHoliday = () => false;

/** Business days in Perth starting tomorrow: a date is never "today", so no slot has passed. */
function* businessDays() {
  const perthNow = new Date(Date.now() + 8 * 3600_000);
  for (let i = 1; ; i++) {
    const d = new Date(perthNow.getTime() + i * 86_400_000);
    const date = d.toISOString().slice(0, 10);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6 && !isHoliday(date)) yield date;
  }
}

/** (date, slot) pairs in order, each CAPACITY times in a row. */
function* slotPairs() {
  for (const date of businessDays()) for (const slot of SLOTS) for (let i = 0; i < CAPACITY; i++) yield { date, slot };
}

let seq = 0;
function bookingBody({ date, slot }) {
  seq += 1;
  return JSON.stringify({
    customer: { name: `Bench Customer ${seq}`, email: `bench.${seq}@example.com`, phone: `04${String(10_000_000 + seq).slice(-8)}` },
    vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, registration: `BENCH${seq}` },
    job: {
      serviceType: seq % 3 === 0 ? 'puncture-repair' : 'new-tyres',
      scheduledDate: date,
      timeSlot: slot,
      address: `${seq} Bench Street`,
      suburb: 'Mandurah',
      postcode: '6210',
      tyreSize: '205/55R16',
      tyreQuantity: (seq % 4) + 1,
      paymentMethod: 'onsite',
    },
  });
}

function measure(opts) {
  return new Promise((resolve, reject) => {
    autocannon({ pipelining: 1, ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function resetDatabase(url) {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

async function query(url, sql) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const row = (name, r) =>
  `${name.padEnd(22)} ${String(Math.round(r.requests.average)).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   ` +
  `p97.5 ${String(r.latency.p97_5).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   max ${String(r.latency.max).padStart(5)} ms   ` +
  `2xx ${r['2xx']}   non-2xx ${r.non2xx}   errors ${r.errors}   timeouts ${r.timeouts}` +
  (r.non2xx ? `\n${''.padEnd(22)} status codes: ${JSON.stringify(r.statusCodeStats)}` : '');

async function main() {
  const env = stackEnv(process.env, {
    DATABASE_URL,
    EVENT_PREFIX: 'bench-booking.',
    REDIS_PREFIX: 'bench-booking:',
    // One address books and uploads far past what a customer does; the gateway's public limits are not measured here.
    PUBLIC_LIMIT_BOOKINGS_PER_HOUR: '1000000',
    PUBLIC_LIMIT_PHOTO_UPLOADS_PER_HOUR: '1000000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // 2,200 bookings reach well past the default 90-day horizon (more so at capacity 1).
    BOOKING_HORIZON_DAYS: '3660',
    // Required in production since issue 18 (the manage-my-booking links' site).
    PUBLIC_SITE_URL: process.env.PUBLIC_SITE_URL ?? 'https://bench.example.com.au',
    // Ports of their own, so this can run while another bench script (18080 / +10000) is running.
    GATEWAY_PORT: Number(process.env.BENCH_GATEWAY_PORT ?? 18280),
    PORT_OFFSET: Number(process.env.BENCH_PORT_OFFSET ?? 10200),
  });
  if (!(await checkInfra(env))) process.exit(1);
  const only = process.env.BENCH_FULL_STACK === '1' ? undefined : ['booking', 'gateway'];
  await run('npm', ['run', 'prisma:generate'], { env });
  await run('npx', ['tsc', '-b', ...(only ? only.map((s) => `services/${s}`) : [])], { env });
  await resetDatabase(DATABASE_URL);
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy', ...(only ?? [])], { env });
  ({ isWaPublicHoliday: isHoliday } = await import('@tyres/kernel'));
  // The roster: TECHNICIANS technicians, Monday to Friday (as booking learns them from the gateway's user events).
  if (TECHNICIANS > 0)
    await query(
      DATABASE_URL,
      `INSERT INTO booking.roster_technicians (user_id, username, is_active, fact_at)
       SELECT gen_random_uuid(), 'bench.tech.' || g, true, now() FROM generate_series(1, ${TECHNICIANS}) g`,
    );

  const procs = startServices(env, { quiet: true, only });
  try {
    await waitForHealthy(procs);
    const gateway = procs.find((p) => p.name === 'gateway');
    const base = `http://127.0.0.1:${gateway.port}`;
    const pairs = slotPairs();
    const listDate = businessDays().next().value;

    // --- 1. slot lists (the booking dialog's first step; a few bookings on that date so the query has rows)
    for (const slot of SLOTS.slice(0, 2)) {
      const res = await fetch(`${base}/api/bookings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: bookingBody({ date: listDate, slot }),
      });
      if (res.status !== 201) throw new Error(`setup booking failed: ${res.status} ${await res.text()}`);
    }
    for (let i = 0; i < SLOTS.length * CAPACITY; i++) pairs.next(); // the list date's slots are not used below
    const slotsUrl = `${base}/api/time-slots?date=${listDate}`;
    const probe = await fetch(slotsUrl);
    console.log(`GET /api/time-slots?date=${listDate} → ${probe.status} ${await probe.text()}`);
    await measure({ url: slotsUrl, connections: SLOT_CONNECTIONS, duration: 3 }); // warm-up
    const slots = await measure({ url: slotsUrl, connections: SLOT_CONNECTIONS, duration: DURATION });
    // For reading the figures: the same request straight to booking (what the gateway hop costs on this machine).
    const booking = procs.find((p) => p.name === 'booking');
    const slotsDirect = await measure({
      url: `http://127.0.0.1:${booking.port}/api/time-slots?date=${listDate}`,
      connections: SLOT_CONNECTIONS,
      duration: DURATION,
    });

    // --- 2. bookings, each for a distinct slot
    const bookingRequest = (amount, connections) =>
      measure({
        url: base,
        connections,
        amount,
        requests: [
          {
            method: 'POST',
            path: '/api/bookings',
            headers: { 'Content-Type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: bookingBody(pairs.next().value) }),
          },
        ],
      });
    await bookingRequest(WARMUP_BOOKINGS, BOOKING_CONNECTIONS);
    const bookings = await bookingRequest(BOOKINGS, BOOKING_CONNECTIONS);

    const [{ live, doubles }] = await query(
      DATABASE_URL,
      `SELECT (SELECT count(*)::int FROM booking.slot_reservations WHERE released_at IS NULL) AS live,
              (SELECT count(*)::int FROM (SELECT 1 FROM booking.slot_reservations WHERE released_at IS NULL
                                          GROUP BY date, time_slot HAVING count(*) > ${CAPACITY}) d) AS doubles`,
    );
    const [{ pending }] = await query(DATABASE_URL, `SELECT count(*)::int AS pending FROM booking.outbox_events WHERE published_at IS NULL`);

    console.log(`\nthrough the gateway (${base})`);
    console.log(row(`GET time-slots (${SLOT_CONNECTIONS}c)`, slots));
    console.log(row('  same, direct (info)', slotsDirect));
    console.log(row(`POST bookings (${BOOKING_CONNECTIONS}c)`, bookings));
    console.log(`\ncapacity ${CAPACITY} per slot (${TECHNICIANS} technicians rostered)`);
    console.log(`bookings stored: ${live} live reservations (expected ${2 + WARMUP_BOOKINGS + BOOKINGS}), slots over capacity: ${doubles}, outbox rows not yet published: ${pending}`);
    const ok = (r) => r.errors === 0 && r.non2xx === 0 && r.timeouts === 0;
    const within =
      slots.latency.p99 < 50 && bookings.latency.p99 < 150 && ok(slots) && ok(bookings) && doubles === 0 && live === 2 + WARMUP_BOOKINGS + BOOKINGS;
    console.log(`budgets: time-slots p99 ${slots.latency.p99} ms (< 50), bookings p99 ${bookings.latency.p99} ms (< 150), zero errors`);
    console.log(within ? 'within budget' : 'OVER BUDGET');
    console.log(`machine: ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at the end of the run`);
    process.exitCode = within ? 0 : 1;
  } finally {
    await stopServices(procs);
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
