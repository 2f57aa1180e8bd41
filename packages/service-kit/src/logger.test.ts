import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { requestLogger } from './app';
import { createLogger, loggableUrl } from './logger';

describe('loggableUrl: customers’ link tokens never reach a log line (issue 18)', () => {
  it.each([
    ['/api/manage/AbC_123-xyz/cancel', '/api/manage/[token]/cancel'],
    ['/api/manage/AbC_123-xyz', '/api/manage/[token]'],
    ['/API/Pay/tok3n/payment-intent?x=1', '/API/Pay/[token]/payment-intent'],
    ['/api/unsubscribe/t0k', '/api/unsubscribe/[token]'],
    ['/manage/t0k', '/manage/[token]'],
    ['/api/dashboard/jobs/123?search=Jane', '/api/dashboard/jobs/123'],
    ['/api/bookings', '/api/bookings'],
  ])('%s → %s', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });

  it('the request log line of a refused manage call carries no token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = express();
    app.use(requestLogger(createLogger('test', { level: 'debug' }, sink)));
    app.post('/api/manage/:token/cancel', (_req, res) => void res.status(409).json({ message: 'no' }));
    const token = 'Zx9_secretsecretsecretsecretsecretsecret00';
    await request(app).post(`/api/manage/${token}/cancel`).expect(409);
    const line = lines.find((l) => l.includes('"request"'));
    expect(line).toBeDefined();
    expect(line).toContain('/api/manage/[token]/cancel');
    expect(lines.join('\n')).not.toContain(token);
  });
});
