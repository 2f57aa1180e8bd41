import request from 'supertest';
import pino from 'pino';
import { createServiceApp, dependencyCheck } from './app';

describe('service app', () => {
  const logger = pino({ level: 'silent' });

  it('serves health, readiness (own database only; the broker is a dependency), and metrics', async () => {
    let brokerUp = false;
    let databaseUp = true;
    const svc = createServiceApp({
      name: 'demo',
      logger,
      readinessCacheMs: 0,
      readiness: {
        database: async () => {
          if (!databaseUp) throw new Error('database unreachable');
        },
        broker: dependencyCheck(async () => {
          if (!brokerUp) throw new Error('connection refused');
        }),
      },
    });
    const app = svc.finalize();
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok', service: 'demo' });
    // A broker outage leaves the process serving (the outbox holds events): ready, degraded, and the gauge says so.
    const degraded = await request(app).get('/readyz');
    expect(degraded.status).toBe(200);
    expect(degraded.body).toMatchObject({ status: 'ready (degraded)' });
    expect(degraded.body.checks).toEqual({ database: 'ok', broker: 'connection refused' });
    let metrics = await request(app).get('/metrics');
    expect(metrics.text).toMatch(/dependency_up\{dependency="broker",service="demo"\} 0/);
    expect(metrics.text).toMatch(/dependency_up\{dependency="database",service="demo"\} 1/);
    brokerUp = true;
    expect((await request(app).get('/readyz')).body).toMatchObject({ status: 'ready' });
    metrics = await request(app).get('/metrics');
    expect(metrics.text).toMatch(/dependency_up\{dependency="broker",service="demo"\} 1/);
    // Its own database gone: it cannot serve its requests, so it is not ready.
    databaseUp = false;
    const notReady = await request(app).get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({
      status: 'not ready',
      checks: { database: 'database unreachable' },
    });
    databaseUp = true;
    svc.setDraining();
    expect((await request(app).get('/readyz')).status).toBe(503);
    expect(metrics.text).toContain('http_request_duration_seconds');
  });

  it('reuses a readiness result for readinessCacheMs, and shares checks already running', async () => {
    let calls = 0;
    let databaseUp = true;
    const svc = createServiceApp({
      name: 'demo',
      logger,
      readinessCacheMs: 200,
      readiness: {
        database: async () => {
          calls += 1;
          await new Promise((r) => setTimeout(r, 20));
          if (!databaseUp) throw new Error('database unreachable');
        },
      },
    });
    const app = svc.finalize();
    const [a, b] = await Promise.all([request(app).get('/readyz'), request(app).get('/readyz')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await request(app).get('/metrics')).text).toMatch(
      /dependency_up\{dependency="database",service="demo"\} 1/,
    );
    expect(calls).toBe(1);
    databaseUp = false;
    expect((await request(app).get('/readyz')).status).toBe(200); // still the cached answer
    expect(calls).toBe(1);
    await new Promise((r) => setTimeout(r, 250));
    expect((await request(app).get('/readyz')).status).toBe(503);
    expect(calls).toBe(2);
    svc.setDraining();
    expect((await request(app).get('/readyz')).status).toBe(503);
  });

  it('echoes a sane request id and replaces a hostile one', async () => {
    const app = createServiceApp({ name: 'demo', logger }).finalize();
    const kept = await request(app).get('/healthz').set('x-request-id', 'abc-123');
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await request(app).get('/healthz').set('x-request-id', 'bad id with spaces and $$$');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves the request id, access log and duration metric to an edge in front of it when told so', async () => {
    const lines: string[] = [];
    const svc = createServiceApp({
      name: 'demo',
      logger: pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) }),
      edgeInFront: true,
    });
    svc.app.get('/thing', (_req, res) => void res.status(404).json({}));
    const res = await request(svc.finalize()).get('/thing').set('x-request-id', 'abc-123');
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBeUndefined();
    expect(lines).toEqual([]);
    const histogram = await svc.metrics.registry.getSingleMetricAsString('http_request_duration_seconds');
    expect(histogram).not.toContain('route=');
  });

  it('answers unknown routes with the JSON error shape', async () => {
    const res = await request(createServiceApp({ name: 'demo', logger }).finalize()).get('/nope');
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('/nope');
  });

  it('answers 400, never 500, for NUL characters and undecodable path parameters', async () => {
    const svc = createServiceApp({ name: 'demo', logger });
    svc.app.post('/things/:id', (req, res) => {
      res.json({ id: req.params.id, body: req.body as unknown });
    });
    const app = svc.finalize();
    const nulBody = await request(app).post('/things/1').send({ notes: 'gate\u0000code' });
    expect(nulBody.status).toBe(400);
    expect(nulBody.body).toEqual({
      message: 'Text must not contain NUL characters',
      code: 'invalid_characters',
    });
    expect((await request(app).post('/things/1?q=a%00b').send({})).status).toBe(400);
    const undecodable = await request(app).post('/things/%E0%A4%A').send({});
    expect(undecodable.status).toBe(400);
    expect(undecodable.body.code).toBe('malformed_url');
    // A lone UTF-16 surrogate as JSON's escape sends it (issue 14: "name":"A\ud800" was a 500 from the outbox).
    for (const raw of ['{"name":"A\\ud800"}', '{"notes":"\\udc00 tail"}', '{"vehicle":{"make":"\\ud83d"}}']) {
      const lone = await request(app).post('/things/1').set('Content-Type', 'application/json').send(raw);
      expect([raw, lone.status, lone.body.code]).toEqual([raw, 400, 'invalid_characters']);
    }
    // A surrogate pair (an emoji) is a character: accepted.
    const pair = await request(app)
      .post('/things/1')
      .set('Content-Type', 'application/json')
      .send('{"notes":"\\ud83d\\ude97"}');
    expect(pair.body.body).toEqual({ notes: '\u{1F697}' });
    expect((await request(app).post('/things/ok').send({ notes: 'Zoë' })).body).toEqual({
      id: 'ok',
      body: { notes: 'Zoë' },
    });
  });
});
