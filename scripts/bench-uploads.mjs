#!/usr/bin/env node
// `npm run bench:uploads`: photo uploads through the gateway into booking, on a local stack of its own (issue 14).
//
//   1. BENCH_UPLOADS (default 20) concurrent maximum-size uploads: 5 photos of 5 MB each, one booking each
//      (every upload is accepted: 201 expected)
//   2. the same number of concurrent 20 MB uploads (one oversized file each): 400 "File too large" expected
// Prints booking's resident memory before, its peak (VmHWM from /proc, the kernel's own high-water mark, plus the
// highest VmRSS sampled every 20 ms) and after, the statuses and the times. Budget: peak RSS < 300 MB and no 5xx
// (nor connection errors) in either round. Runs on its own database (BENCH_DATABASE_URL, default
// .../tyres_bench_uploads, dropped and recreated each run), its own event prefix and its own ports.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { checkInfra, run, stackEnv, startServices, stopServices, waitForHealthy } from './lib/stack.mjs';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/tyres_bench_uploads';
const RSS_BUDGET_MB = 300;
const MB = 1024 * 1024;
const PHOTO_BYTES = 5 * MB; // the spec's largest photo
const PHOTOS = 5; // the spec's most photos per booking (a known tyre size)
const OVERSIZED_BYTES = 20 * MB;
const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];

/** Business days in Perth from tomorrow: within the booking horizon, never "today". */
function* businessDays() {
  const perthNow = new Date(Date.now() + 8 * 3600_000);
  for (let i = 1; ; i++) {
    const d = new Date(perthNow.getTime() + i * 86_400_000);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) yield d.toISOString().slice(0, 10);
  }
}
function* slotPairs() {
  for (const date of businessDays()) for (const slot of SLOTS) yield { date, slot };
}

function bookingBody({ date, slot }, n) {
  return JSON.stringify({
    customer: { name: `Upload Bench ${n}`, email: `upload.bench.${n}@example.com`, phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Hilux', year: 2019, registration: `UPB${n}` },
    job: {
      serviceType: 'new-tyres',
      scheduledDate: date,
      timeSlot: slot,
      address: `${n} Bench Street`,
      suburb: 'Mandurah',
      postcode: '6210',
      tyreSize: '205/55R16',
      tyreQuantity: 4,
      paymentMethod: 'onsite',
    },
  });
}

/** A jpeg-looking file (the magic bytes booking checks, then filler that does not compress). */
function jpeg(size, seed) {
  const data = Buffer.alloc(size);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i + 4 <= size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data.writeUInt32LE(x >>> 0, i);
  }
  data.set([0xff, 0xd8, 0xff, 0xe0], 0);
  return data;
}

function multipart(files) {
  const boundary = '----benchUploads7MA4YWxkTrZu0gW';
  const parts = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ntyre-condition\r\n`),
  ];
  files.forEach((data, i) =>
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="tyre-${i + 1}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    ),
  );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** One upload, the body written in 64 KiB pieces as a browser streams it; resolves with status and time. */
function upload(base, jobId, { body, contentType }) {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (out) => resolve({ ...out, ms: performance.now() - started });
    const req = http.request({
      hostname: url.hostname,
      port: url.port,
      method: 'POST',
      path: `/api/bookings/${jobId}/photos`,
      agent: false,
      headers: { 'content-type': contentType, 'content-length': String(body.length) },
    });
    req.on('error', (err) => done({ status: `error ${err.code ?? err.message}` }));
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
    let at = 0;
    const pump = () => {
      while (at < body.length) {
        const next = body.subarray(at, at + 64 * 1024);
        at += next.length;
        if (!req.write(next)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** VmRSS and VmHWM (kB) of a process. */
function memoryOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Samples a process's RSS every 20 ms until stopped; returns the highest seen (kB). */
function sampleRss(pid) {
  let max = 0;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, memoryOf(pid).rss);
    } catch {
      // the process is gone
    }
  }, 20);
  return () => {
    clearInterval(timer);
    return max;
  };
}

/** Polls booking's /metrics (straight to the service) for its V8 heap and external (Buffer) memory; returns maxima. */
function sampleHeap(url) {
  const max = { heapTotal: 0, heapUsed: 0, external: 0 };
  const read = (text, name) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const text = await (await fetch(`${url}/metrics`)).text();
        max.heapTotal = Math.max(max.heapTotal, read(text, 'nodejs_heap_size_total_bytes'));
        max.heapUsed = Math.max(max.heapUsed, read(text, 'nodejs_heap_size_used_bytes'));
        max.external = Math.max(max.external, read(text, 'nodejs_external_memory_bytes'));
      } catch {
        // busy or gone: next time
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return max;
  };
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

const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const tally = (results) =>
  Object.entries(
    results.reduce((acc, r) => {
      acc[r.status] = (acc[r.status] ?? 0) + 1;
      return acc;
    }, {}),
  )
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');
const times = (results) => {
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const at = (q) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))];
  return `p50 ${at(0.5).toFixed(0)} ms, max ${ms[ms.length - 1].toFixed(0)} ms`;
};

async function main() {
  const env = stackEnv(process.env, {
    DATABASE_URL,
    EVENT_PREFIX: 'bench-uploads.',
    REDIS_PREFIX: 'bench-uploads:',
    // One address books and uploads far past what a customer does; the gateway's public limits are not measured here.
    PUBLIC_LIMIT_BOOKINGS_PER_HOUR: '1000000',
    PUBLIC_LIMIT_PHOTO_UPLOADS_PER_HOUR: '1000000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GATEWAY_PORT: Number(process.env.BENCH_GATEWAY_PORT ?? 18380),
    PORT_OFFSET: Number(process.env.BENCH_PORT_OFFSET ?? 10300),
  });
  if (!(await checkInfra(env))) process.exit(1);
  const only = ['booking', 'gateway'];
  await run('npm', ['run', 'prisma:generate'], { env });
  await run('npx', ['tsc', '-b', ...only.map((s) => `services/${s}`)], { env });
  await resetDatabase(DATABASE_URL);
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy', ...only], { env });

  const procs = startServices(env, { quiet: true, only });
  try {
    await waitForHealthy(procs);
    const base = `http://127.0.0.1:${procs.find((p) => p.name === 'gateway').port}`;
    const bookingProc = procs.find((p) => p.name === 'booking');
    const bookingPid = bookingProc.child.pid;

    const pairs = slotPairs();
    const book = async (n) => {
      const res = await fetch(`${base}/api/bookings`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: bookingBody(pairs.next().value, n),
      });
      if (res.status !== 201) throw new Error(`booking failed: ${res.status} ${await res.text()}`);
      return (await res.json()).jobId;
    };
    const jobs = [];
    // One booking per upload (each takes at most 5 photos), and one for the warm-up.
    for (let n = 1; n <= UPLOADS * 2 + 1; n++) jobs.push(await book(n));

    const maxUpload = multipart(Array.from({ length: PHOTOS }, (_, i) => jpeg(PHOTO_BYTES, i + 1)));
    const oversized = multipart([jpeg(OVERSIZED_BYTES, 99)]);
    // Warm-up: one small upload, so the first measured request does not pay for lazy initialisation.
    const warm = await upload(base, jobs[UPLOADS * 2], multipart([jpeg(100_000, 42)]));
    if (warm.status !== 201) throw new Error(`warm-up upload failed: ${warm.status} ${warm.text}`);
    await new Promise((r) => setTimeout(r, 1000));

    const before = memoryOf(bookingPid);
    const stopSampling = sampleRss(bookingPid);
    const stopHeap = sampleHeap(`http://127.0.0.1:${bookingProc.port}`);
    let started = performance.now();
    const accepted = await Promise.all(jobs.slice(0, UPLOADS).map((jobId) => upload(base, jobId, maxUpload)));
    const acceptedSecs = (performance.now() - started) / 1000;
    started = performance.now();
    const refused = await Promise.all(
      jobs.slice(UPLOADS, UPLOADS * 2).map((jobId) => upload(base, jobId, oversized)),
    );
    const refusedSecs = (performance.now() - started) / 1000;
    const sampledPeak = stopSampling();
    const heap = await stopHeap();
    await new Promise((r) => setTimeout(r, 2000));
    const after = memoryOf(bookingPid);

    const [stored] = await query(
      DATABASE_URL,
      `SELECT count(*)::int AS photos, coalesce(sum(size), 0)::bigint AS bytes,
              (SELECT count(*)::int FROM booking.photo_uploads) AS unfinished
         FROM booking.job_photos`,
    );
    const peak = Math.max(after.hwm, sampledPeak);
    const all = [...accepted, ...refused];
    const fiveXX = all.filter((r) => typeof r.status !== 'number' || r.status >= 500).length;
    const wrong =
      accepted.filter((r) => r.status !== 201).length +
      refused.filter((r) => r.status !== 400 || !r.text.includes('File too large')).length;
    const uploadMb = (maxUpload.body.length / MB).toFixed(1);

    console.log(`\nthrough the gateway (${base}), booking pid ${bookingPid}`);
    console.log(
      `${UPLOADS} concurrent maximum uploads (${PHOTOS} × 5 MB, ${uploadMb} MB each): ${tally(accepted)} in ${acceptedSecs.toFixed(1)} s ` +
        `(${((UPLOADS * maxUpload.body.length) / MB / acceptedSecs).toFixed(0)} MB/s; per upload ${times(accepted)})`,
    );
    console.log(
      `${UPLOADS} concurrent oversized uploads (one 20 MB file each): ${tally(refused)} in ${refusedSecs.toFixed(1)} s (per upload ${times(refused)})`,
    );
    console.log(
      `stored: ${stored.photos} photos, ${(Number(stored.bytes) / MB).toFixed(0)} MB (expected ${UPLOADS * PHOTOS + 1} photos); unfinished uploads left: ${stored.unfinished}`,
    );
    console.log(
      `booking RSS: ${mb(before.rss)} before, peak ${mb(peak)} (VmHWM ${mb(after.hwm)}, highest sample ${mb(sampledPeak)}), ${mb(after.rss)} after`,
    );
    console.log(
      `booking V8 (sampled every 250 ms, info): heap used up to ${mb(heap.heapUsed / 1024)} of ${mb(heap.heapTotal / 1024)}, external (Buffers) up to ${mb(heap.external / 1024)}`,
    );
    const within = peak < RSS_BUDGET_MB * 1024 && fiveXX === 0;
    console.log(
      `budget: peak RSS ${mb(peak)} (< ${RSS_BUDGET_MB} MB), ${fiveXX} × 5xx or connection error (0)${wrong ? `; ${wrong} unexpected answers` : ''}`,
    );
    console.log(
      within && wrong === 0 && stored.photos === UPLOADS * PHOTOS + 1 ? 'within budget' : 'OVER BUDGET',
    );
    console.log(
      `machine: ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} at the end of the run`,
    );
    process.exitCode = within && wrong === 0 ? 0 : 1;
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
