/**
 * What the dashboard needs beyond @tyres/platform's client: lists whose total arrives in a header
 * (X-Total-Count, used for pagination) and authenticated file downloads. Same rules as the platform client
 * (credentials included, no retries, `${status}: ${text}` errors through ApiError).
 */
import { ApiError, apiJson } from '@tyres/platform';
import type { Page } from './types';

async function okOrThrow(res: Response): Promise<Response> {
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiError(res.status, res.statusText, text);
  }
  return res;
}

/** Builds `path?query` leaving out empty values. */
export function withQuery(
  path: string,
  params: Record<string, string | number | boolean | null | undefined>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * GETs a list. The items are the JSON array (or an `{ items }` / `{ data }` envelope); the total is the
 * X-Total-Count header when the service sends one, else the number of items.
 */
export async function getPage<T>(url: string): Promise<Page<T>> {
  const res = await okOrThrow(await fetch(url, { credentials: 'include' }));
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

/** GET + JSON. */
export function getJson<T>(url: string): Promise<T> {
  return apiJson<T>('GET', url);
}

/**
 * Downloads a file the session may read (e.g. an invoice PDF) and hands it to the browser as a download.
 * Fetching first (rather than navigating) keeps failures inside the page, where they become a toast.
 */
export async function downloadFile(url: string, filename: string): Promise<void> {
  const res = await okOrThrow(await fetch(url, { credentials: 'include' }));
  const blob = await res.blob();
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
