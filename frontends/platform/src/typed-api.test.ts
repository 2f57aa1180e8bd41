import { ApiError } from './api';
import { fillPath, typedApi, type ResponseOf, type RequestBodyOf } from './typed-api';

/** A `paths` in the shape openapi-typescript 7 generates (src/api-types/<service>.ts), cut down to what is tested. */
interface TestPaths {
  '/api/things': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: {
        query?: { status?: string; page?: number };
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        200: { headers: { [name: string]: unknown }; content: { 'application/json': Thing[] } };
        401: { headers: { [name: string]: unknown }; content: { 'application/json': Problem } };
      };
    };
    post: {
      parameters: { query?: never; header?: never; path?: never; cookie?: never };
      requestBody: { content: { 'application/json': { name: string } } };
      responses: {
        201: { headers: { [name: string]: unknown }; content: { 'application/json': Thing } };
        409: { headers: { [name: string]: unknown }; content: { 'application/json': Problem } };
      };
    };
    put?: never;
    patch?: never;
    delete?: never;
  };
  '/api/things/{id}': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      requestBody?: never;
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': Thing } } };
    };
    delete: {
      parameters: { query?: never; header?: never; path: { id: string }; cookie?: never };
      requestBody?: never;
      responses: { 204: { headers: { [name: string]: unknown }; content?: never } };
    };
    post?: never;
    put?: never;
    patch?: never;
  };
  '/api/slots': {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    get: {
      parameters: { query: { date: string }; header?: never; path?: never; cookie?: never };
      requestBody?: never;
      responses: { 200: { headers: { [name: string]: unknown }; content: { 'application/json': string[] } } };
    };
    post?: never;
    put?: never;
    patch?: never;
    delete?: never;
  };
}
interface Thing {
  id: string;
  name: string;
}
interface Problem {
  message: string;
  code?: string;
}

interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
}

/** A fetch stand-in (jsdom has none) that records each call and answers with `answer`. */
function stubFetch(answer: Answer = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  global.fetch = jest.fn(async (url: RequestInfo | URL, init: RequestInit = {}) => {
    calls.push({ url: String(url), init });
    const status = answer.status ?? 200;
    const body = answer.body ?? '';
    const headers = new Map(Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: status === 200 ? 'OK' : 'Error',
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

const api = typedApi<TestPaths>();

describe('typedApi: the document-typed calls go through api.ts', () => {
  test('path parameters are filled in and URL-encoded; a missing one throws before anything is sent', async () => {
    expect(fillPath('/api/things/{id}', { id: 'a/b c' })).toBe('/api/things/a%2Fb%20c');
    const calls = stubFetch({ body: JSON.stringify({ id: 'a/b', name: 'x' }) });
    const thing: Thing = await api.get('/api/things/{id}', { params: { id: 'a/b' } });
    expect(thing).toEqual({ id: 'a/b', name: 'x' });
    expect(calls[0]?.url).toBe('/api/things/a%2Fb');
    expect(calls[0]?.init.credentials).toBe('include');
    expect(() => fillPath('/api/things/{id}', {})).toThrow('no value for path parameter id');
  });

  test('query strings are encoded by withQuery (empty values left out)', async () => {
    const calls = stubFetch({ body: '[]' });
    await api.get('/api/things', { query: { status: 'a&b', page: 2 } });
    await api.get('/api/slots', { query: { date: '2030-01-07' } });
    expect(calls.map((c) => c.url)).toEqual([
      '/api/things?status=a%26b&page=2',
      '/api/slots?date=2030-01-07',
    ]);
  });

  test('a JSON body is sent as JSON with the Idempotency-Key; a 204 answers null', async () => {
    const calls = stubFetch({ status: 201, body: JSON.stringify({ id: '1', name: 'Olivia' }) });
    const created = await api.post('/api/things', { body: { name: 'Olivia' }, idempotencyKey: 'k-1' });
    expect(created.name).toBe('Olivia');
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe('{"name":"Olivia"}');
    expect(calls[0]?.init.headers).toMatchObject({
      'Content-Type': 'application/json',
      'Idempotency-Key': 'k-1',
    });
    stubFetch({ status: 204 });
    await expect(api.delete('/api/things/{id}', { params: { id: '1' } })).resolves.toBeNull();
  });

  test("a non-OK answer throws the platform's ApiError with the server's message", async () => {
    stubFetch({ status: 409, body: JSON.stringify({ message: 'Name taken', code: 'conflict' }) });
    const error = await api.post('/api/things', { body: { name: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).serverMessage).toBe('Name taken');
    expect((error as ApiError).code).toBe('conflict');
  });

  test('getIfSignedIn answers null for a 401 and throws any other failure', async () => {
    stubFetch({ status: 401, body: JSON.stringify({ message: 'Not authenticated' }) });
    await expect(api.getIfSignedIn('/api/things')).resolves.toBeNull();
    stubFetch({ status: 500, body: JSON.stringify({ message: 'boom' }) });
    await expect(api.getIfSignedIn('/api/things')).rejects.toBeInstanceOf(ApiError);
  });

  test('page() answers the items and the X-Total-Count total', async () => {
    stubFetch({ body: JSON.stringify([{ id: '1', name: 'a' }]), headers: { 'X-Total-Count': '41' } });
    const page = await api.page('/api/things', { query: { page: 3 } });
    expect(page.total).toBe(41);
    expect(page.items[0]?.name).toBe('a');
  });

  test('the types come from paths (checked by tsc: frontends/public typecheck includes this file)', () => {
    const body: RequestBodyOf<TestPaths, '/api/things', 'post'> = { name: 'x' };
    const list: ResponseOf<TestPaths, '/api/things'> = [{ id: '1', name: 'x' }];
    expect([body, list]).toHaveLength(2);
    const never = () => {
      // @ts-expect-error a path the document does not have
      void api.get('/api/nothing');
      // @ts-expect-error a required path parameter left out
      void api.get('/api/things/{id}');
      // @ts-expect-error a required query parameter left out
      void api.get('/api/slots', {});
      // @ts-expect-error a field the request body does not have
      void api.post('/api/things', { body: { title: 'x' } });
      // @ts-expect-error no PUT on that path
      void api.put('/api/things', { body: {} });
      // @ts-expect-error a field the answer does not have
      void api.get('/api/things/{id}', { params: { id: '1' } }).then((t) => t.title);
    };
    expect(typeof never).toBe('function');
  });
});
