/**
 * Issue 17 item 4: one public booking is one trace, from the browser's `traceparent` through the gateway, booking
 * (its request and the outbox row), RabbitMQ, the jobs and notify consumers, notify's email job (BullMQ) and the
 * dashboard WebSocket push.
 *
 * The whole stack runs from source (tracing-stack.mjs) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a small
 * OTLP/HTTP receiver in this test (the exporter's JSON encoding), so what is checked is what a collector would get.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '..', '..');

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
  links?: { traceId: string; spanId: string }[];
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: OtlpValue }[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

/** One received span, flattened: the service it came from (resource service.name) and its scope. */
interface Received {
  service: string;
  scope: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer' | 'unspecified';
  attributes: Record<string, string | number | boolean>;
}

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;

function valueOf(v: OtlpValue): string | number | boolean {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.boolValue !== undefined) return v.boolValue;
  return v.doubleValue ?? '';
}

/** An OTLP/HTTP trace receiver (JSON), keeping every span it is sent. */
async function startReceiver() {
  const spans: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const rs of body.resourceSpans ?? []) {
        const service = String(
          valueOf(rs.resource?.attributes?.find((a) => a.key === 'service.name')?.value ?? {}),
        );
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              service,
              scope: ss.scope?.name ?? '',
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId ?? '',
              name: s.name,
              kind: KINDS[s.kind] ?? 'unspecified',
              attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
            });
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { spans, port: (server.address() as AddressInfo).port, close: () => server.close() };
}

interface Stack {
  child: ChildProcess;
  gateway: string;
  username: string;
  password: string;
}

function startStack(otlpPort: number): Promise<Stack> {
  const child = spawn(process.execPath, [path.join(ROOT, 'test', 'integration', 'tracing-stack.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve({ child, ...(JSON.parse(line) as Omit<Stack, 'child'>) });
    });
    child.once('exit', (code) => reject(new Error(`the tracing stack exited (${code}) before it was ready`)));
  });
}

function perthDate(offsetDays: number): string {
  const now = new Date(Date.now() + 8 * 3600_000);
  now.setUTCDate(now.getUTCDate() + offsetDays);
  return now.toISOString().slice(0, 10);
}

async function freeSlot(base: string): Promise<{ date: string; slot: string }> {
  for (let offset = 1; offset <= 30; offset++) {
    const date = perthDate(offset);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const res = await fetch(`${base}/api/time-slots?date=${date}`);
    const slots = (await res.json()) as { slot: string; isAvailable: boolean }[];
    const free = slots.find((s) => s.isAvailable);
    if (free) return { date, slot: free.slot };
  }
  throw new Error('no free slot in the next 30 days');
}

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let stack: Stack | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startStack(receiver.port);
});

afterAll(async () => {
  if (stack && stack.child.exitCode === null) {
    const exited = new Promise((resolve) => stack!.child.once('exit', resolve));
    stack.child.kill('SIGTERM');
    await exited;
  }
  receiver?.close();
});

test('one public booking is one trace: gateway, booking, outbox, jobs and notify consumers, the email job, the dashboard push', async () => {
  const base = stack!.gateway;

  // An admin's dashboard is connected (the push has someone to reach).
  const login = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: stack!.username, password: stack!.password }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/notifications`, { headers: { Cookie: cookie } });
  const messages: { type: string; data: Record<string, unknown> }[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data)) as (typeof messages)[number]));
  await until('dashboard connected', () => messages.find((m) => m.type === 'connected'));

  // The booking, sent with the browser's trace context (frontends/platform/src/api.ts makes one per call).
  const traceId = randomBytes(16).toString('hex');
  const browserSpanId = randomBytes(8).toString('hex');
  const { date, slot } = await freeSlot(base);
  const booked = await fetch(`${base}/api/bookings`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', traceparent: `00-${traceId}-${browserSpanId}-01` },
    body: JSON.stringify({
      customer: { name: 'Trace Customer', email: 'trace@example.com', phone: '0400 000 001' },
      vehicle: { make: 'Mazda', model: '3', year: 2019, registration: 'TRACE1' },
      job: {
        serviceType: 'puncture-repair',
        scheduledDate: date,
        timeSlot: slot,
        address: '1 Trace Street',
        suburb: 'Fremantle',
        postcode: '6160',
        paymentMethod: 'onsite',
      },
    }),
  });
  expect(booked.status).toBe(201);
  await until('new_booking pushed to the dashboard', () => messages.find((m) => m.type === 'new_booking'));
  ws.close();

  const inTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
  const find = (service: string, test: (s: Received) => boolean) =>
    inTrace().find((s) => s.service === service && test(s));
  const byId = (id: string) => inTrace().find((s) => s.spanId === id);
  /** True when `ancestor` is on the parent chain of `span`. */
  const descends = (span: Received, ancestor: Received) => {
    for (let s: Received | undefined = span; s; s = byId(s.parentSpanId))
      if (s.spanId === ancestor.spanId) return true;
    return false;
  };

  // The gateway continues the browser's trace: its span's parent is the browser's span (never a new trace).
  const gateway = await until('gateway span', () =>
    find('gateway', (s) => s.kind === 'server' && s.parentSpanId === browserSpanId),
  );
  expect(gateway.attributes['tyres.upstream']).toBe('booking');

  // booking's request is the gateway's child; the event is published from the outbox row in the same trace.
  const bookingRequest = await until('booking request span', () =>
    find('booking', (s) => s.kind === 'server' && s.parentSpanId === gateway.spanId),
  );
  expect(bookingRequest.name).toBe('POST /api/bookings');
  const publish = await until('booking.created publish span', () =>
    find('booking', (s) => s.kind === 'producer' && s.name === 'booking.created.v1 publish'),
  );
  expect(publish.parentSpanId).toBe(bookingRequest.spanId);

  // Each consumer continues the message's trace context (RabbitMQ headers).
  const jobsConsumer = await until('jobs consumer span', () =>
    find('jobs', (s) => s.kind === 'consumer' && s.name === 'booking.created.v1 process'),
  );
  expect(jobsConsumer.parentSpanId).toBe(publish.spanId);
  const notifyConsumer = await until('notify consumer span', () =>
    find('notify', (s) => s.kind === 'consumer' && s.name === 'booking.created.v1 process'),
  );
  expect(notifyConsumer.parentSpanId).toBe(publish.spanId);

  // The confirmation email is a BullMQ job, added by whichever of notify's two consumers completes the confirmation
  // (BookingCreated, or booking's manage-link message from the same request: the email carries the link), under
  // that consumer's span, and processed in a span continuing it.
  // (Spans arrive in the exporters' batches, in any order: each is awaited together with its link to the parent.)
  const notifyConsumers = () =>
    inTrace().filter((s) => s.service === 'notify' && s.kind === 'consumer' && s.name.endsWith(' process'));
  const jobAdded = await until('email job producer span under a notify consumer', () =>
    find(
      'notify',
      (s) =>
        s.kind === 'producer' &&
        s.scope === 'notify-queues' &&
        /^add email\./.test(s.name) &&
        notifyConsumers().some((c) => descends(s, c)),
    ),
  );
  const completedBy = notifyConsumers().find((c) => descends(jobAdded, c));
  expect(completedBy?.name).toMatch(/^(booking\.created|email\.requested)\.v1 process$/);
  const jobProcessed = await until('email job worker span continuing it', () =>
    find('notify', (s) => s.kind === 'consumer' && s.scope === 'notify-queues' && descends(s, jobAdded)),
  );
  expect(jobProcessed.name).toBe('process email');

  // The live feed's span and the push to the connected dashboard.
  const live = await until('live feed span', () =>
    find('notify', (s) => s.kind === 'consumer' && s.name === 'booking.created.v1 live'),
  );
  expect(live.parentSpanId).toBe(publish.spanId);
  const push = await until('dashboard push span', () =>
    find('notify', (s) => s.name === 'dashboard push' && s.parentSpanId === live.spanId),
  );
  expect(push.attributes['tyres.push.message_type']).toBe('new_booking');
  expect(push.attributes['tyres.push.sockets']).toBeGreaterThanOrEqual(1);

  // One trace, one tree: every span of it hangs from the browser's span.
  const spans = inTrace();
  for (const s of spans)
    expect({ span: s.name, connected: s.parentSpanId === browserSpanId || !!byId(s.parentSpanId) }).toEqual({
      span: s.name,
      connected: true,
    });
  const services = new Set(spans.map((s) => s.service));
  for (const service of ['gateway', 'booking', 'jobs', 'notify']) expect(services).toContain(service);
});
