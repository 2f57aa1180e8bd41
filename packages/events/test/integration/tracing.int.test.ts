import { randomUUID } from 'node:crypto';
import {
  createEventBus,
  createOutbox,
  createOutboxRelay,
  createPublisher,
  UserCreated,
  type EventBus,
  type Publisher,
} from '@tyres/events';
import {
  InMemorySpanExporter,
  inSpan,
  SpanKind,
  startTelemetry,
  traceFields,
  type ReadableSpan,
} from '@tyres/telemetry';
import { createRabbitAdmin, getAmqpUrl, uniquePrefix, waitForExpect, type RabbitAdmin } from '@tyres/testkit';
import { sampleEvent } from '../fixtures';
import { setupPg, testLogger, type PgFixture } from './helpers';

jest.setTimeout(60_000);
const logger = testLogger();

/**
 * The trace of a request survives the outbox: the row keeps the request's trace context, the relay's publish
 * span continues it and puts its own `traceparent` in the message headers, and the consumer's span is its child.
 */
describe('trace context through the outbox and RabbitMQ', () => {
  const spans = new InMemorySpanExporter();
  let pg: PgFixture;
  let admin: RabbitAdmin;
  let prefix: string;
  let bus: EventBus;
  let publisher: Publisher;
  const handled: { eventId: string; traceparent: unknown; trace_id?: string; span_id?: string }[] = [];

  beforeAll(async () => {
    startTelemetry('events-test', { env: { OTEL_BSP_SCHEDULE_DELAY: '50' }, exporter: spans });
    pg = await setupPg('events-tracing');
    const amqpUrl = await getAmqpUrl();
    admin = await createRabbitAdmin(amqpUrl);
    prefix = uniquePrefix('tracing');
    bus = createEventBus({ url: amqpUrl, service: 'probe', prefix, logger });
    bus.subscribe(UserCreated, async (event, ctx) => {
      handled.push({ eventId: event.id, traceparent: ctx.headers.traceparent, ...traceFields() });
    });
    await bus.start();
    publisher = createPublisher({ url: amqpUrl, prefix, logger, name: 'tracing-test-publisher' });
  });

  afterAll(async () => {
    await publisher?.close();
    await bus?.close();
    await admin?.cleanup(prefix, { services: ['probe'], retryDelaysMs: bus?.retryPolicy.delaysMs });
    await admin?.close();
    await pg?.close();
  });

  const finished = (name: string) => spans.getFinishedSpans().find((s: ReadableSpan) => s.name === name);

  it('row, message headers and consumer all continue the request that enqueued the event', async () => {
    const outbox = createOutbox({ schema: 'svc' });
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    // The request: its span is active while the row is written in the transaction.
    const request = await inSpan('POST /api/users', { kind: SpanKind.SERVER }, async (span) => {
      await pg.db.$transaction((tx) => outbox.enqueue(tx, event));
      return span.spanContext();
    });

    const row = (
      await pg.pool.query<{ trace_context: { traceparent: string } | null }>(
        'SELECT trace_context FROM svc.outbox_events WHERE id = $1',
        [event.id],
      )
    ).rows[0];
    expect(row?.trace_context?.traceparent).toBe(`00-${request.traceId}-${request.spanId}-01`);

    // Published later, outside the request (the relay's loop has no active span of its own).
    const relay = createOutboxRelay({ db: pg.db, schema: 'svc', publisher, logger });
    await expect(relay.runOnce()).resolves.toEqual({ published: 1, failed: 0 });
    await waitForExpect(() => expect(handled.map((h) => h.eventId)).toContain(event.id), {
      timeoutMs: 10_000,
    });
    // The publish span ends once the broker confirms, which can be after the consumer has already handled it.
    await waitForExpect(
      () => {
        expect(finished('user.created.v1 process')).toBeDefined();
        expect(finished('user.created.v1 publish')).toBeDefined();
      },
      { timeoutMs: 5_000 },
    );

    const publish = finished('user.created.v1 publish')!;
    const consume = finished('user.created.v1 process')!;
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    expect(publish.spanContext().traceId).toBe(request.traceId);
    expect(publish.parentSpanContext?.spanId).toBe(request.spanId);
    expect(consume.kind).toBe(SpanKind.CONSUMER);
    expect(consume.spanContext().traceId).toBe(request.traceId);
    expect(consume.parentSpanContext?.spanId).toBe(publish.spanContext().spanId);
    expect(consume.attributes['messaging.message.id']).toBe(event.id);

    // The message carried the publish span as the parent; the handler ran (and logs) inside the consumer span.
    const h = handled.find((x) => x.eventId === event.id)!;
    expect(h.traceparent).toBe(`00-${request.traceId}-${publish.spanContext().spanId}-01`);
    expect(h).toMatchObject({ trace_id: request.traceId, span_id: consume.spanContext().spanId });
  });

  it('an event published directly (no outbox) continues the active span', async () => {
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    const parent = await inSpan('handler', {}, async (span) => {
      await publisher.publish(event);
      return span.spanContext();
    });
    await waitForExpect(() => expect(handled.map((x) => x.eventId)).toContain(event.id), {
      timeoutMs: 10_000,
    });
    expect(handled.find((x) => x.eventId === event.id)?.trace_id).toBe(parent.traceId);
  });
});
