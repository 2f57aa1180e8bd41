/**
 * Batch consumption (bus.subscribeBatch) against a real RabbitMQ and Postgres: batches gathered and acked at once,
 * duplicates inside and across batches applied once (claimInbox), a failing batch handled one by one (the bad
 * message retried / dead-lettered alone), competing consumers sharing the queue; and the pipeline metrics
 * (registerPipelineMetrics) read from a real relay and bus.
 */
import {
  claimInbox,
  createEventBus,
  createOutbox,
  createOutboxRelay,
  createPublisher,
  NonRetryableError,
  registerPipelineMetrics,
  UserCreated,
  UserStatusChanged,
  type BatchItem,
  type EventBus,
  type EventBusOptions,
  type EventEnvelope,
  type EventMetrics,
  type EventOf,
  type Publisher,
} from '@tyres/events';
import {
  createRabbitAdmin,
  getAmqpUrl,
  uniquePrefix,
  waitFor,
  waitForExpect,
  type RabbitAdmin,
} from '@tyres/testkit';
import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { sampleEvent } from '../fixtures';
import { setupPg, testLogger, type PgFixture } from './helpers';

const logger = testLogger();
jest.setTimeout(60_000);

type UserEvent = EventOf<typeof UserCreated>;

describe('batch consumption', () => {
  let pg: PgFixture;
  let amqpUrl: string;
  let admin: RabbitAdmin;
  let publisher: Publisher;
  let prefix: string;
  const buses: EventBus[] = [];
  const afterCleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    pg = await setupPg(
      'events-batch',
      'svc',
      `CREATE TABLE svc.effects (id serial primary key, event_id uuid not null unique)`,
    );
    amqpUrl = await getAmqpUrl();
    admin = await createRabbitAdmin(amqpUrl);
  });

  beforeEach(async () => {
    prefix = uniquePrefix('batch');
    publisher = createPublisher({ url: amqpUrl, prefix, logger, name: 'batch-test-publisher' });
  });

  afterEach(async () => {
    for (const close of afterCleanup.splice(0)) await close();
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
    const bus = createEventBus({ url: amqpUrl, service: 'batchprobe', prefix, logger, ...options });
    buses.push(bus);
    setup(bus);
    await bus.start({ timeoutMs: 10_000 });
    return bus;
  }

  /** A batch handler applying events once: inbox rows and effects in one transaction (as reporting does). */
  const applyOnce =
    <E extends EventEnvelope = EventEnvelope>(
      seen: { sizes: number[] },
      fail?: (items: readonly BatchItem<E>[]) => void,
    ) =>
    async (items: readonly BatchItem<E>[]) => {
      seen.sizes.push(items.length);
      fail?.(items);
      return pg.db.$transaction(async (tx) => {
        const fresh = await claimInbox(tx, {
          schema: 'svc',
          handler: 'probe.batch',
          eventIds: items.map((i) => i.event.id),
        });
        const result: ('duplicate' | undefined)[] = [];
        for (const { event } of items) {
          if (!fresh.delete(event.id)) {
            result.push('duplicate');
            continue;
          }
          await tx.$executeRawUnsafe('INSERT INTO svc.effects (event_id) VALUES ($1::uuid)', event.id);
          result.push(undefined);
        }
        return result;
      });
    };

  const effectCount = async () =>
    Number((await pg.pool.query<{ n: string }>('SELECT count(*) AS n FROM svc.effects')).rows[0]?.n);

  it('gathers messages into batches, applies each once and acks them all', async () => {
    const seen = { sizes: [] as number[] };
    const outcomes: string[] = [];
    const metrics: EventMetrics = { consumed: (m) => void outcomes.push(m.outcome) };
    const bus = await startBus({ metrics }, (b) =>
      b.subscribeBatch([UserCreated, UserStatusChanged], applyOnce(seen), { maxMessages: 25, lingerMs: 30 }),
    );
    const events = Array.from({ length: 100 }, () => sampleEvent(UserCreated, { userId: randomUUID() }));
    await Promise.all(events.map((e) => publisher.publish(e)));
    await waitFor(async () => (await effectCount()) === 100, { timeoutMs: 15_000, message: '100 effects' });
    expect(Math.max(...seen.sizes)).toBeGreaterThan(1);
    expect(Math.max(...seen.sizes)).toBeLessThanOrEqual(25);
    await waitForExpect(() => expect(outcomes).toHaveLength(100));
    expect(outcomes.every((o) => o === 'ack')).toBe(true);
    expect(bus.subscribedTypes().sort()).toEqual(['user.created.v1', 'user.status-changed.v1']);
    // Every message acked (multiple acks): nothing comes back on a new consumer.
    await bus.close();
    buses.splice(buses.indexOf(bus), 1);
    expect(await admin.messageCount(`${prefix}batchprobe`)).toBe(0);
    await admin.cleanup(prefix, { services: ['batchprobe'], retryDelaysMs: bus.retryPolicy.delaysMs });
  });

  it('applies an event once when it comes twice in one batch and again in a later batch', async () => {
    const seen = { sizes: [] as number[] };
    const duplicates: boolean[] = [];
    const metrics: EventMetrics = { consumed: (m) => void duplicates.push(m.duplicate) };
    await startBus({ metrics }, (b) =>
      b.subscribeBatch([UserCreated], applyOnce(seen), { maxMessages: 50, lingerMs: 200 }),
    );
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    const others = Array.from({ length: 5 }, () => sampleEvent(UserCreated, { userId: randomUUID() }));
    await Promise.all([event, event, ...others, event].map((e) => publisher.publish(e)));
    await waitForExpect(() => expect(duplicates).toHaveLength(8), { timeoutMs: 10_000 });
    await publisher.publish(event); // a later redelivery
    await waitForExpect(() => expect(duplicates).toHaveLength(9), { timeoutMs: 10_000 });
    expect(duplicates.filter(Boolean)).toHaveLength(3);
    expect(await effectCount()).toBe(6);
  });

  it('handles a failing batch one message at a time: the bad one is dead-lettered alone, the rest applied', async () => {
    const seen = { sizes: [] as number[] };
    const poison = sampleEvent(UserCreated, { userId: randomUUID(), username: 'poison' });
    const bus = await startBus({}, (b) =>
      b.subscribeBatch(
        [UserCreated],
        applyOnce<UserEvent>(seen, (items) => {
          if (items.some((i) => i.event.data.username === 'poison')) {
            // Alone it is known to be bad; in a batch the batch just fails.
            if (items.length === 1) throw new NonRetryableError('bad data');
            throw new Error('batch failed');
          }
        }),
        { maxMessages: 20, lingerMs: 200 },
      ),
    );
    const good = Array.from({ length: 10 }, () => sampleEvent(UserCreated, { userId: randomUUID() }));
    await Promise.all([...good.slice(0, 5), poison, ...good.slice(5)].map((e) => publisher.publish(e)));
    await waitFor(async () => (await effectCount()) === 10, { timeoutMs: 10_000, message: '10 effects' });
    await waitForExpect(async () => expect(await admin.messageCount(bus.topology.deadLetterQueue)).toBe(1));
    const dead = await admin.drain(bus.topology.deadLetterQueue);
    expect(JSON.parse(dead[0]?.content.toString() ?? '{}').id).toBe(poison.id);
    expect(seen.sizes.some((n) => n > 1)).toBe(true);
    expect(seen.sizes.filter((n) => n === 1).length).toBeGreaterThanOrEqual(11);
  });

  it('retries a message whose batch and single attempt fail for a while, then applies it', async () => {
    const seen = { sizes: [] as number[] };
    let failuresLeft = 2;
    const flaky = sampleEvent(UserCreated, { userId: randomUUID(), username: 'flaky' });
    await startBus({ retry: { delaysMs: [100, 100, 100] } }, (b) =>
      b.subscribeBatch(
        [UserCreated],
        applyOnce<UserEvent>(seen, (items) => {
          if (
            items.some((i) => i.event.data.username === 'flaky') &&
            items.length === 1 &&
            failuresLeft-- > 0
          )
            throw new Error('database hiccup');
          if (items.some((i) => i.event.data.username === 'flaky') && items.length > 1)
            throw new Error('batch failed');
        }),
        { maxMessages: 10, lingerMs: 100 },
      ),
    );
    const good = Array.from({ length: 4 }, () => sampleEvent(UserCreated, { userId: randomUUID() }));
    await Promise.all([flaky, ...good].map((e) => publisher.publish(e)));
    await waitFor(async () => (await effectCount()) === 5, { timeoutMs: 15_000, message: '5 effects' });
    expect(failuresLeft).toBeLessThanOrEqual(0);
  });

  it('shares the queue between two consumers (competing), each event applied once', async () => {
    const a = { sizes: [] as number[] };
    const b = { sizes: [] as number[] };
    await startBus({}, (bus) =>
      bus.subscribeBatch([UserCreated], applyOnce(a), { maxMessages: 10, lingerMs: 20 }),
    );
    await startBus({}, (bus) =>
      bus.subscribeBatch([UserCreated], applyOnce(b), { maxMessages: 10, lingerMs: 20 }),
    );
    const events = Array.from({ length: 200 }, () => sampleEvent(UserCreated, { userId: randomUUID() }));
    await Promise.all(events.map((e) => publisher.publish(e)));
    await waitFor(async () => (await effectCount()) === 200, { timeoutMs: 15_000, message: '200 effects' });
    const sum = (s: number[]) => s.reduce((x, y) => x + y, 0);
    expect(sum(a.sizes) + sum(b.sizes)).toBe(200);
    expect(sum(a.sizes)).toBeGreaterThan(0);
    expect(sum(b.sizes)).toBeGreaterThan(0);
  });

  it('runs two batches at once and still acks every message exactly once, in delivery order', async () => {
    const seen = { sizes: [] as number[] };
    let calls = 0;
    const inner = applyOnce(seen);
    const bus = await startBus({}, (b) =>
      b.subscribeBatch(
        [UserCreated],
        async (items) => {
          // The first batch is slow: the second finishes first and must wait for it before its multiple ack.
          if (calls++ === 0) await new Promise((r) => setTimeout(r, 300));
          return inner(items);
        },
        { maxMessages: 10, lingerMs: 20, concurrency: 2 },
      ),
    );
    const events = Array.from({ length: 60 }, () => sampleEvent(UserCreated, { userId: randomUUID() }));
    await Promise.all(events.map((e) => publisher.publish(e)));
    await waitFor(async () => (await effectCount()) === 60, { timeoutMs: 15_000, message: '60 effects' });
    await bus.close();
    buses.splice(buses.indexOf(bus), 1);
    // Nothing unacked went back to the queue when the channel closed.
    expect(await admin.messageCount(`${prefix}batchprobe`)).toBe(0);
    await admin.cleanup(prefix, { services: ['batchprobe'], retryDelaysMs: bus.retryPolicy.delaysMs });
  });

  it('refuses a contract subscribed both ways, and batch subscriptions after start', async () => {
    const bus = await startBus({}, (b) => {
      b.subscribeBatch([UserCreated], async () => undefined);
      expect(() => b.subscribe(UserCreated, async () => undefined)).toThrow(/already subscribed in batches/);
    });
    expect(() => bus.subscribeBatch([UserStatusChanged], async () => undefined)).toThrow(/before start/);
  });

  it('exports lag, queue depth and the outbox backlog as Prometheus metrics', async () => {
    const registry = new Registry();
    const bus = createEventBus({ url: amqpUrl, service: 'batchprobe', prefix, logger });
    buses.push(bus);
    const outboxPublisher = createPublisher({ url: amqpUrl, prefix, logger, name: 'batch-test-relay' });
    const relay = createOutboxRelay({ db: pg.db, schema: 'svc', publisher: outboxPublisher, logger });
    registerPipelineMetrics({ registry, relay, bus });
    const seen = { sizes: [] as number[] };
    bus.subscribeBatch([UserCreated], applyOnce(seen), { maxMessages: 10, lingerMs: 10 });
    await bus.start({ timeoutMs: 10_000 });
    const value = async (name: string, labels: Record<string, string> = {}) => {
      // Histograms list their series under the base name (metricName: *_bucket, *_count, *_sum).
      const values = (await registry.getMetricsAsJSON()).flatMap((m) =>
        m.values.map((v) => ({ ...v, name: (v as { metricName?: string }).metricName ?? m.name })),
      );
      const v = values.find(
        (x) => x.name === name && Object.entries(labels).every(([k, l]) => String(x.labels[k]) === l),
      );
      return v?.value;
    };

    // Events written to the outbox wait there (backlog, age) until the relay publishes them.
    const outbox = createOutbox({ schema: 'svc' });
    const old = sampleEvent(UserCreated, {
      userId: randomUUID(),
    });
    const events = [
      { ...old, occurredAt: new Date(Date.now() - 5_000).toISOString() },
      ...Array.from({ length: 4 }, () => sampleEvent(UserCreated, { userId: randomUUID() })),
    ];
    await pg.db.$transaction((tx) => outbox.enqueue(tx, events));
    await pg.pool.query(`UPDATE svc.outbox_events SET created_at = now() - interval '3 seconds'`);
    expect(await value('outbox_backlog_events')).toBe(5);
    expect(await value('outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(3);
    expect(await value('event_consumer_queue_depth')).toBe(0);
    expect(await value('event_consumer_oldest_unhandled_age_seconds')).toBe(0);

    await relay.runOnce();
    afterCleanup.push(() => outboxPublisher.close());
    await waitFor(async () => (await effectCount()) === 5, { timeoutMs: 10_000, message: '5 effects' });
    await new Promise((r) => setTimeout(r, 1100)); // the scrape-time reads are shared for a second
    expect(await value('outbox_backlog_events')).toBe(0);
    expect(await value('outbox_oldest_pending_age_seconds')).toBe(0);
    expect(await value('outbox_published_events_total')).toBe(5);
    expect(await value('event_consumer_messages_total', { type: 'user.created.v1', outcome: 'ack' })).toBe(5);
    expect(await value('event_consumer_lag_seconds_count', { outcome: 'ack' })).toBe(5);
    // The backdated event was about 5 s old when handled.
    expect(await value('event_consumer_lag_seconds_bucket', { outcome: 'ack', le: '2' })).toBe(4);
  });
});
