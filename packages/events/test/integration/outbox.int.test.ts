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
  createRabbitAdmin,
  getAmqpUrl,
  sleep,
  startTcpProxy,
  uniquePrefix,
  waitFor,
  waitForExpect,
  type RabbitAdmin,
} from '@tyres/testkit';
import { randomUUID } from 'node:crypto';
import { sampleEvent } from '../fixtures';
import { counter, setupPg, testLogger, type PgFixture } from './helpers';

const logger = testLogger();
jest.setTimeout(60_000);

interface OutboxRow {
  id: string;
  attempts: number;
  last_error: string | null;
  published_at: Date | null;
}

describe('transactional outbox + relay', () => {
  let pg: PgFixture;
  let amqpUrl: string;
  let admin: RabbitAdmin;
  let prefix: string;
  let bus: EventBus;
  const received = counter();
  const closers: (() => Promise<void>)[] = [];
  const outbox = createOutbox({ schema: 'svc' });

  const rows = async () =>
    (
      await pg.pool.query<OutboxRow>(
        'SELECT id, attempts, last_error, published_at FROM svc.outbox_events ORDER BY created_at, id',
      )
    ).rows;

  const userEvents = (n: number) =>
    Array.from({ length: n }, () => sampleEvent(UserCreated, { userId: randomUUID() }));

  beforeAll(async () => {
    pg = await setupPg('events-outbox');
    amqpUrl = await getAmqpUrl();
    admin = await createRabbitAdmin(amqpUrl);
    prefix = uniquePrefix('outbox');
    bus = createEventBus({ url: amqpUrl, service: 'probe', prefix, logger, retry: { delaysMs: [100] } });
    bus.subscribe(UserCreated, async (event) => {
      received.add(event.id);
    });
    await bus.start();
  });

  afterEach(async () => {
    while (closers.length) await (closers.pop() as () => Promise<void>)();
    await pg.pool.query('TRUNCATE svc.outbox_events');
  });

  afterAll(async () => {
    await bus?.close();
    await admin?.cleanup(prefix, { services: ['probe'], retryDelaysMs: bus?.retryPolicy.delaysMs });
    await admin?.close();
    await pg?.close();
  });

  function publisher(url: string, extra: Partial<Parameters<typeof createPublisher>[0]> = {}): Publisher {
    const p = createPublisher({ url, prefix, logger, name: 'outbox-test-publisher', ...extra });
    closers.push(() => p.close());
    return p;
  }

  it('keeps rows pending while the broker is unreachable, then publishes each exactly once', async () => {
    const events = userEvents(5);
    await pg.db.$transaction((tx) => outbox.enqueue(tx, events));

    // A publisher pointed at a port where no broker listens: every publish fails fast.
    const dead = publisher('amqp://guest:guest@127.0.0.1:5999', {
      connectTimeoutMs: 300,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    const downRelay = createOutboxRelay({
      db: pg.db,
      schema: 'svc',
      publisher: dead,
      logger,
      backoff: { initialMs: 10, maxMs: 50 },
    });
    await expect(downRelay.runOnce()).resolves.toEqual({ published: 0, failed: 5 });
    await sleep(20);
    await expect(downRelay.runOnce()).resolves.toEqual({ published: 0, failed: 5 });
    for (const row of await rows()) {
      expect(row.published_at).toBeNull();
      expect(row.attempts).toBe(2);
      expect(row.last_error).toMatch(/RabbitMQ unavailable/);
    }
    expect(received.total).toBe(0);

    // The broker is back (a relay with a working publisher): everything goes out.
    const relay = createOutboxRelay({
      db: pg.db,
      schema: 'svc',
      publisher: publisher(amqpUrl),
      logger,
      intervalMs: 25,
    });
    relay.start();
    closers.push(() => relay.stop());
    await waitForExpect(async () => expect((await rows()).every((r) => r.published_at !== null)).toBe(true), {
      timeoutMs: 10_000,
    });
    await waitForExpect(() => expect(received.total).toBe(5), { timeoutMs: 10_000 });
    await sleep(300); // nothing else arrives
    expect(received.total).toBe(5);
    for (const e of events) expect(received.count(e.id)).toBe(1);
  });

  it('a running relay survives a broker outage and catches up when it returns', async () => {
    const proxy = await startTcpProxy(amqpUrl);
    closers.push(() => proxy.close());
    const relay = createOutboxRelay({
      db: pg.db,
      schema: 'svc',
      publisher: publisher(proxy.rewrite(amqpUrl), {
        connectTimeoutMs: 200,
        confirmTimeoutMs: 1000,
        reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      }),
      logger,
      intervalMs: 25,
      backoff: { initialMs: 50, maxMs: 200 },
    });
    relay.start();
    closers.push(() => relay.stop());

    const before = userEvents(3);
    await pg.db.$transaction((tx) => outbox.enqueue(tx, before));
    relay.wake();
    await waitForExpect(() => before.forEach((e) => expect(received.count(e.id)).toBe(1)), {
      timeoutMs: 10_000,
    });

    await proxy.pause(); // broker "down"
    const during = userEvents(4);
    await pg.db.$transaction((tx) => outbox.enqueue(tx, during));
    relay.wake();
    await waitForExpect(
      async () => {
        const pending = (await rows()).filter((r) => r.published_at === null);
        expect(pending).toHaveLength(4);
        expect(pending.every((r) => r.attempts >= 1 && r.last_error)).toBe(true);
      },
      { timeoutMs: 10_000 },
    );
    for (const e of during) expect(received.count(e.id)).toBe(0);

    await proxy.resume(); // broker back: the same publisher reconnects, the relay catches up
    await waitForExpect(() => during.forEach((e) => expect(received.count(e.id)).toBe(1)), {
      timeoutMs: 15_000,
    });
    await waitForExpect(async () => expect((await rows()).every((r) => r.published_at !== null)).toBe(true));
    await sleep(300);
    for (const e of [...before, ...during]) expect(received.count(e.id)).toBe(1);
  });

  it('never publishes an event whose transaction rolled back', async () => {
    const rolledBack = sampleEvent(UserCreated, { userId: randomUUID() });
    const committed = sampleEvent(UserCreated, { userId: randomUUID() });
    await expect(
      pg.db.$transaction(async (tx) => {
        await outbox.enqueue(tx, rolledBack);
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    await pg.db.$transaction((tx) => outbox.enqueue(tx, committed));

    const relay = createOutboxRelay({ db: pg.db, schema: 'svc', publisher: publisher(amqpUrl), logger });
    await expect(relay.runOnce()).resolves.toEqual({ published: 1, failed: 0 });
    await expect(relay.runOnce()).resolves.toEqual({ published: 0, failed: 0 });
    await waitForExpect(() => expect(received.count(committed.id)).toBe(1));
    await sleep(300);
    expect(received.count(rolledBack.id)).toBe(0);
    expect((await rows()).map((r) => r.id)).toEqual([committed.id]);
  });

  it('refuses to enqueue an invalid event (the transaction fails instead)', async () => {
    const bad = { ...sampleEvent(UserCreated), data: { userId: 'not-a-uuid' } };
    await expect(pg.db.$transaction((tx) => outbox.enqueue(tx, bad))).rejects.toThrow(
      /Invalid user.created.v1 data/,
    );
    expect(await rows()).toHaveLength(0);
  });

  it('several relay replicas share the work without publishing a row twice (SKIP LOCKED)', async () => {
    const events = userEvents(120);
    await pg.db.$transaction((tx) => outbox.enqueue(tx, events));
    const pub = publisher(amqpUrl);
    const relays = [1, 2, 3].map(() =>
      createOutboxRelay({ db: pg.db, schema: 'svc', publisher: pub, logger, batchSize: 10, intervalMs: 10 }),
    );
    relays.forEach((r) => {
      r.start();
      closers.push(() => r.stop());
    });
    await waitForExpect(() => events.forEach((e) => expect(received.count(e.id)).toBe(1)), {
      timeoutMs: 15_000,
    });
    await sleep(300);
    for (const e of events) expect(received.count(e.id)).toBe(1);
    expect((await rows()).filter((r) => r.published_at === null)).toHaveLength(0);
  });

  it('wake() publishes right after a commit, stop() waits for the running batch', async () => {
    const relay = createOutboxRelay({
      db: pg.db,
      schema: 'svc',
      publisher: publisher(amqpUrl),
      logger,
      intervalMs: 60_000, // only wake() can make it run again
    });
    relay.start();
    await sleep(100); // first (empty) pass done, now sleeping for a minute
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    await pg.db.$transaction((tx) => outbox.enqueue(tx, event));
    relay.wake();
    await waitFor(() => received.count(event.id) === 1, { timeoutMs: 5000 });
    await relay.stop();
    expect(relay.isRunning()).toBe(false);
  });

  it('with the default idle poll (1 s), a row written by another process is published within the lag budget (2 s)', async () => {
    // The writer is not this relay's process: no wake(), no expectSoon(), only the fallback poll finds its rows.
    expect(process.env.OUTBOX_RELAY_POLL_MS).toBeUndefined();
    const relay = createOutboxRelay({ db: pg.db, schema: 'svc', publisher: publisher(amqpUrl), logger });
    relay.start();
    closers.push(() => relay.stop());
    await sleep(200);
    const foreign = createOutbox({ schema: 'svc' });
    const lags: number[] = [];
    for (let i = 0; i < 4; i++) {
      await sleep(150 + Math.random() * 700);
      const event = sampleEvent(UserCreated, { userId: randomUUID() });
      await pg.db.$transaction((tx) => foreign.enqueue(tx, event));
      const committed = Date.now();
      await waitFor(() => received.count(event.id) === 1, { timeoutMs: 5000, intervalMs: 10 });
      lags.push(Date.now() - committed);
    }
    expect(Math.max(...lags)).toBeLessThan(2000);
  });

  it('expectSoon() (an enqueue in this process) shortens the idle poll: published without a wake()', async () => {
    const relay = createOutboxRelay({
      db: pg.db,
      schema: 'svc',
      publisher: publisher(amqpUrl),
      logger,
      intervalMs: 60_000,
      soonIntervalMs: 100,
    });
    const local = createOutbox({ schema: 'svc', onEnqueue: () => relay.expectSoon() });
    relay.start();
    closers.push(() => relay.stop());
    await sleep(100); // first (empty) pass done, now sleeping for a minute
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    await pg.db.$transaction((tx) => local.enqueue(tx, event));
    const committed = Date.now();
    await waitFor(() => received.count(event.id) === 1, { timeoutMs: 5000, intervalMs: 10 });
    expect(Date.now() - committed).toBeLessThan(1000);
  });
});
