import request from 'supertest';
import pino from 'pino';
import { createServiceApp } from './app';

describe('service app', () => {
  const logger = pino({ level: 'silent' });

  it('serves health, readiness with named checks, and metrics', async () => {
    let brokerUp = false;
    const svc = createServiceApp({
      name: 'demo',
      logger,
      readiness: {
        database: async () => undefined,
        broker: async () => {
          if (!brokerUp) throw new Error('connection refused');
        },
      },
    });
    const app = svc.finalize();
    expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok', service: 'demo' });
    const notReady = await request(app).get('/readyz');
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks).toEqual({ database: 'ok', broker: 'connection refused' });
    brokerUp = true;
    expect((await request(app).get('/readyz')).status).toBe(200);
    svc.setDraining();
    expect((await request(app).get('/readyz')).status).toBe(503);
    const metrics = await request(app).get('/metrics');
    expect(metrics.text).toContain('http_request_duration_seconds');
  });

  it('echoes a sane request id and replaces a hostile one', async () => {
    const app = createServiceApp({ name: 'demo', logger }).finalize();
    const kept = await request(app).get('/healthz').set('x-request-id', 'abc-123');
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await request(app).get('/healthz').set('x-request-id', 'bad id with spaces and $$$');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
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
    expect((await request(app).post('/things/ok').send({ notes: 'Zoë' })).body).toEqual({
      id: 'ok',
      body: { notes: 'Zoë' },
    });
  });
});
