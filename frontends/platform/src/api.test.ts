import {
  ApiError,
  apiGet,
  apiJson,
  apiPage,
  apiRequest,
  apiUpload,
  errorMessage,
  getQueryFn,
  isNetworkError,
  newIdempotencyKey,
  newTraceparent,
  queryKeyUrl,
  withQuery,
} from './api';

interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}

/** A fetch stand-in (jsdom has none) that records each call and answers with `answer`. */
function stubFetch(answer: Answer | (() => Promise<never>) = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  global.fetch = jest.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    if (typeof answer === 'function') return answer();
    const status = answer.status ?? 200;
    const body = answer.body ?? '';
    const headers = new Map(Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: status === 200 ? 'OK' : 'Conflict',
      text: async () => body,
      json: async () => JSON.parse(body) as unknown,
      headers: {
        get: (k: string) => headers.get(k.toLowerCase()) ?? null,
        has: (k: string) => headers.has(k.toLowerCase()),
      },
    } as unknown as Response;
  }) as unknown as typeof fetch;
  return calls;
}

describe('withQuery: query strings through URLSearchParams', () => {
  test('keys and values are URL-encoded, including & = and spaces', () => {
    const url = withQuery('/api/search', { 'a&b=c d': 'x&y=z w', q: 'Smith St' });
    expect(url).toBe('/api/search?a%26b%3Dc+d=x%26y%3Dz+w&q=Smith+St');
    expect(Object.fromEntries(new URL(url, 'http://localhost').searchParams)).toEqual({
      'a&b=c d': 'x&y=z w',
      q: 'Smith St',
    });
  });

  test('empty, null and undefined values are left out; numbers and booleans are written; arrays repeat', () => {
    expect(withQuery('/api/jobs', { status: '', page: 2, paid: false, a: null, b: undefined })).toBe(
      '/api/jobs?page=2&paid=false',
    );
    expect(withQuery('/api/jobs', { id: ['1', '2'] })).toBe('/api/jobs?id=1&id=2');
    expect(withQuery('/api/jobs', {})).toBe('/api/jobs');
    expect(withQuery('/api/jobs?sort=date', { page: 1 })).toBe('/api/jobs?sort=date&page=1');
  });
});

describe('requests', () => {
  test('every call sends credentials; JSON bodies have a Content-Type; the query option is encoded', async () => {
    const calls = stubFetch({ body: '{"ok":true}' });
    await expect(apiJson('POST', '/api/bookings', { a: 1 }, { query: { 'x y': 'a&b' } })).resolves.toEqual({
      ok: true,
    });
    await apiGet('/api/time-slots', { query: { date: '2030-06-03' } });
    await apiUpload('/api/bookings/1/photos', new FormData());
    expect(calls.map((c) => c.url)).toEqual([
      '/api/bookings?x+y=a%26b',
      '/api/time-slots?date=2030-06-03',
      '/api/bookings/1/photos',
    ]);
    for (const { init } of calls) expect(init.credentials).toBe('include');
    expect(calls[0]!.init).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    // Multipart: the browser sets the Content-Type (with its boundary).
    expect((calls[2]!.init.headers as Record<string, string> | undefined)?.['Content-Type']).toBeUndefined();
  });

  test('an idempotency key is sent as Idempotency-Key', async () => {
    const calls = stubFetch({ body: '{}' });
    await apiJson('POST', '/api/bookings', {}, { idempotencyKey: 'key-1' });
    expect(calls[0]!.init.headers).toEqual({
      'Content-Type': 'application/json',
      'Idempotency-Key': 'key-1',
      traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/),
    });
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });

  test('each same-origin call starts its own trace (W3C traceparent); a cross-origin call sends none', async () => {
    const calls = stubFetch({ body: '{}' });
    await apiGet('/api/time-slots');
    await apiGet('/api/time-slots');
    await apiGet('https://elsewhere.example/api/time-slots');
    const sent = calls.map((c) => (c.init.headers as Record<string, string> | undefined)?.traceparent);
    expect(sent[0]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(sent[1]).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(sent[0]!.slice(3, 35)).not.toBe(sent[1]!.slice(3, 35));
    expect(sent[2]).toBeUndefined();
    expect(newTraceparent()).not.toMatch(/^00-0{32}-/);
  });

  test('an empty body (204) is null', async () => {
    stubFetch({ status: 204, body: '' });
    await expect(apiJson('DELETE', '/api/x')).resolves.toBeNull();
  });

  test('the default query function GETs the key joined by "/", a trailing object is the encoded query', async () => {
    expect(queryKeyUrl(['/api/dashboard/jobs', 42])).toBe('/api/dashboard/jobs/42');
    expect(queryKeyUrl(['/api/jobs', { status: 'a&b', q: 'x y' }])).toBe('/api/jobs?status=a%26b&q=x+y');
    const calls = stubFetch({ body: '[1]' });
    await expect(getQueryFn({ on401: 'throw' })({ queryKey: ['/api/x', 'y'] })).resolves.toEqual([1]);
    expect(calls[0]).toMatchObject({ url: '/api/x/y', init: { credentials: 'include' } });
  });

  test('a 401 is null in returnNull mode and an error otherwise', async () => {
    stubFetch({ status: 401, body: '{"message":"Not logged in"}' });
    await expect(getQueryFn({ on401: 'returnNull' })({ queryKey: ['/api/user'] })).resolves.toBeNull();
    await expect(getQueryFn({ on401: 'throw' })({ queryKey: ['/api/user'] })).rejects.toThrow(
      '401: {"message":"Not logged in"}',
    );
  });

  test('a page: an array and the X-Total-Count header, or an envelope', async () => {
    stubFetch({ body: '[1,2]', headers: { 'X-Total-Count': '40' } });
    await expect(apiPage('/api/jobs')).resolves.toEqual({ items: [1, 2], total: 40 });
    stubFetch({ body: '{"items":[1],"total":7}' });
    await expect(apiPage('/api/jobs')).resolves.toEqual({ items: [1], total: 7 });
    stubFetch({ body: '{"data":[1,2,3]}' });
    await expect(apiPage('/api/jobs')).resolves.toEqual({ items: [1, 2, 3], total: 3 });
  });
});

describe('errors: one ApiError with the server message', () => {
  test('status, body, message, server message and code', async () => {
    stubFetch({ status: 409, body: '{"message":"Slot taken","code":"slot_taken"}' });
    const error = await apiRequest('POST', '/api/bookings', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api.status).toBe(409);
    expect(api.message).toBe('409: {"message":"Slot taken","code":"slot_taken"}');
    expect(api.serverMessage).toBe('Slot taken');
    expect(api.code).toBe('slot_taken');
    expect(errorMessage(api, 'Fallback')).toBe('Slot taken');
  });

  test('a body that is not the error JSON: the status text in the message, no server message', async () => {
    stubFetch({ status: 409, body: '' });
    const error = (await apiGet('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('409: Conflict');
    expect(error.serverMessage).toBeUndefined();
    expect(errorMessage(error, 'Fallback')).toBe('Fallback');
    expect(new ApiError(500, 'Error', '<html>').serverMessage).toBeUndefined();
    expect(new ApiError(400, 'Error', '{"message":"  "}').serverMessage).toBeUndefined();
    expect(errorMessage(new Error('boom'), 'Fallback')).toBe('Fallback');
  });

  test('no answer at all is a network error, not an ApiError', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await apiGet('/api/x').catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(isNetworkError(error)).toBe(true);
    expect(isNetworkError(new ApiError(500, 'Error', ''))).toBe(false);
  });
});
