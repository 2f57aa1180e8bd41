#!/usr/bin/env node
// `npm run bench:notify`: 1,000 concurrent dashboard WebSockets connected through the gateway, 200 BookingCreated
// events published to RabbitMQ (as booking's outbox relay would), event-to-client latency p50/p95/p99 and the notify
// process's memory. Budget on this machine: p95 < 250 ms, no client missing a message, notify RSS < 300 MB.
//
//   BENCH_CLIENTS (1000)        WebSocket clients, all logged in as the first admin (admins receive every booking)
//   BENCH_EVENTS (200)          bookings published
//   BENCH_RATE (20)             bookings per second; 0 = all at once (a burst of 200 x 1,000 = 200,000 messages)
//   BENCH_CLIENT_THREADS (2)    worker threads holding the client sockets, so the load generator is not the bottleneck
//   BENCH_VIA (gateway)         gateway, or direct: straight to notify with a gateway-signed identity (no proxy hop)
//   BENCH_TIMEOUT_MS (60000)    how long to wait for every client to receive every event
//
// Latency = arrival in the client minus the moment the event was handed to the publisher (both clocks are this
// process's performance.timeOrigin + now(), shared by its threads).
import fs from 'node:fs';
import os from 'node:os';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import WebSocket from 'ws';
import { Redis } from 'ioredis';
import { BookingCreated, createEvent, createPublisher } from '@tyres/events';
import { signIdentity } from '@tyres/service-kit';
import { checkInfra, run, stackEnv, startServices, stopServices, waitForHealthy } from './lib/stack.mjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const THREADS = Math.max(1, Number(process.env.BENCH_CLIENT_THREADS ?? 2));
const VIA = process.env.BENCH_VIA ?? 'gateway';
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 60_000);
const CONNECT_CONCURRENCY = 50;
const PREFIX = 'bench-notify.';
const SUBURBS = [
  'Perth',
  'Fremantle',
  'Joondalup',
  'Mandurah',
  'Rockingham',
  'Armadale',
  'Midland',
  'Scarborough',
];
const SLOTS = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];

/** Wall-clock milliseconds with sub-millisecond precision, comparable between this process's threads. */
const now = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------------------------
// Client threads: open their share of the sockets, note when each new_booking arrives, report on request.
// ---------------------------------------------------------------------------------------------------------------
if (!isMainThread) {
  const { url, headers, count } = workerData;
  const received = Array.from({ length: count }, () => new Map()); // per socket: jobId -> arrival time
  const sockets = [];
  let duplicates = 0;
  const ID = '"id":"';

  const open = (seen) =>
    new Promise((resolve, reject) => {
      // The clients only measure: no UTF-8 validation, no compression, no full JSON parse of each message.
      const ws = new WebSocket(url, {
        headers: headers.shift(),
        perMessageDeflate: false,
        skipUTF8Validation: true,
      });
      const timer = setTimeout(() => reject(new Error('connect timeout')), 30_000);
      ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.on('error', reject);
      ws.on('message', (data) => {
        const at = now();
        const text = data.toString('latin1');
        if (text.startsWith('{"type":"new_booking"')) {
          const start = text.indexOf(ID) + ID.length;
          const id = text.slice(start, start + 36);
          if (seen.has(id)) duplicates += 1;
          else seen.set(id, at);
        } else if (text.startsWith('{"type":"connected"')) {
          clearTimeout(timer);
          resolve(ws);
        }
      });
    });

  parentPort.on('message', async (msg) => {
    if (msg.cmd === 'connect') {
      try {
        for (let i = 0; i < count; i += CONNECT_CONCURRENCY) {
          const batch = [];
          for (let j = i; j < Math.min(count, i + CONNECT_CONCURRENCY); j++) batch.push(open(received[j]));
          sockets.push(...(await Promise.all(batch)));
        }
        parentPort.postMessage({ cmd: 'connected' });
      } catch (err) {
        parentPort.postMessage({ cmd: 'error', message: err.message });
      }
    } else if (msg.cmd === 'reset') {
      for (const seen of received) seen.clear();
      duplicates = 0;
      parentPort.postMessage({ cmd: 'reset' });
    } else if (msg.cmd === 'count') {
      parentPort.postMessage({ cmd: 'count', total: received.reduce((n, seen) => n + seen.size, 0) });
    } else if (msg.cmd === 'report') {
      const published = msg.published; // [jobId, publishedAt][]
      const latencies = [];
      let missingClients = 0;
      let missingMessages = 0;
      for (const seen of received) {
        let missing = 0;
        for (const [jobId, sentAt] of published) {
          const at = seen.get(jobId);
          if (at === undefined) missing += 1;
          else latencies.push(at - sentAt);
        }
        if (missing) missingClients += 1;
        missingMessages += missing;
      }
      parentPort.postMessage({ cmd: 'report', latencies, missingClients, missingMessages, duplicates });
    } else if (msg.cmd === 'close') {
      for (const ws of sockets) ws.terminate();
      parentPort.postMessage({ cmd: 'closed' });
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Main thread.
// ---------------------------------------------------------------------------------------------------------------

/** Resident set size (current and peak) of a process, from /proc (Linux). */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/** CPU time (user + system, ms) a process has used, from /proc/<pid>/stat (clock ticks of 10 ms). */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const mb = (n) => `${n.toFixed(1)} MB`;
const ms = (n) => `${n.toFixed(1)} ms`;
const sleep = (t) => new Promise((r) => setTimeout(r, t));

async function clearRedisPrefix(url, prefix) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== '0');
  await redis.quit();
}

function booking(i) {
  return {
    jobId: randomUUID(),
    jobNumber: `BENCH-${String(i).padStart(5, '0')}-${randomUUID().slice(0, 6)}`,
    customerId: randomUUID(),
    vehicleId: randomUUID(),
    serviceType: i % 3 === 0 ? 'puncture-repair' : 'new-tyres',
    scheduledDate: '2026-12-01',
    timeSlot: SLOTS[i % SLOTS.length],
    address: `${i + 1} Bench Street`,
    suburb: SUBURBS[i % SUBURBS.length],
    postcode: '6000',
    tyreSize: i % 3 === 0 ? null : '205/55R16',
    tyreQuantity: i % 3 === 0 ? null : 4,
    tyreBrand: null,
    notes: null,
    customerValue: i % 3 === 0 ? '129.80' : '705.80',
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    channel: 'online',
    customer: { name: `Bench Customer ${i}`, email: `bench${i}@example.com`, phone: '0412 345 678' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2019, registration: `B${i}` },
    createdAt: new Date().toISOString(),
  };
}

/** A client thread and a promise-based way to talk to it. */
function clientThread(data) {
  const worker = new Worker(new URL(import.meta.url), { workerData: data });
  const waiting = new Map();
  worker.on('message', (msg) => {
    if (msg.cmd === 'error') {
      for (const resolve of waiting.values()) resolve(Promise.reject(new Error(msg.message)));
      waiting.clear();
      return;
    }
    const reply = msg.cmd === 'connected' ? 'connect' : msg.cmd === 'closed' ? 'close' : msg.cmd;
    waiting.get(reply)?.(msg);
    waiting.delete(reply);
  });
  return {
    ask: (cmd, extra = {}) =>
      new Promise((resolve) => {
        waiting.set(cmd, resolve);
        worker.postMessage({ cmd, ...extra });
      }),
    terminate: () => worker.terminate(),
  };
}

async function main() {
  const env = stackEnv(process.env, {
    // Own database and ports, so it can run beside the other benchmarks (bench:gateway uses 18080 / +10000).
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/tyres_bench_notify',
    EVENT_PREFIX: PREFIX,
    REDIS_PREFIX: PREFIX,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    GATEWAY_PORT: Number(process.env.BENCH_GATEWAY_PORT ?? 18585),
    PORT_OFFSET: Number(process.env.BENCH_PORT_OFFSET ?? 10580),
  });
  if (!(await checkInfra(env))) process.exit(1);
  await run('npm', ['run', 'prisma:generate'], { env });
  await run('npx', ['tsc', '-b', 'services/gateway', 'services/notify'], { env });
  await run(process.execPath, ['scripts/db-migrate.mjs', 'deploy', 'gateway', 'notify'], { env });
  await clearRedisPrefix(env.REDIS_URL, PREFIX);

  const procs = startServices(env, { quiet: true, only: ['notify', 'gateway'] });
  const publisher = createPublisher({ url: env.AMQP_URL, name: 'bench-notify-publisher', prefix: PREFIX });
  const threads = [];
  let sampler;
  try {
    await waitForHealthy(procs);
    const notify = procs.find((p) => p.name === 'notify');
    const gateway = procs.find((p) => p.name === 'gateway');
    const base = `http://127.0.0.1:${gateway.port}`;

    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: env.ADMIN_USERNAME, password: env.ADMIN_PASSWORD }),
    });
    if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`);
    const cookie = login.headers.get('set-cookie').split(';')[0];
    const me = await (await fetch(`${base}/api/user`, { headers: { Cookie: cookie } })).json();

    const idle = memoryOf(notify.child.pid);
    const samples = { notify: [], gateway: [] };
    sampler = setInterval(() => {
      samples.notify.push(memoryOf(notify.child.pid).rss);
      samples.gateway.push(memoryOf(gateway.child.pid).rss);
    }, 100);

    // --- connect ---------------------------------------------------------------------------------------------
    const direct = VIA === 'direct';
    const url = `ws://127.0.0.1:${direct ? notify.port : gateway.port}/ws/notifications`;
    const privateKey = createPrivateKey(env.INTERNAL_JWT_PRIVATE_KEY);
    // Direct: what the gateway would forward (a fresh 60-second identity per socket); otherwise the session cookie.
    const headersFor = () =>
      direct
        ? {
            'x-identity-token': signIdentity(privateKey, { id: me.id, username: me.username, role: me.role }),
          }
        : { Cookie: cookie };
    for (let t = 0; t < THREADS; t++) {
      const count = Math.floor(CLIENTS / THREADS) + (t < CLIENTS % THREADS ? 1 : 0);
      threads.push(clientThread({ url, count, headers: Array.from({ length: count }, headersFor) }));
    }
    const connectStarted = now();
    await Promise.all(threads.map((t) => t.ask('connect')));
    const connectMs = now() - connectStarted;
    await sleep(1000);
    const connectedMem = memoryOf(notify.child.pid);
    console.log(
      `\n${CLIENTS} clients (${THREADS} threads) connected ${direct ? 'DIRECTLY to notify (no gateway)' : 'through the gateway'} in ${ms(connectMs)}`,
    );

    // --- publish ---------------------------------------------------------------------------------------------
    await publisher.publish(
      createEvent(BookingCreated, booking(EVENTS), { source: 'bench', correlationId: 'bench-warmup' }),
    );
    await sleep(1000); // warm-up event (JIT), not measured
    await Promise.all(threads.map((t) => t.ask('reset')));

    const cpuBefore = {
      notify: cpuMsOf(notify.child.pid),
      gateway: cpuMsOf(gateway.child.pid),
      bench: process.cpuUsage(),
    };
    const events = Array.from({ length: EVENTS }, (_, i) =>
      createEvent(BookingCreated, booking(i), { source: 'bench', correlationId: `bench-${i}` }),
    );
    const published = [];
    const publishStarted = now();
    const confirms = [];
    for (let i = 0; i < events.length; i++) {
      if (RATE > 0) {
        const wait = publishStarted + (i * 1000) / RATE - now();
        if (wait > 0) await sleep(wait);
      }
      published.push([events[i].data.jobId, now()]);
      confirms.push(publisher.publish(events[i]));
    }
    await Promise.all(confirms);
    const publishMs = now() - publishStarted;

    const expected = CLIENTS * EVENTS;
    const deadline = Date.now() + TIMEOUT_MS;
    const total = async () =>
      (await Promise.all(threads.map((t) => t.ask('count')))).reduce((n, r) => n + r.total, 0);
    while ((await total()) < expected && Date.now() < deadline) await sleep(50);
    const deliveredAllMs = now() - publishStarted;
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const cpu = {
      notify: cpuMsOf(notify.child.pid) - cpuBefore.notify,
      gateway: cpuMsOf(gateway.child.pid) - cpuBefore.gateway,
      bench: (benchCpu.user + benchCpu.system) / 1000,
    };
    await sleep(1000); // late duplicates would show up here
    clearInterval(sampler);
    const after = memoryOf(notify.child.pid);

    // --- results ---------------------------------------------------------------------------------------------
    const reports = await Promise.all(threads.map((t) => t.ask('report', { published })));
    const latencies = reports.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const missingClients = reports.reduce((n, r) => n + r.missingClients, 0);
    const missingMessages = reports.reduce((n, r) => n + r.missingMessages, 0);
    const duplicates = reports.reduce((n, r) => n + r.duplicates, 0);
    const p50 = percentile(latencies, 50);
    const p95 = percentile(latencies, 95);
    const p99 = percentile(latencies, 99);
    const max = latencies[latencies.length - 1] ?? NaN;
    // The budget uses the highest of the sampled RSS and the kernel's high-water mark (VmHWM, lifetime peak).
    const notifyPeak = Math.max(...samples.notify.filter(Number.isFinite), after.rss, after.peak);
    const gatewayPeak = Math.max(...samples.gateway.filter(Number.isFinite));
    const [load1] = fs.readFileSync('/proc/loadavg', 'utf8').split(' ');

    console.log(
      `${EVENTS} BookingCreated events published ${RATE > 0 ? `at ${RATE}/s` : 'as one burst'} in ${ms(publishMs)} (publisher confirms)`,
    );
    console.log(
      `delivered ${latencies.length} of ${expected} notifications in ${ms(deliveredAllMs)}; duplicates ${duplicates}`,
    );
    console.log(
      `\nevent-to-client latency   p50 ${ms(p50)}   p95 ${ms(p95)}   p99 ${ms(p99)}   max ${ms(max)}`,
    );
    console.log(`clients missing a message ${missingClients} (messages missing ${missingMessages})`);
    console.log(
      `notify RSS                idle ${mb(idle.rss)}   ${CLIENTS} clients ${mb(connectedMem.rss)}   after ${mb(after.rss)}   peak ${mb(notifyPeak)} (incl. VmHWM)`,
    );
    console.log(`gateway RSS               peak during the run ${mb(gatewayPeak)} (for reference)`);
    console.log(
      `CPU while delivering      notify ${ms(cpu.notify)}   gateway ${ms(cpu.gateway)}   bench clients ${ms(cpu.bench)}   (notify ${((cpu.notify * 1000) / Math.max(1, latencies.length)).toFixed(1)} µs per notification)`,
    );
    console.log(
      `machine                   ${os.cpus().length} CPUs, load average ${load1} at the end of the run`,
    );

    const within = p95 < 250 && missingClients === 0 && duplicates === 0 && notifyPeak < 300;
    console.log(
      `\nbudget: p95 < 250 ms, no client missing a message, notify RSS < 300 MB -> ${within ? 'within budget' : 'OVER BUDGET'}`,
    );
    if (!within) process.exitCode = 1;
  } finally {
    clearInterval(sampler);
    await Promise.all(threads.map((t) => t.ask('close').catch(() => undefined)));
    await Promise.all(threads.map((t) => t.terminate()));
    await publisher.close().catch(() => undefined);
    await stopServices(procs);
    await clearRedisPrefix(env.REDIS_URL, PREFIX).catch(() => undefined);
  }
}

if (isMainThread) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
