/**
 * The one HTTP client every front end uses (spec section 7):
 * - every call sends credentials (the session cookie),
 * - nothing is retried here (react-query retries are off too),
 * - a non-OK answer throws an Error whose message is `${status}: ${text || statusText}`.
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

  /** The server's `message` field when the body is the standard error JSON, else undefined. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const { message } = parsed as { message: unknown };
        if (typeof message === 'string' && message.trim()) return message;
      }
    } catch {
      // not JSON: no server message
    }
    return undefined;
  }
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiError(res.status, res.statusText, text);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  /** Extra request headers, e.g. `{ 'Idempotency-Key': key }` for calls a client may retry. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Sends a JSON request (or no body) and returns the Response once it is known to be OK. */
export async function apiRequest(
  method: HttpMethod,
  url: string,
  data?: unknown,
  options: RequestOptions = {},
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: { ...(data !== undefined ? { 'Content-Type': 'application/json' } : {}), ...options.headers },
    body: data !== undefined ? JSON.stringify(data) : undefined,
    credentials: 'include',
    signal: options.signal,
  });
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

/**
 * Sends multipart form data (file uploads); the browser sets the multipart Content-Type with its boundary.
 * Same error rules as apiRequest; answers the parsed JSON body (null when empty).
 */
export async function apiUpload<T>(url: string, form: FormData, options: RequestOptions = {}): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    body: form,
    headers: options.headers,
    credentials: 'include',
    signal: options.signal,
  });
  await throwIfResNotOk(res);
  return parseJsonBody<T>(res);
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/**
 * react-query query function: GETs the path made of the query key parts joined by '/'
 * (`['/api/dashboard/jobs', 42]` -> `/api/dashboard/jobs/42`) and parses JSON.
 * With `on401: 'returnNull'` a 401 answer yields null (used for GET /api/user: no session = no user).
 */
export function getQueryFn<T>(options: {
  on401: UnauthorizedBehavior;
}): (context: { queryKey: readonly unknown[] }) => Promise<T | null> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.map(String).join('/'), { credentials: 'include' });
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
