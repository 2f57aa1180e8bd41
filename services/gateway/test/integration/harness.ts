import { identityKeyPair } from '@tyres/testkit';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import pino, { type Logger } from 'pino';
import {
  createRabbitAdmin,
  deleteRedisKeysByPrefix,
  getAmqpUrl,
  getRedisUrl,
  uniquePrefix,
  type TestDatabase,
} from '@tyres/testkit';
import { migratedServiceDatabase } from '@tyres/testkit';
import { verifyIdentity } from '@tyres/service-kit';
import { loadGatewayConfig } from '../../src/config';
import { startGateway } from '../../src/service';

export function migratedGatewayDatabase(label: string): Promise<TestDatabase> {
  return migratedServiceDatabase('gateway', label);
}

/** The gateway's ES256 key pair, one per suite. */
export const keyPair = identityKeyPair;

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  identity?: { id: string; username: string; role: string };
}

/** A stand-in service: records what reached it and verifies the forwarded identity like a real service would. */
export async function fakeUpstream(publicKey: string) {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const token = req.headers['x-identity-token'];
    let identity: SeenRequest['identity'];
    if (typeof token === 'string') identity = verifyIdentity(publicKey, token);
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, identity });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ upstream: true, url: req.url, identity: identity ?? null }));
    });
  });
  const wss = new WebSocketServer({ server, path: '/ws/notifications' });
  wss.on('connection', (socket, req) => {
    const token = req.headers['x-identity-token'];
    const identity = typeof token === 'string' ? verifyIdentity(publicKey, token) : null;
    socket.send(JSON.stringify({ type: 'hello', identity }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A stand-in service that accepts calls and never answers (to see a timeout). */
export async function silentUpstream() {
  const server = http.createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface GatewayUnderTest {
  baseUrl: string;
  databaseUrl: string;
  port: number;
  prefix: string;
  adminPassword: string;
  keys: ReturnType<typeof keyPair>;
  upstream: Awaited<ReturnType<typeof fakeUpstream>>;
  stop(): Promise<void>;
}

/** A real gateway (Postgres, Redis, RabbitMQ, outbox relay) on a random port, isolated by database and prefixes. */
export async function startTestGateway(
  label: string,
  env: Record<string, string> = {},
  logger: Logger = pino({ level: 'silent' }),
): Promise<GatewayUnderTest> {
  const db = await migratedGatewayDatabase(label);
  const prefix = uniquePrefix(label);
  const keys = keyPair();
  const upstream = await fakeUpstream(keys.publicKey);
  const adminPassword = 'correct-horse-battery';
  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    AMQP_URL: await getAmqpUrl(),
    REDIS_URL: await getRedisUrl(),
    EVENT_PREFIX: prefix,
    REDIS_PREFIX: prefix,
    SESSION_SECRET: 'x'.repeat(48),
    INTERNAL_JWT_PRIVATE_KEY: keys.privateKey,
    ADMIN_USERNAME: 'Boss',
    ADMIN_PASSWORD: adminPassword,
    BOOKING_URL: upstream.url,
    JOBS_URL: upstream.url,
    BILLING_URL: upstream.url,
    REPORTING_URL: upstream.url,
    NOTIFY_URL: upstream.url,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const runtime = await startGateway(config, logger);
  return {
    baseUrl: `http://127.0.0.1:${runtime.server.port}`,
    databaseUrl: db.url,
    port: runtime.server.port,
    prefix,
    adminPassword,
    keys,
    upstream,
    stop: async () => {
      await runtime.shutdown('test done');
      await upstream.close();
      await deleteRedisKeysByPrefix(prefix);
      const admin = await createRabbitAdmin();
      await admin.cleanup(prefix).catch(() => undefined);
      await admin.close();
      await db.drop();
    },
  };
}

/** A tiny cookie-keeping client, as a browser would behave against the gateway. */
export class Client {
  cookie?: string;
  constructor(private readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(this.cookie ? { Cookie: this.cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const pair = setCookie.split(';')[0] ?? '';
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return {
      status: res.status,
      headers: res.headers,
      text,
      body: json as Record<string, unknown> & unknown[],
    };
  }

  login(username: string, password: string) {
    return this.request('POST', '/api/login', { username, password });
  }
}
