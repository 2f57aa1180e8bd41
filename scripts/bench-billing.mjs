#!/usr/bin/env node
// `npm run bench:billing`: the billing service on its own (fresh database, its own event/Redis prefixes).
//   1. PDF generation by the BullMQ `pdf` worker: N invoices, C at a time; for each, the time from the request
//      (POST .../{id}/pdf) until the PDF is downloadable (GET .../{id}/pdf answers 200). Reports invoices per second
//      and p50/p99 of that time.
//   2. GET /api/dashboard/customer-invoices with 10,000 invoices in the database, 20 connections (autocannon).
//      Budget: p99 < 100 ms.
// Environment: BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/tyres_bench_billing, dropped and
// recreated), BENCH_INVOICES (10000), BENCH_PDFS (200), BENCH_PDF_CONCURRENCY (requests in flight, 20),
// PDF_CONCURRENCY (worker concurrency, 4), BENCH_CONNECTIONS (20), BENCH_DURATION (10 s).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import autocannon from 'autocannon';
import { checkInfra, ROOT, run, stackEnv } from './lib/stack.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Redis } = require('ioredis');
const amqp = require('amqplib');

const INVOICES = Number(process.env.BENCH_INVOICES ?? 10_000);
const PDFS = Number(process.env.BENCH_PDFS ?? 200);
const PDF_IN_FLIGHT = Number(process.env.BENCH_PDF_CONCURRENCY ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PORT = Number(process.env.BENCH_BILLING_PORT ?? 13003);
const EVENT_PREFIX = 'bench-billing.';
const REDIS_PREFIX = 'bench-billing:';
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/tyres_bench_billing';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function recreateDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Refusing to recreate database ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** 10,000 invoices (4 items each) for 10,000 jobs, inserted set-wise: the list benchmark needs volume, not realism. */
async function seed(url, count) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO billing.job_snapshots (job_id, job_number, status, service_type, scheduled_date, time_slot, address, suburb,
         postcode, tyre_size, tyre_quantity, tyre_brand, customer_value, payment_method, payment_status, customer_name,
         customer_email, customer_phone, vehicle_make, vehicle_model, vehicle_year, vehicle_registration, booked_at, updated_at)
       SELECT gen_random_uuid(), 'JOB-' || lpad(g::text, 6, '0'), 'completed', 'new-tyres',
              date '2026-01-01' + (g % 300), '10-12 AM', g || ' Hay Street', 'Subiaco', '6008', '205/55R16', 4, 'Michelin',
              805.80, 'onsite', 'pending', 'Customer ' || g, 'customer' || g || '@example.com', '0400' || lpad(g::text, 6, '0'),
              'Toyota', 'Corolla', 2018, 'REG' || g, now(), now()
       FROM generate_series(1, $1::int) AS g`,
      [count],
    );
    await client.query(
      `INSERT INTO billing.customer_invoices (id, job_id, invoice_number, invoice_date, due_date, subtotal_amount, gst_amount,
         total_amount, status, created_at, updated_at)
       SELECT gen_random_uuid(), j.job_id, 'INV-' || lpad(row_number() OVER (ORDER BY j.job_number)::text, 6, '0'),
              date '2026-01-01' + (row_number() OVER (ORDER BY j.job_number) % 300)::int,
              date '2026-01-31' + (row_number() OVER (ORDER BY j.job_number) % 300)::int,
              805.80, 80.58, 886.38,
              (ARRAY['draft','sent','paid','sent','cancelled'])[1 + (row_number() OVER (ORDER BY j.job_number) % 5)::int],
              now() - (row_number() OVER (ORDER BY j.job_number DESC) || ' seconds')::interval, now()
       FROM billing.job_snapshots j`,
    );
    await client.query(
      `INSERT INTO billing.customer_invoice_items (id, customer_invoice_id, description, category, quantity, unit_price, total_price, position, updated_at)
       SELECT gen_random_uuid(), i.id, l.description, l.category, l.quantity, l.unit_price, l.total_price, l.position, now()
       FROM billing.customer_invoices i
       CROSS JOIN (VALUES ('Mobile callout fee', 'callout', 1, 89.80, 89.80, 0),
                          ('New tyre 205/55R16 (Michelin)', 'tyre', 4, 139.00, 556.00, 1),
                          ('Tyre fitting', 'labour', 4, 25.00, 100.00, 2),
                          ('Wheel balancing', 'labour', 4, 15.00, 60.00, 3)) AS l(description, category, quantity, unit_price, total_price, position)`,
    );
    await client.query(`UPDATE billing.number_series SET last_value = $1 WHERE name = 'customer_invoice'`, [count]);
    await client.query('COMMIT');
    await client.query('ANALYZE');
    const { rows } = await client.query(
      `SELECT id FROM billing.customer_invoices WHERE status <> 'cancelled' ORDER BY invoice_number LIMIT $1`,
      [PDFS + 1],
    );
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

async function cleanupBroker(env) {
  const conn = await amqp.connect(env.AMQP_URL);
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    for (const q of ['billing', 'billing.dlq', 'billing.retry.1000ms', 'billing.retry.5000ms', 'billing.retry.25000ms', 'billing.retry.125000ms'])
      await ch.deleteQueue(EVENT_PREFIX + q).catch(() => undefined);
    for (const e of ['tyres.events', 'tyres.dlx']) await ch.deleteExchange(EVENT_PREFIX + e).catch(() => undefined);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

async function cleanupRedis(env) {
  const redis = new Redis(env.REDIS_URL, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${REDIS_PREFIX}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}

function startBilling(env) {
  const child = spawn(process.execPath, [path.join(ROOT, 'services/billing/dist/main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr.on('data', (d) => (output = (output + d).slice(-20_000)));
  return { child, output: () => output };
}

async function waitReady(base, proc, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`billing exited during start-up:\n${proc.output()}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok && (await res.json().catch(() => ({}))).status === 'ready') return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`billing did not become ready:\n${proc.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stop(proc) {
  if (proc.child.exitCode !== null) return;
  await new Promise((resolve) => {
    const timer = setTimeout(() => proc.child.kill('SIGKILL'), 15_000);
    proc.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    proc.child.kill('SIGTERM');
  });
}

async function benchPdfs(base, headers, ids) {
  const latencies = [];
  let failures = 0;
  let next = 0;
  const one = async (id) => {
    const started = performance.now();
    const res = await fetch(`${base}/api/dashboard/customer-invoices/${id}/pdf`, { method: 'POST', headers });
    const body = await res.json();
    if (res.status !== 200 && res.status !== 202) throw new Error(`POST pdf ${res.status} ${JSON.stringify(body)}`);
    for (;;) {
      const download = await fetch(`${base}${body.downloadUrl}`, { headers });
      if (download.status === 200) {
        const bytes = Buffer.from(await download.arrayBuffer());
        if (bytes.subarray(0, 5).toString() !== '%PDF-') throw new Error('not a PDF');
        break;
      }
      await download.arrayBuffer();
      await new Promise((r) => setTimeout(r, 20));
    }
    latencies.push(performance.now() - started);
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(PDF_IN_FLIGHT, ids.length) }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        await one(id).catch((err) => {
          failures += 1;
          if (failures <= 3) console.error(`  pdf ${id}: ${err.message}`);
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { seconds, count: latencies.length, failures, latencies };
}

/** CPU time (ms) the billing process has used so far (Linux /proc; undefined elsewhere). */
function processCpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime in clock ticks (USER_HZ 100)
  } catch {
    return undefined;
  }
}

function measure(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1, headers }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function main() {
  const env = stackEnv(process.env, {
    DATABASE_URL,
    EVENT_PREFIX,
    REDIS_PREFIX,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
  });
  if (!(await checkInfra(env))) process.exit(1);
  await run('npm', ['run', 'prisma:generate'], { env });
  await run('npx', ['tsc', '-b', 'services/billing'], { env });
  await recreateDatabase(DATABASE_URL);
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy', 'billing'], { env });
  console.log(`Seeding ${INVOICES.toLocaleString()} invoices (4 line items each)...`);
  const ids = await seed(DATABASE_URL, INVOICES);
  await cleanupRedis(env);

  // NODE_ENV=production: billing refuses to start without a Stripe webhook signing secret (issue 14 item 8).
  const billingEnv = {
    ...env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    RUN_WORKERS: 'true',
    STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET || 'whsec_bench_not_a_real_secret',
  };
  const proc = startBilling(billingEnv);
  const base = `http://127.0.0.1:${PORT}`;
  try {
    await waitReady(base, proc);
    const kit = require(path.join(ROOT, 'packages/service-kit/dist/index.js'));
    const token = kit.signIdentity(env.INTERNAL_JWT_PRIVATE_KEY, { id: randomUUID(), username: 'bench', role: 'admin' }, 3600);
    const headers = { 'x-identity-token': token };

    // --- 1. PDF worker throughput ----------------------------------------------------------------------------
    const [warm, ...pdfIds] = ids;
    await benchPdfs(base, headers, [warm]); // warm-up (pdfmake, JIT), discarded
    const pdf = await benchPdfs(base, headers, pdfIds.slice(0, PDFS));
    const workerConcurrency = Number(env.PDF_CONCURRENCY ?? 4);
    console.log(`\nPDF generation: ${pdf.count} invoices, ${PDF_IN_FLIGHT} requests in flight, worker concurrency ${workerConcurrency}`);
    console.log(`  throughput   ${(pdf.count / pdf.seconds).toFixed(1)} invoices/s  (${pdf.seconds.toFixed(2)} s)`);
    console.log(
      `  request → downloadable  p50 ${percentile(pdf.latencies, 50).toFixed(0)} ms   p99 ${percentile(pdf.latencies, 99).toFixed(0)} ms   max ${pdf.latencies.at(-1).toFixed(0)} ms   failures ${pdf.failures}`,
    );

    // --- 2. the invoice list with 10,000 invoices ------------------------------------------------------------
    const listUrl = `${base}/api/dashboard/customer-invoices`;
    const probe = await fetch(listUrl, { headers });
    const page = await probe.json();
    console.log(`\nRequest: GET /api/dashboard/customer-invoices → ${probe.status}, ${page.length} rows of ${probe.headers.get('x-total-count')}`);
    await measure(listUrl, headers); // warm-up, discarded
    const rows = [];
    for (const [label, url] of [
      ['list (default page)', listUrl],
      ['status=overdue', `${listUrl}?status=overdue`],
      ['search=customer 99', `${listUrl}?search=customer%2099`],
    ]) {
      const cpuBefore = processCpuMs(proc.child.pid);
      const r = await measure(url, headers);
      const cpuAfter = processCpuMs(proc.child.pid);
      const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? `   billing CPU ${((cpuAfter - cpuBefore) / r.requests.total).toFixed(2)} ms/req` : '';
      rows.push([label, r]);
      console.log(
        `${label.padEnd(22)} ${r.requests.average.toFixed(0).padStart(6)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}   errors ${r.errors}${cpu}`,
      );
    }
    const [, list] = rows[0];
    const load = os.loadavg().map((l) => l.toFixed(1)).join(' ');
    console.log(`\n${CONNECTIONS} connections, ${DURATION} s each; budget p99 < 100 ms on the list (machine: ${os.cpus().length} CPUs, load average ${load})`);
    const within = list.latency.p99 < 100 && list.non2xx === 0 && list.errors === 0 && pdf.failures === 0;
    console.log(within ? 'within budget' : 'OVER BUDGET');
    if (!within) process.exitCode = 1;
  } finally {
    await stop(proc);
    await cleanupRedis(env).catch(() => undefined);
    await cleanupBroker(env).catch(() => undefined);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
