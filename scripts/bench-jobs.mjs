#!/usr/bin/env node
// `npm run bench:jobs`: GET /api/dashboard/jobs-with-details with 5,000 jobs through the gateway, 20 connections,
// an admin session cookie. Budget: p99 < 100 ms through the gateway (issue 4).
//
// Runs the gateway and the jobs service (compiled) against a bench database (BENCH_DATABASE_URL, default
// postgresql://postgres@127.0.0.1:5432/tyres_bench_jobs) with EVENT_PREFIX bench-jobs., seeds the jobs by publishing
// BookingCreated (and BookingPhotoAdded for every other job) to the broker, the way booking does, waits until the
// jobs service has consumed them all, logs in as the first admin and runs autocannon: once straight at the jobs
// service (with a signed identity) for comparison, then through the gateway.
//
//   BENCH_JOBS=5000 BENCH_CONNECTIONS=20 BENCH_DURATION=10 BENCH_PATH=/api/dashboard/jobs-with-details npm run bench:jobs
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { checkInfra, ROOT, run, stackEnv, startServices, stopServices, waitForHealthy } from './lib/stack.mjs';

const require = createRequire(import.meta.url);
const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PATH = process.env.BENCH_PATH ?? '/api/dashboard/jobs-with-details';
const BUDGET_P99_MS = 100;
const GATEWAY_PORT = 18180;
const PORT_OFFSET = 10000;
const JOBS_PORT = 3002 + PORT_OFFSET;

function perthDate(offsetDays) {
  const d = new Date(Date.now() + 8 * 3600_000 + offsetDays * 86_400_000);
  return d.toISOString().slice(0, 10);
}

const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];
const SERVICES = ['new-tyres', 'puncture-repair', 'battery-service', 'emergency-callout'];

function booking(i) {
  const jobId = randomUUID();
  const created = new Date(Date.now() - (JOBS - i) * 45 * 60_000); // ~156 days of history, one every 45 minutes
  const service = SERVICES[i % SERVICES.length];
  const tyres = service === 'new-tyres';
  return {
    jobId,
    jobNumber: `BENCH-${String(i + 1).padStart(6, '0')}-${jobId.slice(0, 4)}`,
    customerId: randomUUID(),
    vehicleId: randomUUID(),
    serviceType: service,
    scheduledDate: perthDate((i % 120) - 60),
    timeSlot: SLOTS[i % SLOTS.length],
    address: `${(i % 300) + 1} Bench Street`,
    suburb: ['Rockingham', 'Mandurah', 'Fremantle', 'Joondalup', 'Midland'][i % 5],
    postcode: '6168',
    tyreSize: tyres ? '205/55R16' : null,
    tyreQuantity: tyres ? (i % 4) + 1 : null,
    tyreBrand: tyres && i % 3 === 0 ? 'Michelin' : null,
    notes: i % 7 === 0 ? 'Gate code 1234, dog in the yard.' : null,
    customerValue: tyres ? '675.80' : service === 'puncture-repair' ? '129.80' : '89.80',
    paymentMethod: i % 2 ? 'onsite' : 'prepaid',
    paymentStatus: i % 2 ? 'pending' : 'paid',
    stripePaymentIntentId: i % 2 ? null : `pi_bench_${i}`,
    channel: i % 5 === 0 ? 'staff' : 'online',
    customer: { name: `Customer ${i}`, email: `customer${i}@example.com`, phone: `04${String(10_000_000 + i).slice(-8)}` },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2010 + (i % 15), color: null, registration: `B${String(i).padStart(5, '0')}` },
    createdAt: created.toISOString(),
  };
}

async function countJobs(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS n FROM jobs.jobs WHERE deleted_at IS NULL');
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/** What autovacuum does shortly after a bulk load in production: statistics and the visibility map. */
async function vacuum(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const table of ['jobs', 'job_photos', 'job_customer_invoices', 'staff_directory']) await client.query(`VACUUM ANALYZE jobs.${table}`);
  } finally {
    await client.end();
  }
}

/** CPU seconds (user + system) of a process, from /proc (Linux). */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU seconds of the Postgres backends serving `database` (their process title names it). */
function postgresCpuSeconds(database) {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!title.startsWith('postgres: ') || !title.includes(` ${database} `)) continue;
      const fields = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      total += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // process ended meanwhile
    }
  }
  return total;
}

async function seed(env) {
  const have = await countJobs(env.DATABASE_URL);
  if (have >= JOBS) {
    console.log(`Seed: ${have} jobs already in the bench database.`);
    return;
  }
  const events = require(path.join(ROOT, 'packages/events/dist/index.js'));
  const publisher = events.createPublisher({ url: env.AMQP_URL, prefix: env.EVENT_PREFIX, name: 'bench-jobs-seeder' });
  const started = Date.now();
  const missing = JOBS - have;
  try {
    const batch = 200;
    for (let i = 0; i < missing; i += batch) {
      const list = [];
      for (let j = i; j < Math.min(missing, i + batch); j++) {
        const data = booking(have + j);
        list.push(events.createEvent(events.BookingCreated, data, { source: 'bench', correlationId: `bench-seed-${j}` }));
        if (j % 2 === 0) {
          const photoId = randomUUID();
          list.push(
            events.createEvent(
              events.BookingPhotoAdded,
              {
                jobId: data.jobId,
                photoId,
                type: 'tyre-condition',
                filename: `${photoId}.jpg`,
                originalName: `tyre-${j}.jpg`,
                mimeType: 'image/jpeg',
                size: 120_000,
                uploadedAt: data.createdAt,
              },
              { source: 'bench', correlationId: `bench-seed-${j}` },
            ),
          );
        }
      }
      await Promise.all(list.map((e) => publisher.publish(e)));
    }
  } finally {
    await publisher.close();
  }
  const published = Date.now();
  for (;;) {
    const n = await countJobs(env.DATABASE_URL);
    if (n >= JOBS) break;
    if (Date.now() - published > 300_000) throw new Error(`only ${n} of ${JOBS} jobs after 5 minutes`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const secs = (Date.now() - started) / 1000;
  console.log(`Seed: ${missing} BookingCreated (+ photos for every other job) published and consumed in ${secs.toFixed(1)} s (${(missing / secs).toFixed(0)} jobs/s).`);
}

async function login(env) {
  const res = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tyres_session='));
  if (!cookie) throw new Error('no session cookie in the login answer');
  return { cookie: cookie.split(';')[0], user: await res.json() };
}

function measure(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1, headers: { 'accept-encoding': 'gzip, deflate, br', ...headers } }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function main() {
  const env = stackEnv(process.env, {
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/tyres_bench_jobs',
    EVENT_PREFIX: 'bench-jobs.',
    REDIS_PREFIX: 'bench-jobs:',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GATEWAY_PORT,
    PORT_OFFSET,
  });
  if (!(await checkInfra(env))) process.exit(1);
  await run('npm', ['run', 'prisma:generate'], { env });
  await run('npx', ['tsc', '-b', 'services/jobs', 'services/gateway'], { env });
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy', 'gateway', 'jobs'], { env });

  let stopping = false;
  const procs = startServices(env, { quiet: true, only: ['jobs', 'gateway'] });
  for (const p of procs) {
    // Quiet, but a service that dies mid-run says why.
    let tail = '';
    for (const stream of [p.child.stdout, p.child.stderr]) stream.on('data', (chunk) => (tail = (tail + chunk).slice(-3000)));
    p.child.on('exit', (code, signal) => {
      if (!stopping) console.error(`\n${p.name} exited (${signal ?? code}) during the benchmark:\n${tail}`);
    });
  }
  try {
    await waitForHealthy(procs);
    await seed(env);
    await vacuum(env.DATABASE_URL);
    const { cookie, user } = await login(env);
    const viaUrl = `http://127.0.0.1:${GATEWAY_PORT}${PATH}`;
    const probe = await fetch(viaUrl, { headers: { cookie } });
    const body = await probe.json();
    console.log(
      `Request: GET ${PATH} → ${probe.status} through the gateway, ${Array.isArray(body) ? body.length : '?'} jobs of ` +
        `${probe.headers.get('x-total-count')} (page size ${probe.headers.get('x-page-size')}), ` +
        `${(JSON.stringify(body).length / 1024).toFixed(1)} KiB`,
    );
    if (probe.status !== 200) throw new Error(`probe failed: ${JSON.stringify(body)}`);

    // Straight at the jobs service, with an identity signed like the gateway does (10 minutes, for the whole run).
    const kit = require(path.join(ROOT, 'packages/service-kit/dist/index.js'));
    const identity = kit.signIdentity(env.INTERNAL_JWT_PRIVATE_KEY, { id: user.id, username: user.username, role: user.role }, 600);
    const directUrl = `http://127.0.0.1:${JOBS_PORT}${PATH}`;

    await measure(viaUrl, { cookie }); // warm-up (JIT, pools), discarded
    const direct = await measure(directUrl, { 'x-identity-token': identity });
    const database = new URL(env.DATABASE_URL).pathname.slice(1);
    const jobsProc = procs.find((p) => p.name === 'jobs');
    const gatewayProc = procs.find((p) => p.name === 'gateway');
    const before = { jobs: cpuSeconds(jobsProc.child.pid), gateway: cpuSeconds(gatewayProc.child.pid), pg: postgresCpuSeconds(database), self: process.cpuUsage() };
    const via = await measure(viaUrl, { cookie });
    const n = via.requests.total || 1;
    const self = process.cpuUsage(before.self);
    const perRequest = {
      gateway: ((cpuSeconds(gatewayProc.child.pid) - before.gateway) * 1000) / n,
      jobs: ((cpuSeconds(jobsProc.child.pid) - before.jobs) * 1000) / n,
      postgres: ((postgresCpuSeconds(database) - before.pg) * 1000) / n,
      autocannon: (self.user + self.system) / 1000 / n,
    };

    const row = (name, r) =>
      `${name.padEnd(16)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   ` +
      `p97.5 ${String(r.latency.p97_5).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   max ${String(r.latency.max).padStart(4)} ms   ` +
      `non-2xx ${r.non2xx}   errors ${r.errors}`;
    console.log(`\n${JOBS} jobs, ${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`);
    console.log(row('jobs direct', direct));
    console.log(row('through gateway', via));
    console.log(
      `CPU per request through the gateway: ${Object.entries(perRequest).map(([k, v]) => `${k} ${v.toFixed(2)} ms`).join(', ')}`,
    );
    const ok = via.latency.p99 < BUDGET_P99_MS && via.non2xx === 0 && via.errors === 0;
    console.log(`\np99 through the gateway ${via.latency.p99} ms (budget < ${BUDGET_P99_MS} ms): ${ok ? 'within budget' : 'OVER BUDGET'}`);
    if (!ok) process.exitCode = 2;
  } finally {
    stopping = true;
    await stopServices(procs);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
