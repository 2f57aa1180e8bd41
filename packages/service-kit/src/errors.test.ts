import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import pino from 'pino';
import { conflict, errorHandler } from './errors';
import { parseOr400 } from './validation';

function appWith(handler: express.RequestHandler) {
  const app = express();
  app.use(express.json({ limit: '1kb' }));
  app.post('/x', handler);
  app.use(errorHandler(pino({ level: 'silent' })));
  return app;
}

describe('error handler', () => {
  it('turns zod failures into 400 with the field messages', async () => {
    const schema = z.object({
      username: z.string().min(1, 'Username is required'),
      password: z.string().min(6, 'Password must be at least 6 characters'),
    });
    const res = await request(appWith((req, res) => res.json(parseOr400(schema, req.body))))
      .post('/x')
      .send({ username: '', password: '1' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Username is required');
    expect(res.body.details).toEqual([
      { path: 'username', message: 'Username is required' },
      { path: 'password', message: 'Password must be at least 6 characters' },
    ]);
  });

  it('answers HttpErrors with their status, message and code', async () => {
    const res = await request(
      appWith(() => {
        throw conflict('Slot taken');
      }),
    )
      .post('/x')
      .send({});
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Slot taken', code: 'conflict' });
  });

  it('maps malformed JSON to 400 and oversized bodies to 413', async () => {
    const app = appWith((_req, res) => res.json({}));
    const bad = await request(app).post('/x').set('Content-Type', 'application/json').send('{"a":');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Request body is not valid JSON');
    const big = await request(app)
      .post('/x')
      .send({ a: 'x'.repeat(5000) });
    expect(big.status).toBe(413);
  });

  it('hides internals of unexpected errors behind a 500', async () => {
    const res = await request(
      appWith(() => {
        throw new Error('db password is hunter2');
      }),
    )
      .post('/x')
      .send({});
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
  });
});
