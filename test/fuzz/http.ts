/**
 * A raw HTTP client for the fuzz suite: node:http with the request target sent exactly as generated (fetch and
 * the URL parser would normalise "../" and "%2e%2e" away), bodies of any size, chunked or with a lying
 * Content-Length, and staff sessions (cookie + same-origin Origin, as the gateway's CSRF rule wants).
 */
import http from 'node:http';
import type { Identity } from './catalogue';

export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
const base = new URL(BASE_URL);

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
  /** The connection failed before an answer (reset, timeout). */
  error?: string;
}

export interface RawRequest {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: Buffer;
  chunked?: boolean;
  lyingLength?: number;
  timeoutMs?: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Node refuses to send characters outside 0x21-0xFF in a path; everything else goes out as generated. */
function wireTarget(target: string): string {
  return target.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
}

export function send(req: RawRequest): Promise<RawResponse> {
  const started = performance.now();
  const big = (req.body?.length ?? 0) > 256 * 1024 || req.chunked || req.lyingLength !== undefined;
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  if (req.body && !req.chunked) headers['content-length'] = String(req.lyingLength ?? req.body.length);
  if (req.chunked) headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<RawResponse, 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ ...r, ms: performance.now() - started });
    };
    let request: http.ClientRequest;
    try {
      request = http.request({
        hostname: base.hostname,
        port: base.port || 80,
        method: req.method,
        path: wireTarget(req.target),
        headers,
        // A refused big body can leave a connection half-written: never return it to the pool.
        agent: big ? false : agent,
      });
    } catch (err) {
      finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: `not sent: ${(err as Error).message}` });
      return;
    }
    request.setTimeout(req.timeoutMs ?? 30_000, () =>
      request.destroy(new Error('no answer within the timeout')),
    );
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', (err) =>
        finish({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          error: err.message,
        }),
      );
      if (big) res.on('end', () => request.destroy());
    });
    request.on('error', (err) =>
      finish({ status: 0, headers: {}, body: Buffer.alloc(0), error: err.message }),
    );
    if (req.lyingLength !== undefined) {
      // Claims the whole body, sends two bytes: the gateway must answer from the header alone.
      request.write(req.body?.subarray(0, 2) ?? Buffer.alloc(0));
      return;
    }
    if (req.body) request.end(req.body);
    else request.end();
  });
}

export interface Session {
  identity: Identity;
  cookie?: string;
}

export const anonymous: Session = { identity: 'anonymous' };

/** The headers of a browser call of this identity: its cookie, and the gateway's own origin. */
export function sessionHeaders(session: Session): Record<string, string> {
  return { origin: BASE_URL, ...(session.cookie ? { cookie: session.cookie } : {}) };
}

export async function login(identity: Identity, username: string, password: string): Promise<Session> {
  const res = await send({
    method: 'POST',
    target: '/api/login',
    headers: { 'content-type': 'application/json', origin: BASE_URL },
    body: Buffer.from(JSON.stringify({ username, password })),
  });
  const setCookie = res.headers['set-cookie']?.[0];
  if (res.status !== 200 || !setCookie)
    throw new Error(`login as ${username} answered ${res.status}: ${res.body.toString().slice(0, 200)}`);
  return { identity, cookie: setCookie.split(';')[0]! };
}

/** A JSON call that must succeed (fixtures and snapshots). */
export async function call<T = unknown>(
  session: Session,
  method: string,
  target: string,
  body?: unknown,
): Promise<{ data: T; headers: http.IncomingHttpHeaders; status: number }> {
  const res = await send({
    method,
    target,
    headers: {
      ...sessionHeaders(session),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: Buffer.from(JSON.stringify(body)) } : {}),
  });
  const text = res.body.toString('utf8');
  if (res.status < 200 || res.status >= 300)
    throw Object.assign(new Error(`${method} ${target} answered ${res.status}: ${text.slice(0, 300)}`), {
      status: res.status,
    });
  return { data: (text ? JSON.parse(text) : null) as T, headers: res.headers, status: res.status };
}

export function closeClient(): void {
  agent.destroy();
}
