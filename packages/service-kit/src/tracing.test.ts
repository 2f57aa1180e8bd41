import { Writable } from 'node:stream';
import request from 'supertest';
import { carrierOf, startTelemetry, traceFields } from '@tyres/telemetry';
import { createServiceApp } from './app';
import { createLogger } from './logger';

/** The default `npm start`: tracing started, no exporter configured. */
beforeAll(() => {
  startTelemetry('demo', { env: {} });
});

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('demo', { level: 'info' }, sink) };
}

describe('requests are traced (no exporter configured)', () => {
  const incomingTrace = '0af7651916cd43dd8448eb211c80319c';
  const incomingSpan = 'b7ad6b7169203331';

  function demoApp() {
    const { lines, logger } = capturedLogger();
    const svc = createServiceApp({ name: 'demo', logger });
    svc.app.get('/api/things/:id', (_req, res) => {
      logger.info({}, 'looking the thing up');
      res.json({ ...traceFields(), outgoing: carrierOf()?.traceparent });
    });
    return { app: svc.finalize(), lines };
  }

  it("continues the caller's traceparent: same trace id, its own span, on every log line of the request", async () => {
    const { app, lines } = demoApp();
    const res = await request(app)
      .get('/api/things/42')
      .set('traceparent', `00-${incomingTrace}-${incomingSpan}-01`);
    expect(res.status).toBe(200);
    expect(res.body.trace_id).toBe(incomingTrace);
    expect(res.body.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(res.body.span_id).not.toBe(incomingSpan);
    // What this request passes on (outbox rows, queue jobs, calls) names the request's span as the parent.
    expect(res.body.outgoing).toMatch(new RegExp(`^00-${incomingTrace}-${res.body.span_id as string}-`));
    const line = lines.find((l) => l.msg === 'looking the thing up');
    expect(line).toMatchObject({ trace_id: incomingTrace, span_id: res.body.span_id });
    expect(line?.correlationId).toEqual(expect.any(String));
  });

  it('without a traceparent a request starts its own trace (ids in the logs all the same)', async () => {
    const { app, lines } = demoApp();
    const first = await request(app).get('/api/things/1');
    const second = await request(app).get('/api/things/2');
    expect(first.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(second.body.trace_id).not.toBe(first.body.trace_id);
    expect(lines.filter((l) => l.msg === 'looking the thing up').map((l) => l.trace_id)).toEqual([
      first.body.trace_id,
      second.body.trace_id,
    ]);
  });

  it('a log line outside any request carries no trace fields', () => {
    const { lines, logger } = capturedLogger();
    logger.info({}, 'boot');
    expect(lines[0]).not.toHaveProperty('trace_id');
  });
});
