import {
  BookingCreated,
  createEventBus,
  createInbox,
  createPublisher,
  exchangeNames,
  handleOnce,
  HEADERS,
  inboxHandler,
  NonRetryableError,
  replayDeadLetters,
  UserCreated,
  UserStatusChanged,
  type EventBus,
  type EventBusOptions,
  type EventMetrics,
  type Logger,
  type Publisher,
} from '@tyres/events';
import {
  createRabbitAdmin,
  getAmqpUrl,
  sleep,
  uniquePrefix,
  waitFor,
  waitForExpect,
  type RabbitAdmin,
} from '@tyres/testkit';
import { connect } from 'amqplib';
import { randomUUID } from 'node:crypto';
import { sampleEvent } from '../fixtures';
import { deferred, setupPg, testLogger, type PgFixture } from './helpers';

const logger = testLogger();
jest.setTimeout(60_000);

describe('event bus consumer', () => {
  let pg: PgFixture;
  let amqpUrl: string;
  let admin: RabbitAdmin;
  let publisher: Publisher;
  let prefix: string;
  const buses: EventBus[] = [];

  beforeAll(async () => {
    pg = await setupPg(
      'events-consumer',
      'svc',
      `CREATE TABLE svc.effects (id serial primary key, event_id uuid not null, note text)`,
    );
    amqpUrl = await getAmqpUrl();
    admin = await createRabbitAdmin(amqpUrl);
  });

  beforeEach(async () => {
    prefix = uniquePrefix('consumer');
    publisher = createPublisher({ url: amqpUrl, prefix, logger, name: 'consumer-test-publisher' });
  });

  afterEach(async () => {
    for (const bus of buses.splice(0)) {
      await bus.close();
      await admin.cleanup(prefix, { services: [bus.service], retryDelaysMs: bus.retryPolicy.delaysMs });
    }
    await publisher.close();
    await admin.cleanup(prefix);
    await pg.pool.query('TRUNCATE svc.effects, svc.inbox_events');
  });

  afterAll(async () => {
    await admin?.close();
    await pg?.close();
  });

  async function startBus(
    options: Partial<EventBusOptions>,
    setup: (bus: EventBus) => void,
  ): Promise<EventBus> {
    const bus = createEventBus({ url: amqpUrl, service: 'probe', prefix, logger, ...options });
    buses.push(bus);
    setup(bus);
    await bus.start({ timeoutMs: 10_000 });
    return bus;
  }

  const effects = async () =>
    (
      await pg.pool.query<{ event_id: string; note: string }>(
        'SELECT event_id, note FROM svc.effects ORDER BY id',
      )
    ).rows;

  it('applies a redelivered event once (inbox), even when both copies are handled concurrently', async () => {
    const calls: string[] = [];
    const outcomes: string[] = [];
    const metrics: EventMetrics = {
      consumed: (m) => void outcomes.push(m.duplicate ? `${m.outcome} (duplicate)` : m.outcome),
    };
    await startBus({ metrics }, (bus) =>
      bus.subscribe(
        UserCreated,
        inboxHandler(
          pg.db,
          'probe.onUserCreated',
          async (tx, event) => {
            calls.push(event.id);
            await sleep(50); // widen the race window between concurrent copies
            await tx.$executeRawUnsafe(
              'INSERT INTO svc.effects (event_id, note) VALUES ($1, $2)',
              event.id,
              event.data.username,
            );
          },
          { schema: 'svc' },
        ),
      ),
    );
    const event = sampleEvent(UserCreated, { userId: randomUUID(), username: 'dup-test' });
    // The same envelope three times (what an outbox republish or a broker redelivery produces).
    await Promise.all([publisher.publish(event), publisher.publish(event), publisher.publish(event)]);
    await waitForExpect(() => expect(outcomes).toHaveLength(3), { timeoutMs: 10_000 });
    expect([...outcomes].sort()).toEqual(['ack', 'ack (duplicate)', 'ack (duplicate)']);
    expect(await effects()).toEqual([{ event_id: event.id, note: 'dup-test' }]);
    const inbox = await pg.pool.query('SELECT event_id, handler FROM svc.inbox_events');
    expect(inbox.rows).toEqual([{ event_id: event.id, handler: 'probe.onUserCreated' }]);
    // The copies handled concurrently block on the inbox insert until the first commits, then skip.
    expect(calls).toEqual([event.id]);
    expect(await admin.messageCount(`${prefix}probe`)).toBe(0);
    expect(await admin.messageCount(`${prefix}probe.dlq`)).toBe(0);
  });

  it('handleOnce reports duplicate and an effect that fails rolls back its inbox row', async () => {
    const eventId = randomUUID();
    const first = await pg.db.$transaction((tx) =>
      handleOnce(tx, { schema: 'svc', eventId, handler: 'h' }, async () => 'done'),
    );
    expect(first).toEqual({ status: 'handled', result: 'done' });
    const second = await pg.db.$transaction((tx) =>
      handleOnce(tx, { schema: 'svc', eventId, handler: 'h' }, async () => 'again'),
    );
    expect(second).toEqual({ status: 'duplicate' });
    // Another handler name is another effect.
    const other = await pg.db.$transaction((tx) =>
      handleOnce(tx, { schema: 'svc', eventId, handler: 'h2' }, async () => 1),
    );
    expect(other.status).toBe('handled');

    const failing = randomUUID();
    await expect(
      pg.db.$transaction((tx) =>
        handleOnce(tx, { schema: 'svc', eventId: failing, handler: 'h' }, async () => {
          throw new Error('effect failed');
        }),
      ),
    ).rejects.toThrow('effect failed');
    const retried = await pg.db.$transaction((tx) =>
      handleOnce(tx, { schema: 'svc', eventId: failing, handler: 'h' }, async () => 'ok now'),
    );
    expect(retried).toEqual({ status: 'handled', result: 'ok now' });
  });

  it('sends malformed, invalid and unknown-version messages straight to the DLQ without calling the handler', async () => {
    let calls = 0;
    const bus = await startBus({}, (b) =>
      b.subscribe(UserCreated, async () => {
        calls += 1;
      }),
    );
    const { exchange } = exchangeNames(prefix);
    const good = sampleEvent(UserCreated, { userId: randomUUID() });
    await admin.publish(exchange, 'user.created.v1', 'this is not json {', { persistent: true });
    await admin.publish(
      exchange,
      'user.created.v1',
      JSON.stringify({ ...good, id: randomUUID(), data: { userId: 'x' } }),
    );
    await admin.publish(exchange, 'user.created.v1', JSON.stringify({ hello: 'world' }));
    await admin.publish(
      exchange,
      'user.created.v1',
      JSON.stringify({ ...good, id: randomUUID(), type: 'user.created.v7', version: 7 }),
    );
    await waitForExpect(async () => expect(await admin.messageCount(bus.topology.deadLetterQueue)).toBe(4), {
      timeoutMs: 10_000,
    });
    const dead = await admin.drain(bus.topology.deadLetterQueue);
    const reasons = dead.map((m) => m.properties.headers?.[HEADERS.deadLetterReason]);
    expect(reasons).toEqual(['malformed-json', 'invalid-data', 'invalid-envelope', 'unknown-version']);
    expect(dead[0]?.content.toString()).toBe('this is not json {'); // the original bytes, for inspection/replay
    expect(dead.every((m) => m.properties.headers?.[HEADERS.failedService] === 'probe')).toBe(true);
    expect(dead.every((m) => m.properties.headers?.[HEADERS.retryCount] === undefined)).toBe(true);
    expect(calls).toBe(0);

    // The consumer is still healthy.
    await publisher.publish(good);
    await waitFor(() => calls === 1);
  });

  it('retries a failing handler with backoff, then dead-letters it after maxAttempts', async () => {
    const attempts: { at: number; attempt: number }[] = [];
    const bus = await startBus({ retry: { maxAttempts: 4, delaysMs: [100, 300, 600] } }, (b) =>
      b.subscribe(UserCreated, async (_event, ctx) => {
        attempts.push({ at: Date.now(), attempt: ctx.attempt });
        throw new Error(`database exploded (attempt ${ctx.attempt})`);
      }),
    );
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    await publisher.publish(event);
    await waitForExpect(async () => expect(await admin.messageCount(bus.topology.deadLetterQueue)).toBe(1), {
      timeoutMs: 15_000,
    });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    const gaps = attempts.slice(1).map((a, i) => a.at - (attempts[i] as { at: number }).at);
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(280);
    expect(gaps[2]).toBeGreaterThanOrEqual(580);
    const [dead] = await admin.drain(bus.topology.deadLetterQueue);
    expect(dead?.properties.messageId).toBe(event.id);
    expect(dead?.properties.headers).toMatchObject({
      [HEADERS.deadLetterReason]: 'max-attempts',
      [HEADERS.retryCount]: 3,
      [HEADERS.eventId]: event.id,
      [HEADERS.correlationId]: event.correlationId,
    });
    expect(String(dead?.properties.headers?.[HEADERS.lastError])).toContain('attempt 4');
    expect(JSON.parse(dead?.content.toString() ?? '{}')).toEqual(event);
    await sleep(800);
    expect(attempts).toHaveLength(4); // nothing left in the retry queues
    for (const q of bus.topology.retryQueues) expect(await admin.messageCount(q.name)).toBe(0);
  });

  it('a handler that recovers on a retry is acked and not dead-lettered', async () => {
    let attempt = 0;
    const bus = await startBus({ retry: { maxAttempts: 5, delaysMs: [50] } }, (b) =>
      b.subscribe(UserCreated, async () => {
        attempt += 1;
        if (attempt < 3) throw new Error('transient');
      }),
    );
    await publisher.publish(sampleEvent(UserCreated, { userId: randomUUID() }));
    await waitFor(() => attempt === 3, { timeoutMs: 5000 });
    await sleep(300);
    expect(attempt).toBe(3);
    expect(await admin.messageCount(bus.topology.deadLetterQueue)).toBe(0);
    expect(await admin.messageCount(bus.topology.queue)).toBe(0);
  });

  it('replayDeadLetters sends dead letters back once the cause is fixed', async () => {
    let broken = true;
    const handled: string[] = [];
    const bus = await startBus({ retry: { maxAttempts: 1 } }, (b) =>
      b.subscribe(UserCreated, async (event) => {
        if (broken) throw new Error('bug');
        handled.push(event.id);
      }),
    );
    const events = [1, 2, 3].map(() => sampleEvent(UserCreated, { userId: randomUUID() }));
    for (const e of events) await publisher.publish(e);
    await waitForExpect(async () => expect(await admin.messageCount(bus.topology.deadLetterQueue)).toBe(3));
    broken = false;
    const keepId = events[2]?.id;
    const result = await replayDeadLetters({
      url: amqpUrl,
      service: 'probe',
      prefix,
      filter: (m) => m.properties.messageId !== keepId,
    });
    expect(result).toEqual({ replayed: 2, skipped: 1 });
    await waitFor(() => handled.length === 2);
    expect(handled.sort()).toEqual([events[0]?.id, events[1]?.id].sort());
    await waitForExpect(async () => expect(await admin.messageCount(bus.topology.deadLetterQueue)).toBe(1));
  });

  it('NonRetryableError skips the retries', async () => {
    let calls = 0;
    const bus = await startBus({ retry: { maxAttempts: 5, delaysMs: [50] } }, (b) =>
      b.subscribe(UserCreated, async () => {
        calls += 1;
        throw new NonRetryableError('this technician does not exist here');
      }),
    );
    await publisher.publish(sampleEvent(UserCreated, { userId: randomUUID() }));
    await waitForExpect(async () => expect(await admin.messageCount(bus.topology.deadLetterQueue)).toBe(1));
    const [dead] = await admin.drain(bus.topology.deadLetterQueue);
    expect(dead?.properties.headers?.[HEADERS.deadLetterReason]).toBe('non-retryable');
    expect(calls).toBe(1);
  });

  it('never has more than `prefetch` handlers running', async () => {
    let running = 0;
    let peak = 0;
    let done = 0;
    await startBus({ prefetch: 3 }, (b) =>
      b.subscribe(UserCreated, async () => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(40);
        running -= 1;
        done += 1;
      }),
    );
    await Promise.all(
      Array.from({ length: 15 }, () => publisher.publish(sampleEvent(UserCreated, { userId: randomUUID() }))),
    );
    await waitFor(() => done === 15, { timeoutMs: 10_000 });
    expect(peak).toBe(3);
  });

  it('hands typed, validated data and a logger carrying the correlation id to the handler', async () => {
    const bindings: Record<string, unknown>[] = [];
    const recording: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      child(b) {
        bindings.push(b);
        return recording;
      },
    };
    const seen = deferred<{ suburb: string; attempt: number; redelivered: boolean }>();
    await startBus({ logger: recording }, (b) => {
      b.subscribe(BookingCreated, async (event, ctx) => {
        ctx.logger.info({ jobId: event.data.jobId }, 'booking received');
        seen.resolve({ suburb: event.data.suburb, attempt: ctx.attempt, redelivered: ctx.redelivered });
      });
      b.subscribe(UserStatusChanged, async () => undefined);
    });
    const event = sampleEvent(BookingCreated, { suburb: 'Rockingham' }, 'req-abc-123');
    await publisher.publish(event);
    await expect(seen.promise).resolves.toEqual({ suburb: 'Rockingham', attempt: 1, redelivered: false });
    expect(bindings).toContainEqual(
      expect.objectContaining({
        correlationId: 'req-abc-123',
        eventId: event.id,
        eventType: 'booking.created.v1',
      }),
    );
  });

  it('publishes persistent messages with ids in the properties and headers', async () => {
    const { exchange } = exchangeNames(prefix);
    // A plain queue bound to the exchange, to look at what the publisher sent.
    const tap = `${prefix}tap`;
    const conn = await connect(amqpUrl);
    const ch = await conn.createChannel();
    await ch.assertExchange(exchange, 'topic', { durable: true });
    await ch.assertQueue(tap, { durable: false });
    await ch.bindQueue(tap, exchange, '#');
    await conn.close();
    admin.track({ queues: [tap] });

    const parent = sampleEvent(UserCreated, { userId: randomUUID() });
    const event = {
      ...sampleEvent(UserStatusChanged),
      correlationId: parent.correlationId,
      causationId: parent.id,
    };
    await publisher.publish(event);
    const msg = await waitFor(() => admin.get(tap));
    expect(msg.fields.routingKey).toBe('user.status-changed.v1');
    expect(msg.properties).toMatchObject({
      messageId: event.id,
      correlationId: parent.correlationId,
      deliveryMode: 2,
      contentType: 'application/json',
      type: 'user.status-changed.v1',
      appId: 'test',
      headers: {
        [HEADERS.eventId]: event.id,
        [HEADERS.correlationId]: parent.correlationId,
        [HEADERS.causationId]: parent.id,
        [HEADERS.eventType]: 'user.status-changed.v1',
      },
    });
    expect(JSON.parse(msg.content.toString())).toEqual(event);
  });

  it('refuses to publish an invalid envelope', async () => {
    const event = sampleEvent(UserCreated);
    await expect(publisher.publish({ ...event, data: { ...event.data, role: 'owner' } })).rejects.toThrow(
      /Invalid user.created.v1 data/,
    );
    await expect(publisher.publish({ ...event, type: 'user.created.v9', version: 9 })).rejects.toThrow(
      /Unknown version/,
    );
  });

  it('close() stops consuming, waits for the running handler, and acks it', async () => {
    const started = deferred();
    const release = deferred();
    let finished = 0;
    const inbox = createInbox(pg.db, { schema: 'svc' });
    const bus = await startBus({}, (b) =>
      b.subscribe(
        UserCreated,
        inbox.handler('probe.slow', async (tx, event) => {
          started.resolve();
          await release.promise;
          await tx.$executeRawUnsafe(
            'INSERT INTO svc.effects (event_id, note) VALUES ($1, $2)',
            event.id,
            'slow',
          );
          finished += 1;
        }),
      ),
    );
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    await publisher.publish(event);
    await started.promise;
    expect(bus.inFlight).toBe(1);
    let closed = false;
    const closing = bus.close().then(() => {
      closed = true;
    });
    await sleep(200);
    expect(closed).toBe(false); // still waiting for the handler
    // A message published now is not taken by the closing consumer.
    const later = sampleEvent(UserCreated, { userId: randomUUID() });
    await publisher.publish(later);
    release.resolve();
    await closing;
    expect(finished).toBe(1);
    expect(await effects()).toEqual([{ event_id: event.id, note: 'slow' }]);
    // The handled message was acked before the channel closed; the later one waits in the queue.
    await waitForExpect(async () => expect(await admin.messageCount(bus.topology.queue)).toBe(1));
    const [left] = await admin.drain(bus.topology.queue);
    expect(left?.properties.messageId).toBe(later.id);
  });
});
