/**
 * The one HTTP client every front end uses (spec section 7):
 * - every call sends credentials (the session cookie), whatever helper makes it,
 * - nothing is retried here (react-query retries are off too),
 * - a non-OK answer throws an ApiError whose message is `${status}: ${text || statusText}` and which carries the
 *   server's `message` (the gateway and services answer `{ message, code?, details? }` JSON),
 * - query strings are built with URLSearchParams, so keys and values are URL-encoded,
 * - calls a client may repeat carry an `Idempotency-Key`.
 *
 * The gateway's CSRF defence is the Origin check on state-changing requests (services/gateway/src/http/security.ts):
 * the browser sends Origin itself, so no token header is added. Across origins the gateway allows only the
 * Content-Type, Idempotency-Key and X-Request-Id request headers, so the client adds no others.
 *
 * Each same-origin call starts its own trace: a fresh W3C `traceparent` (docs/observability.md), which the
 * gateway continues through every service the request reaches. Cross-origin calls do not send it (the gateway's
 * CORS policy does not list it, and a refused preflight would fail the call).
 */

export class ApiError extends Error {
  readonly status: number;
  /** Raw response text (the gateway answers `{ message, code?, details? }` JSON). */
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  private parsedBody(): Record<string, unknown> | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined; // not JSON
    }
  }

  /** The server's `message` field when the body is the standard error JSON, else undefined. */
  get serverMessage(): string | undefined {
    const message = this.parsedBody()?.message;
    return typeof message === 'string' && message.trim() ? message : undefined;
  }

  /** The server's machine-readable `code` (e.g. `not_found`), when it sent one. */
  get code(): string | undefined {
    const code = this.parsedBody()?.code;
    return typeof code === 'string' && code ? code : undefined;
  }
}

/**
 * True when the request never got an answer (offline, DNS, connection reset, CORS refusal): fetch rejects with a
 * TypeError then. An aborted request is not a network error (the caller cancelled it).
 */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query string value: null, undefined and '' are left out; an array repeats the key. */
export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Readonly<Record<string, QueryValue | readonly QueryValue[]>>;

/**
 * `path?query` with every key and value URL-encoded (URLSearchParams), leaving out empty values; a path that
 * already has a query string is extended with `&`.
 */
export function withQuery(path: string, params: QueryParams = {}): string {
  const search = new URLSearchParams();
  const add = (key: string, value: QueryValue) => {
    if (value === undefined || value === null || value === '') return;
    search.append(key, String(value));
  };
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const item of value as readonly QueryValue[]) add(key, item);
    else add(key, value as QueryValue);
  }
  const qs = search.toString();
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}

/** A fresh idempotency key (a UUID where the browser has one). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function randomBytes(n: number): Uint8Array {
  const bytes = new Uint8Array(n);
  const c = globalThis.crypto as Crypto | undefined;
  if (c?.getRandomValues) c.getRandomValues(bytes);
  else for (let i = 0; i < n; i++) bytes[i] = Math.floor(Math.random() * 256);
  // An all-zero trace or span id is invalid: never send one.
  if (bytes.every((b) => b === 0)) bytes[n - 1] = 1;
  return bytes;
}

/**
 * A new W3C trace context for one request (version 00, random trace and parent ids, sampled: the browser has no
 * sampler of its own, the services' OTEL_TRACES_SAMPLER decides).
 */
export function newTraceparent(): string {
  return `00-${hex(randomBytes(16))}-${hex(randomBytes(8))}-01`;
}

function sameOrigin(url: string): boolean {
  if (url.startsWith('/') && !url.startsWith('//')) return true;
  const here = (globalThis as { location?: { href: string; origin: string } }).location;
  if (!here) return false;
  try {
    return new URL(url, here.href).origin === here.origin;
  } catch {
    return false;
  }
}

export interface RequestOptions {
  /** Extra request headers. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Appended to the URL with `withQuery` (encoded, empty values left out). */
  query?: QueryParams;
  /**
   * Sent as `Idempotency-Key`: the same key for a repeat of the same request lets the service answer it once
   * (booking and billing replay the first answer).
   */
  idempotencyKey?: string;
}

type Body = { kind: 'none' } | { kind: 'json'; data: unknown } | { kind: 'form'; form: FormData };

function headersFor(url: string, body: Body, options: RequestOptions): Record<string, string> {
  return {
    ...(body.kind === 'json' ? { 'Content-Type': 'application/json' } : {}),
    ...(options.idempotencyKey ? { 'Idempotency-Key': options.idempotencyKey } : {}),
    ...(sameOrigin(url) ? { traceparent: newTraceparent() } : {}),
    ...options.headers,
  };
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiError(res.status, res.statusText, text);
  }
}

/** The one place a request is sent: credentials, headers, query string. Answers the raw Response. */
async function send(method: HttpMethod, url: string, body: Body, options: RequestOptions): Promise<Response> {
  const headers = headersFor(url, body, options);
  return fetch(options.query ? withQuery(url, options.query) : url, {
    method,
    // For multipart the browser sets the Content-Type with its boundary.
    ...(Object.keys(headers).length > 0 || body.kind !== 'none' ? { headers } : {}),
    body: body.kind === 'json' ? JSON.stringify(body.data) : body.kind === 'form' ? body.form : undefined,
    credentials: 'include',
    signal: options.signal,
  });
}

/** Sends a JSON request (or no body) and returns the Response once it is known to be OK. */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  data?: unknown,
  options: RequestOptions = {},
): Promise<Response> {
  const body: Body = data !== undefined ? { kind: 'json', data } : { kind: 'none' };
  const res = await send(method, url, body, options);
  await throwIfResNotOk(res);
  return res;
}

async function parseJsonBody<T>(res: Response): Promise<T> {
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** apiRequest + JSON body; an empty body (204) yields null. */
export async function apiJson<T>(
  method: HttpMethod,
  url: string,
  data?: unknown,
  options?: RequestOptions,
): Promise<T> {
  return parseJsonBody<T>(await apiRequest(method, url, data, options));
}

/** GET + JSON: `apiGet('/api/x', { query: { q } })`. */
export function apiGet<T>(url: string, options?: RequestOptions): Promise<T> {
  return apiJson<T>('GET', url, undefined, options);
}

/**
 * Sends multipart form data (file uploads); the browser sets the multipart Content-Type with its boundary.
 * Same error rules as apiRequest; answers the parsed JSON body (null when empty).
 */
export async function apiUpload<T>(url: string, form: FormData, options: RequestOptions = {}): Promise<T> {
  const res = await send('POST', url, { kind: 'form', form }, options);
  await throwIfResNotOk(res);
  return parseJsonBody<T>(res);
}

/** A list and its total (for pagination). */
export interface Page<T> {
  items: T[];
  total: number;
}

/**
 * GETs a list. The items are the JSON array (or an `{ items }` / `{ data }` envelope); the total is the
 * envelope's `total`, else the X-Total-Count header when the service sends one, else the number of items.
 */
export async function apiPage<T>(url: string, options?: RequestOptions): Promise<Page<T>> {
  const res = await apiRequest('GET', url, undefined, options);
  const body = (await res.json()) as unknown;
  let items: T[] = [];
  if (Array.isArray(body)) items = body as T[];
  else if (body && typeof body === 'object') {
    const envelope = body as { items?: unknown; data?: unknown; total?: unknown };
    if (Array.isArray(envelope.items)) items = envelope.items as T[];
    else if (Array.isArray(envelope.data)) items = envelope.data as T[];
    if (typeof envelope.total === 'number') return { items, total: envelope.total };
  }
  const header = Number(res.headers.get('X-Total-Count'));
  return {
    items,
    total: Number.isFinite(header) && res.headers.has('X-Total-Count') ? header : items.length,
  };
}

/** GETs a file the session may read (e.g. an invoice PDF) as a Blob. */
export async function apiBlob(url: string, options?: RequestOptions): Promise<Blob> {
  return (await apiRequest('GET', url, undefined, options)).blob();
}

/**
 * Downloads a file the session may read and hands it to the browser as a download. Fetching first (rather than
 * navigating) keeps failures inside the page, where they become a toast.
 */
export async function downloadFile(url: string, filename: string, options?: RequestOptions): Promise<void> {
  const blob = await apiBlob(url, options);
  const href = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = href;
    link.download = filename;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the blob URL goes away.
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  }
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

const isPlainObject = (value: unknown): value is Record<string, QueryValue> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The URL a query key stands for: the key parts joined by '/' (`['/api/dashboard/jobs', 42]` ->
 * `/api/dashboard/jobs/42`); a trailing plain object is the query string, encoded
 * (`['/api/jobs', { status: 'a&b' }]` -> `/api/jobs?status=a%26b`).
 */
export function queryKeyUrl(queryKey: readonly unknown[]): string {
  const last = queryKey[queryKey.length - 1];
  if (queryKey.length > 1 && isPlainObject(last)) {
    return withQuery(queryKey.slice(0, -1).map(String).join('/'), last);
  }
  return queryKey.map(String).join('/');
}

/**
 * react-query query function: GETs the URL of the query key (see queryKeyUrl) and parses JSON.
 * With `on401: 'returnNull'` a 401 answer yields null (used for GET /api/user: no session = no user).
 */
export function getQueryFn<T>(options: {
  on401: UnauthorizedBehavior;
}): (context: { queryKey: readonly unknown[] }) => Promise<T | null> {
  // react-query's abort signal is not passed on: a query whose screen unmounts still lands in the cache.
  return async ({ queryKey }) => {
    const res = await send('GET', queryKeyUrl(queryKey), { kind: 'none' }, {});
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** The message a toast should show for a failed call: the server's message when present, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
