import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  assertExchanges,
  exchangeNames,
  parseEnvelope,
  type AmqpConnection,
  type AnyContract,
  type EventOf,
  type ManagedChannel,
  type ManagedChannelOptions,
} from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import { contextFrom, inSpan, SpanKind } from '@tyres/telemetry';

type ConfirmChannel = Parameters<NonNullable<ManagedChannelOptions['setup']>>[0];
type ConsumeMessage = NonNullable<Parameters<Parameters<ConfirmChannel['consume']>[1]>[0]>;

/**
 * The dashboard fan-out. Every replica must see every event, because each one serves its own WebSocket clients,
 * so besides the durable competing-consumer `notify` queue (SMS/email work, once per event) each replica binds its
 * own exclusive, auto-delete, non-durable queue to the events exchange. RabbitMQ copies each event into every such
 * queue; the queue disappears with the replica's connection.
 *
 * Delivery here is deliberately at most once (noAck): a notification is only useful live, nothing is persisted,
 * and a replica that reconnects to RabbitMQ gets a fresh queue (events during the gap are not replayed; dashboards
 * refetch their lists anyway). Redelivered duplicates (the outbox relay is at least once) are dropped by event id.
 */
export interface LiveFeedOptions {
  connection: AmqpConnection;
  prefix: string;
  logger: Logger;
  /** How long an event may wait in a replica's queue before it is stale and dropped (default 60 s). */
  messageTtlMs?: number;
  /** Queue length cap (oldest dropped) if this replica stalls (default 10 000). */
  maxLength?: number;
  metrics?: { received(type: string, outcome: 'handled' | 'duplicate' | 'invalid' | 'failed'): void };
}

export interface LiveFeed {
  /** A handler may be async (it reads notify's booking record); its failure is logged, never retried. */
  on<C extends AnyContract>(contract: C, handler: (event: EventOf<C>) => void | Promise<void>): void;
  start(): void;
  isReady(): boolean;
  /** The current queue's name (diagnostics, tests). */
  readonly queueName: string | undefined;
  close(): Promise<void>;
}

const SEEN_CAPACITY = 10_000;

export function createLiveFeed(options: LiveFeedOptions): LiveFeed {
  const log = options.logger.child({ component: 'live-feed' });
  const handlers = new Map<string, (event: never) => void | Promise<void>>();
  const seen = new Set<string>();
  const instance = `${hostname()
    .replace(/[^A-Za-z0-9-]/g, '')
    .slice(0, 40)}-${process.pid}-${randomBytes(3).toString('hex')}`;
  let generation = 0;
  let queueName: string | undefined;
  let channel: ManagedChannel | undefined;

  function remember(id: string): boolean {
    if (seen.has(id)) return false;
    seen.add(id);
    if (seen.size > SEEN_CAPACITY) {
      // Sets iterate in insertion order: drop the oldest.
      const oldest = seen.values().next().value;
      if (oldest !== undefined) seen.delete(oldest);
    }
    return true;
  }

  function onMessage(msg: ConsumeMessage | null): void {
    if (!msg) {
      log.warn({ queue: queueName }, 'live feed consumer cancelled by the broker; re-subscribing');
      channel?.reopen();
      return;
    }
    let type = msg.fields.routingKey;
    try {
      const { envelope } = parseEnvelope(msg.content);
      type = envelope.type;
      if (!remember(envelope.id)) {
        options.metrics?.received(type, 'duplicate');
        return;
      }
      const handler = handlers.get(envelope.type);
      if (!handler) return;
      // The live push continues the event's trace: a consumer span, child of the publish span in the headers.
      const result = inSpan(
        `${envelope.type} live`,
        {
          kind: SpanKind.CONSUMER,
          parent: contextFrom(msg.properties.headers),
          attributes: {
            'messaging.system': 'rabbitmq',
            'messaging.operation.type': 'process',
            'messaging.destination.name': queueName ?? '',
            'messaging.message.id': envelope.id,
            'tyres.correlation_id': envelope.correlationId,
          },
        },
        () => handler(envelope as never),
      );
      if (result instanceof Promise) {
        const eventType = type;
        result.then(
          () => options.metrics?.received(eventType, 'handled'),
          (err: unknown) => {
            options.metrics?.received(eventType, 'failed');
            log.warn(
              { err: (err as Error).message, routingKey: msg.fields.routingKey },
              'live notification failed',
            );
          },
        );
        return;
      }
      options.metrics?.received(type, 'handled');
    } catch (err) {
      const invalid = err instanceof Error && err.name === 'EventParseError';
      options.metrics?.received(type, invalid ? 'invalid' : 'failed');
      log.warn(
        { err: (err as Error).message, routingKey: msg.fields.routingKey },
        invalid ? 'invalid event ignored' : 'live notification failed',
      );
    }
  }

  async function setup(ch: ConfirmChannel): Promise<void> {
    await assertExchanges(ch, options.prefix);
    // A new name per channel: after a connection loss the broker may not have removed the old exclusive queue yet.
    generation += 1;
    const name = `${options.prefix}notify.live.${instance}.${generation}`;
    await ch.assertQueue(name, {
      exclusive: true,
      autoDelete: true,
      durable: false,
      arguments: {
        'x-queue-type': 'classic',
        'x-message-ttl': options.messageTtlMs ?? 60_000,
        'x-max-length': options.maxLength ?? 10_000,
        'x-overflow': 'drop-head',
      },
    });
    const { exchange } = exchangeNames(options.prefix);
    for (const type of handlers.keys()) await ch.bindQueue(name, exchange, type);
    await ch.consume(name, onMessage, { noAck: true, exclusive: true });
    queueName = name;
    log.info({ queue: name, types: [...handlers.keys()] }, 'live feed consuming');
  }

  return {
    on(contract, handler) {
      if (channel) throw new Error('Subscribe to the live feed before start()');
      handlers.set(contract.type, handler as (event: never) => void | Promise<void>);
    },
    start() {
      channel ??= options.connection.channel({ name: 'live-feed', setup });
    },
    isReady: () => channel?.isReady() ?? false,
    get queueName() {
      return queueName;
    },
    async close() {
      await channel?.close();
    },
  };
}
