import {
  createEventBus,
  createPublisher,
  inboxHandler,
  UserCreated,
  type AmqpConnection,
  type EventBus,
  type Publisher,
} from '@tyres/events';
import {
  closeConnectionsNamed,
  createRabbitAdmin,
  getAmqpUrl,
  rabbitmqctlAvailable,
  sleep,
  uniquePrefix,
  waitFor,
  waitForExpect,
  type RabbitAdmin,
} from '@tyres/testkit';
import type { Socket } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { sampleEvent } from '../fixtures';
import { counter, setupPg, testLogger, type PgFixture } from './helpers';

const logger = testLogger();
jest.setTimeout(60_000);

/** Cuts the TCP connection under amqplib like a network failure (ECONNRESET, no AMQP close handshake). */
function destroySocket(connection: AmqpConnection): void {
  const model = connection.current as unknown as { connection: { stream: Socket } } | undefined;
  if (!model) throw new Error('not connected');
  model.connection.stream.destroy(
    Object.assign(new Error('read ECONNRESET (simulated)'), { code: 'ECONNRESET' }),
  );
}

function connectionCounter(connection: AmqpConnection): {
  readonly connects: number;
  readonly disconnects: number;
} {
  const c = { connects: 0, disconnects: 0 };
  connection.on('connected', () => void (c.connects += 1));
  connection.on('disconnected', () => void (c.disconnects += 1));
  return c;
}

describe('reconnect', () => {
  let amqpUrl: string;
  let admin: RabbitAdmin;
  let prefix: string;
  let publisher: Publisher;
  let bus: EventBus | undefined;
  let service: string;
  const received = counter();
  const fast = { reconnect: { initialDelayMs: 50, maxDelayMs: 500 } };

  beforeAll(async () => {
    amqpUrl = await getAmqpUrl();
    admin = await createRabbitAdmin(amqpUrl);
  });

  beforeEach(() => {
    prefix = uniquePrefix('reconnect');
    service = `rc-${randomBytes(3).toString('hex')}`;
    publisher = createPublisher({ url: amqpUrl, prefix, logger, name: `${service}-publisher`, ...fast });
  });

  afterEach(async () => {
    await bus?.close();
    if (bus)
      await admin.cleanup(prefix, { services: [bus.service], retryDelaysMs: bus.retryPolicy.delaysMs });
    bus = undefined;
    await publisher.close();
  });

  afterAll(async () => {
    await admin?.close();
  });

  async function startBus(): Promise<EventBus> {
    bus = createEventBus({ url: amqpUrl, service, prefix, logger, ...fast });
    bus.subscribe(UserCreated, async (event) => {
      received.add(event.id);
    });
    await bus.start({ timeoutMs: 10_000 });
    return bus;
  }

  async function roundTrip(): Promise<void> {
    const event = sampleEvent(UserCreated, { userId: randomUUID() });
    await publisher.publish(event);
    await waitFor(() => received.count(event.id) === 1, { timeoutMs: 10_000, message: 'event not received' });
  }

  it('keeps consuming after the connection is cut (socket destroyed)', async () => {
    const b = await startBus();
    const stats = connectionCounter(b.connection);
    await roundTrip();

    destroySocket(b.connection);
    await waitFor(() => stats.disconnects === 1 && stats.connects === 1 && b.isReady(), {
      timeoutMs: 10_000,
    });
    await roundTrip();

    // Twice more, to be sure the re-created consumer is a full one.
    destroySocket(b.connection);
    await waitFor(() => stats.connects === 2 && b.isReady(), { timeoutMs: 10_000 });
    await roundTrip();
  });

  it('keeps consuming after the broker closes the connection (rabbitmqctl close_connection)', async () => {
    if (!(await rabbitmqctlAvailable())) {
      console.warn('rabbitmqctl not available for this broker; skipping the server-side close variant');
      return;
    }
    const b = await startBus();
    const stats = connectionCounter(b.connection);
    await roundTrip();
    expect(await closeConnectionsNamed(`${service}-consumer`)).toBe(1);
    await waitFor(() => stats.connects === 1 && b.isReady(), { timeoutMs: 15_000 });
    await roundTrip();
  });

  it('re-subscribes when the broker cancels the consumer (queue deleted)', async () => {
    const b = await startBus();
    await roundTrip();
    await admin.deleteQueue(b.topology.queue);
    // The bus re-declares its queue and bindings on a new channel and consumes again.
    await waitForExpect(async () => expect(await admin.queueExists(b.topology.queue)).toBe(true), {
      timeoutMs: 10_000,
    });
    await waitFor(() => b.isReady(), { timeoutMs: 10_000 });
    await roundTrip();
  });

  it('the publisher reconnects too', async () => {
    await startBus();
    await roundTrip();
    const stats = connectionCounter(publisher.connection);
    destroySocket(publisher.connection);
    // publish() waits (up to connectTimeoutMs) for the new channel instead of failing.
    await roundTrip();
    expect(stats.connects).toBe(1);
  });

  describe('with an inbox', () => {
    let pg: PgFixture;

    beforeAll(async () => {
      pg = await setupPg('events-reconnect', 'svc', 'CREATE TABLE svc.effects (event_id uuid not null)');
    });

    afterAll(async () => {
      await pg?.close();
    });

    it('an event redelivered after a lost ack is applied once', async () => {
      const outcomes: string[] = [];
      bus = createEventBus({
        url: amqpUrl,
        service,
        prefix,
        logger,
        ...fast,
        metrics: { consumed: (m) => void outcomes.push(m.duplicate ? 'duplicate' : m.outcome) },
      });
      const b = bus;
      const deliveries: boolean[] = [];
      let cut = false;
      b.subscribe(
        UserCreated,
        inboxHandler(
          pg.db,
          `${service}.onUserCreated`,
          async (tx, event, ctx) => {
            deliveries.push(ctx.redelivered);
            await tx.$executeRawUnsafe('INSERT INTO svc.effects (event_id) VALUES ($1)', event.id);
          },
          { schema: 'svc' },
        ),
      );
      // Cut the connection after the effect committed but before the ack could be sent.
      b.subscribe(UserCreated, async () => {
        if (!cut) {
          cut = true;
          destroySocket(b.connection);
        }
      });
      await b.start({ timeoutMs: 10_000 });
      const event = sampleEvent(UserCreated, { userId: randomUUID() });
      await publisher.publish(event);
      await waitFor(() => deliveries.length === 1, { timeoutMs: 10_000 });
      // The broker redelivers; the inbox handler sees it was handled and skips the effect.
      await waitFor(() => outcomes.includes('duplicate'), { timeoutMs: 10_000 });
      await sleep(300);
      expect(await admin.messageCount(b.topology.queue)).toBe(0);
      const rows = await pg.pool.query('SELECT event_id FROM svc.effects');
      expect(rows.rows).toEqual([{ event_id: event.id }]);
      const inbox = await pg.pool.query('SELECT count(*)::int AS n FROM svc.inbox_events');
      expect(inbox.rows[0]).toEqual({ n: 1 });
      expect(deliveries).toEqual([false]); // the effect ran once; the redelivery was skipped by the inbox
    });
  });
});
