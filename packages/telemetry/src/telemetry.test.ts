import {
  carrierOf,
  context,
  contextFrom,
  currentTelemetry,
  injectInto,
  inSpan,
  startTelemetry,
  traceFields,
  tracingSettings,
} from './index';

describe('tracingSettings (the standard OTEL_* variables)', () => {
  test('nothing set: no export, parent-based sampling, the service name given', () => {
    const s = tracingSettings('booking', {});
    expect(s).toMatchObject({
      serviceName: 'booking',
      exporter: 'none',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      disabled: false,
    });
    expect(s.batch).toEqual({
      scheduledDelayMillis: 5000,
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      exportTimeoutMillis: 30_000,
    });
  });

  test('an OTLP endpoint (general or for traces) turns OTLP export on; OTEL_TRACES_EXPORTER decides when set', () => {
    expect(tracingSettings('x', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).exporter).toBe(
      'otlp',
    );
    expect(
      tracingSettings('x', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })
        .exporter,
    ).toBe('otlp');
    expect(
      tracingSettings('x', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })
        .exporter,
    ).toBe('none');
    expect(tracingSettings('x', { OTEL_TRACES_EXPORTER: 'console' }).exporter).toBe('console');
    expect(tracingSettings('x', { OTEL_TRACES_EXPORTER: 'OTLP' }).exporter).toBe('otlp');
    expect(tracingSettings('x', { OTEL_TRACES_EXPORTER: 'zipkin,otlp' }).exporter).toBe('otlp');
    expect(() => tracingSettings('x', { OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(/OTEL_TRACES_EXPORTER/);
  });

  test('service name, sampler, ratio and batch settings; bad values are refused with the variable named', () => {
    const s = tracingSettings('jobs', {
      OTEL_SERVICE_NAME: 'jobs-canary',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_BSP_MAX_QUEUE_SIZE: '100',
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512',
    });
    expect(s).toMatchObject({ serviceName: 'jobs-canary', sampler: 'traceidratio', samplerRatio: 0.25 });
    // A batch never exceeds the queue.
    expect(s.batch).toMatchObject({ scheduledDelayMillis: 200, maxQueueSize: 100, maxExportBatchSize: 100 });
    expect(() => tracingSettings('x', { OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => tracingSettings('x', { OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => tracingSettings('x', { OTEL_BSP_SCHEDULE_DELAY: '-5' })).toThrow(/OTEL_BSP_SCHEDULE_DELAY/);
    expect(tracingSettings('x', { OTEL_SDK_DISABLED: 'true' }).disabled).toBe(true);
  });
});

describe('without an exporter (the default npm start)', () => {
  const incomingTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const incomingSpan = '00f067aa0ba902b7';

  beforeAll(() => {
    startTelemetry('test-service', { env: {} });
  });

  test('startTelemetry runs once and exports nothing', () => {
    expect(currentTelemetry()?.exporting).toBe(false);
    expect(startTelemetry('other', { env: { OTEL_TRACES_EXPORTER: 'console' } })).toBe(currentTelemetry());
  });

  test('an incoming traceparent is continued, never replaced: same trace id, a span id of our own', () => {
    const parent = contextFrom({ traceparent: `00-${incomingTrace}-${incomingSpan}-01` });
    inSpan('work', { parent }, () => {
      const fields = traceFields();
      expect(fields.trace_id).toBe(incomingTrace);
      expect(fields.span_id).toMatch(/^[0-9a-f]{16}$/);
      expect(fields.span_id).not.toBe(incomingSpan);
      // What goes on (HTTP headers, AMQP headers, the outbox row) names this span as the parent.
      expect(carrierOf()?.traceparent).toMatch(new RegExp(`^00-${incomingTrace}-${fields.span_id}-0[01]$`));
      expect(injectInto({} as Record<string, unknown>).traceparent).toBe(carrierOf()?.traceparent);
    });
  });

  test('without a caller, each span starts a trace of its own (so every log line still has ids)', () => {
    const a = inSpan('a', {}, () => traceFields());
    const b = inSpan('b', {}, () => traceFields());
    expect(a.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(b.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(a.trace_id).not.toBe(b.trace_id);
  });

  test('a malformed traceparent is ignored (a new trace), never copied on', () => {
    const parent = contextFrom({ traceparent: '00-not-a-trace-01' });
    inSpan('x', { parent }, () => {
      expect(traceFields().trace_id).toMatch(/^[0-9a-f]{32}$/);
      expect(carrierOf()?.traceparent).not.toContain('not-a-trace');
    });
  });

  test('outside any span there is nothing to log or pass on', () => {
    expect(traceFields()).toEqual({});
    expect(carrierOf()).toBeUndefined();
  });

  test('inSpan keeps its span active across awaits, ends it, and rethrows failures', async () => {
    const ids = await inSpan('async', {}, async () => {
      const before = traceFields().span_id;
      await new Promise((r) => setTimeout(r, 5));
      return { before, after: traceFields().span_id };
    });
    expect(ids.after).toBe(ids.before);
    await expect(
      inSpan('fails', {}, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(() =>
      inSpan('fails', {}, () => {
        throw new Error('sync boom');
      }),
    ).toThrow('sync boom');
    expect(context.active()).toBeDefined();
  });
});
