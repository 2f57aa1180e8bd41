import { randomUUID } from 'node:crypto';
import pino from 'pino';
import WebSocket from 'ws';
import {
  createRabbitAdmin,
  deleteRedisKeysByPrefix,
  getAmqpUrl,
  getRedisUrl,
  uniquePrefix,
  waitFor,
  type TestDatabase,
} from '@tyres/testkit';
import { migratedServiceDatabase } from '@tyres/testkit';
import { createEvent, createPublisher, type AnyContract, type EventOf, type Publisher } from '@tyres/events';
import { signIdentity, type Identity } from '@tyres/service-kit';
import { perthDate, perthInstant } from '@tyres/kernel';
import {
  Client,
  keyPair,
  startTestGateway as startGatewayUnderTest,
} from '../../../gateway/test/integration/harness';
import { loadServiceConfig, type Config } from '../../src/config';
import { startNotify, type NotifyOptions, type NotifyService } from '../../src/service';

export { Client };

/**
 * A clock showing `clock` Perth time on `date` (default today) when called now, then running at real speed: what
 * notify plans by (quiet hours, reminders) in tests.
 */
export function perthClockAt(clock: string, date: string = perthDate()): () => Date {
  const offset = perthInstant(date, clock).getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}

const silent = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A fresh database per suite, copied from a template migrated with `node scripts/db-migrate.mjs deploy <service>`. */
export function migratedDatabase(service: 'notify' | 'gateway', label: string): Promise<TestDatabase> {
  return migratedServiceDatabase(service, label);
}

export interface GatewayUnderTest {
  baseUrl: string;
  port: number;
  adminPassword: string;
  stop(): Promise<void>;
}

/**
 * A real gateway (services/gateway's own test harness) in front of one notify replica, with its own database and
 * prefixes, signing identities with this stack's key; its other upstreams are the gateway harness's stand-in.
 */
export async function startTestGateway(
  label: string,
  notifyUrl: string,
  privateKey: string,
): Promise<GatewayUnderTest> {
  return startGatewayUnderTest(
    label,
    { INTERNAL_JWT_PRIVATE_KEY: privateKey, NOTIFY_URL: notifyUrl, LOG_LEVEL: 'silent' },
    silent,
  );
}

/** The settings that point notify's Twilio transport at a fakeTwilio(). */
export const twilioEnv = (apiBase: string): Record<string, string> => ({
  TWILIO_ACCOUNT_SID: TWILIO_TEST_SID,
  TWILIO_AUTH_TOKEN: 'f'.repeat(32),
  TWILIO_FROM_NUMBER: '+61400000000',
  TWILIO_API_BASE: apiBase,
});

/** A well-formed Twilio account SID (AC + 32 hex digits) for the fake. */
export const TWILIO_TEST_SID = `AC${'0123456789abcdef'.repeat(2)}`;

export interface NotifyInstance {
  service: NotifyService;
  config: Config;
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** notify replicas, each behind its own gateway (default 1). */
  replicas?: number;
  env?: Record<string, string>;
  options?: NotifyOptions;
}

export interface Stack {
  prefix: string;
  db: TestDatabase;
  keys: ReturnType<typeof keyPair>;
  notify: NotifyInstance[];
  gateways: GatewayUnderTest[];
  publisher: Publisher;
  /** Publishes an event as its producer's outbox relay would; returns the envelope (publish it again for a duplicate). */
  publish<C extends AnyContract>(contract: C, data: EventOf<C>['data']): Promise<EventOf<C>>;
  republish(envelope: EventOf<AnyContract>): Promise<void>;
  /** A logged-in admin (the gateway's first admin) on gateway `i`. */
  admin(i?: number): Promise<Client>;
  /** A new technician account, logged in on gateway `i`. */
  technician(username: string, i?: number): Promise<{ client: Client; id: string }>;
  /** Signs an identity as the gateway would (for direct connections to a replica). */
  identityToken(identity: Identity): string;
  stop(): Promise<void>;
}

export async function startNotifyInstance(
  base: { databaseUrl: string; prefix: string; publicKey: string },
  env: Record<string, string> = {},
  options: NotifyOptions = {},
): Promise<NotifyInstance> {
  const config = loadServiceConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: base.databaseUrl,
    AMQP_URL: await getAmqpUrl(),
    REDIS_URL: await getRedisUrl(),
    EVENT_PREFIX: base.prefix,
    REDIS_PREFIX: base.prefix,
    INTERNAL_JWT_PUBLIC_KEY: base.publicKey,
    LOG_LEVEL: 'silent',
    SMS_BACKOFF_MS: '200',
    EMAIL_BACKOFF_MS: '200',
    SHUTDOWN_TIMEOUT_MS: '5000',
    // Suites that publish a BookingCreated without booking's manage-link message get their confirmation soon
    // (the confirmation suite sets a long wait to see the link folded in).
    CONFIRMATION_LINK_WAIT_MS: '300',
    ...env,
  });
  // Pinned to the middle of a Perth day unless a test says otherwise: quiet hours would otherwise hold every
  // message of a suite that happens to run between 8 pm and 8 am Perth.
  const service = await startNotify(config, silent, { now: perthClockAt('12:00'), ...options });
  const port = service.runtime.server.port;
  const url = `http://127.0.0.1:${port}`;
  // Ready = database, Redis, the durable consumer and the live feed are up (their bindings exist).
  await waitFor(
    async () => {
      // Fully ready: broker connected and the live feed bound, not just serving (degraded readiness is 200 too).
      const res = await fetch(`${url}/readyz`).catch(() => undefined);
      return res?.ok && ((await res.json()) as { status?: string }).status === 'ready';
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
  return { service, config, url, port, stop: () => service.runtime.shutdown('test done') };
}

/** notify replica(s) on one database and one event/Redis prefix, each behind a real gateway, plus a publisher. */
export async function startStack(label: string, options: StackOptions = {}): Promise<Stack> {
  const db = await migratedDatabase('notify', label);
  const prefix = uniquePrefix(label);
  const keys = keyPair();
  const notify: NotifyInstance[] = [];
  const gateways: GatewayUnderTest[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    const instance = await startNotifyInstance(
      { databaseUrl: db.url, prefix, publicKey: keys.publicKey },
      options.env,
      options.options,
    );
    notify.push(instance);
    gateways.push(await startTestGateway(`${label}-gw${i}`, instance.url, keys.privateKey));
  }
  const publisher = createPublisher({ url: await getAmqpUrl(), name: `${label}-test-publisher`, prefix });

  const admins = new Map<number, Client>();
  const stack: Stack = {
    prefix,
    db,
    keys,
    notify,
    gateways,
    publisher,
    async publish(contract, data) {
      const envelope = createEvent(contract, data as never, {
        source: 'test',
        correlationId: `test-${randomUUID()}`,
      });
      await publisher.publish(envelope);
      return envelope as never;
    },
    async republish(envelope) {
      await publisher.publish(envelope);
    },
    async admin(i = 0) {
      const existing = admins.get(i);
      if (existing) return existing;
      const gw = gateways[i] as GatewayUnderTest;
      const client = new Client(gw.baseUrl);
      const res = await client.login('Boss', gw.adminPassword);
      if (res.status !== 200) throw new Error(`admin login failed: ${res.status} ${res.text}`);
      admins.set(i, client);
      return client;
    },
    async technician(username, i = 0) {
      const admin = await stack.admin(i);
      const password = 'spanner-and-jack-9';
      const created = await admin.request('POST', '/api/admin/users', {
        username,
        password,
        email: `${username}@example.com`,
        role: 'technician',
      });
      if (created.status !== 201 && created.status !== 200)
        throw new Error(`creating ${username} failed: ${created.status} ${created.text}`);
      const id = String(
        (created.body as { id?: string; user?: { id: string } }).id ??
          (created.body as { user?: { id: string } }).user?.id,
      );
      const client = new Client((gateways[i] as GatewayUnderTest).baseUrl);
      const login = await client.login(username, password);
      if (login.status !== 200) throw new Error(`technician login failed: ${login.status}`);
      return { client, id };
    },
    identityToken: (identity) => signIdentity(keys.privateKey, identity),
    async stop() {
      await publisher.close().catch(() => undefined);
      for (const n of notify) await n.stop().catch(() => undefined);
      for (const g of gateways) await g.stop().catch(() => undefined);
      await deleteRedisKeysByPrefix(prefix);
      const admin = await createRabbitAdmin();
      await admin
        .cleanup(prefix, {
          services: ['notify'],
          retryDelaysMs: notify[0]?.service.runtime.bus.retryPolicy.delaysMs ?? [],
        })
        .catch(() => undefined);
      await admin.close();
      await db.drop();
    },
  };
  return stack;
}

// --- WebSocket test client ---------------------------------------------------------------------------------------

export interface ServerMessage {
  type: string;
  data: Record<string, unknown>;
}

export class TestSocket {
  readonly messages: ServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as ServerMessage);
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) =>
      ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  of(type: string): ServerMessage[] {
    return this.messages.filter((m) => m.type === type);
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Resolves with the first message (received so far or later) matching `predicate`. */
  async next(predicate: (m: ServerMessage) => boolean, timeoutMs = 10_000, from = 0): Promise<ServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages.map((m) => m.type))}`,
        );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Sends and waits for the answer of the given type that arrives after it. */
  async request(message: unknown, answerType: string): Promise<ServerMessage> {
    const from = this.messages.length;
    this.send(message);
    return this.next((m) => m.type === answerType, 10_000, from);
  }

  close(): void {
    this.ws.close();
  }
}

/** Opens a socket; resolves once the server's `connected` message arrived, or rejects with the HTTP status. */
export function connect(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const socket = new TestSocket(ws);
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`upgrade refused: ${res.statusCode} ${body}`), {
            status: res.statusCode,
            body,
          }),
        ),
      );
    });
    ws.once('error', reject);
    socket.next((m) => m.type === 'connected').then(() => resolve(socket), reject);
  });
}

/** The status an upgrade attempt is answered with (101 if it opened). */
export async function upgradeStatus(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; messages: number }> {
  try {
    const socket = await connect(url, headers);
    const messages = socket.messages.length;
    socket.close();
    return { status: 101, messages };
  } catch (err) {
    return { status: (err as { status?: number }).status ?? 0, messages: 0 };
  }
}

export const wsUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/ws/notifications`;

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Decodes a quoted-printable MIME body (enough for nodemailer's output). */
export function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

// --- A stand-in for Twilio's REST API ----------------------------------------------------------------------------

export interface TwilioRequest {
  at: number;
  path: string;
  authorization: string | undefined;
  params: URLSearchParams;
}

export type TwilioReply = { status: number; body: Record<string, unknown> };

/**
 * Answers POST /2010-04-01/Accounts/{sid}/Messages.json like Twilio does. `script(to, n)` decides the reply to the
 * n-th request (1-based) for a number; the default is success.
 */
export async function fakeTwilio(
  script: (to: string, n: number) => TwilioReply | undefined = () => undefined,
) {
  const http = await import('node:http');
  const requests: TwilioRequest[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c));
    req.on('end', () => {
      const params = new URLSearchParams(body);
      requests.push({
        at: Date.now(),
        path: req.url ?? '',
        authorization: req.headers.authorization,
        params,
      });
      const to = params.get('To') ?? '';
      const n = (counts.get(to) ?? 0) + 1;
      counts.set(to, n);
      const reply = script(to, n) ?? {
        status: 201,
        body: {
          sid: `SM${randomUUID().replace(/-/g, '')}`,
          status: 'queued',
          to,
          from: params.get('From'),
          body: params.get('Body'),
        },
      };
      res.writeHead(reply.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    to: (number: string) => requests.filter((r) => r.params.get('To') === number),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const twilioError = (status: number, code: number, message: string): TwilioReply => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});
