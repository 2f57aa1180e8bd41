import pino from 'pino';
import type { OpenApiLike } from '../domain/api-reference';
import { ApiReference } from './api-reference';

const gateway: OpenApiLike = {
  openapi: '3.1.0',
  info: { title: 'Mobile tyres API', version: '1' },
  paths: {},
};
const bookingDoc = {
  openapi: '3.1.0',
  info: { title: 'booking service', version: '1' },
  paths: { '/api/bookings': { post: { responses: {} } } },
};

function reference(answer: (url: string) => Promise<Response>, clock: { now: number }) {
  const calls: string[] = [];
  const ref = new ApiReference({
    upstreams: { booking: 'http://booking:3001', jobs: 'http://jobs:3002' },
    gatewayDocument: () => gateway,
    routeOwner: (path) => (path.startsWith('/api/bookings') ? 'booking' : 'jobs'),
    logger: pino({ level: 'silent' }),
    clock: () => clock.now,
    fetch: ((url: URL) => {
      calls.push(String(url));
      return answer(String(url));
    }) as typeof fetch,
  });
  return { ref, calls };
}

const json = (body: unknown, status = 200) =>
  Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );

describe('ApiReference', () => {
  it('fetches each service once, shares one refresh between callers and keeps a complete document 30 s', async () => {
    const clock = { now: 0 };
    const { ref, calls } = reference(
      (url) => json(url.includes('booking') ? bookingDoc : { ...bookingDoc, paths: {} }),
      clock,
    );
    const [a, b] = await Promise.all([ref.document(), ref.document()]);
    expect(a).toBe(b);
    expect(calls).toEqual(['http://booking:3001/openapi.json', 'http://jobs:3002/openapi.json']);
    expect(Object.keys(a.paths ?? {})).toEqual(['/api/bookings']);
    clock.now = 29_999;
    await ref.document();
    expect(calls).toHaveLength(2);
    clock.now = 30_000;
    await ref.document();
    expect(calls).toHaveLength(4);
  });

  it('answers without a service that is down, says why, and tries it again after 5 s', async () => {
    const clock = { now: 0 };
    let jobs: () => Promise<Response> = () => Promise.reject(new TypeError('fetch failed'));
    const { ref, calls } = reference((url) => (url.includes('booking') ? json(bookingDoc) : jobs()), clock);
    expect((await ref.document())['x-unavailable-services']).toEqual([
      { service: 'jobs', reason: 'unreachable' },
    ]);
    jobs = () => json({ message: 'down' }, 503);
    clock.now = 4_999;
    await ref.document();
    expect(calls).toHaveLength(2);
    clock.now = 5_000;
    expect((await ref.document())['x-unavailable-services']).toEqual([
      { service: 'jobs', reason: 'answered 503' },
    ]);
    jobs = () => Promise.resolve(new Response('<html>', { status: 200 }));
    clock.now = 10_000;
    expect((await ref.document())['x-unavailable-services']).toEqual([
      { service: 'jobs', reason: 'not JSON' },
    ]);
    jobs = () => json({ hello: 'world' });
    clock.now = 15_000;
    expect((await ref.document())['x-unavailable-services']).toEqual([
      { service: 'jobs', reason: 'not an OpenAPI document' },
    ]);
    jobs = () => Promise.reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
    clock.now = 20_000;
    expect((await ref.document())['x-unavailable-services']).toEqual([
      { service: 'jobs', reason: 'timed out' },
    ]);
  });
});
