import type { ConfirmChannel, Options } from 'amqplib';
import {
  context,
  contextFrom,
  injectInto,
  recordFailure,
  SpanKind,
  trace,
  tracer,
  type TraceCarrier,
} from '@tyres/telemetry';
import { AmqpConnection, type ManagedChannel, type ReconnectOptions } from './connection';
import type { EventEnvelope } from './envelope';
import { noopLogger, type Logger } from './logger';
import { callMetric, type EventMetrics } from './metrics';
import { parseEnvelope, type ContractRegistry } from './registry';
import { assertExchanges, exchangeNames, HEADERS } from './topology';
import { contracts } from './contracts';

export interface PublisherOptions {
  /** Broker URL; the publisher then owns its connection (named `${name}`). */
  url?: string;
  /** Or share an existing connection (the publisher then never closes it). */
  connection?: AmqpConnection;
  /** Connection name shown in RabbitMQ, e.g. "jobs-publisher" (default "publisher"). */
  name?: string;
  /** EVENT_PREFIX. */
  prefix?: string;
  logger?: Logger;
  /** How long `publish` waits for a usable channel while disconnected before failing (default 5000 ms). */
  connectTimeoutMs?: number;
  /** How long `publish` waits for the broker's confirm (default 10000 ms). */
  confirmTimeoutMs?: number;
  /** Validate every envelope against the registry before sending (default true). */
  validate?: boolean;
  registry?: ContractRegistry;
  metrics?: EventMetrics;
  heartbeatSeconds?: number;
  reconnect?: ReconnectOptions;
}

export interface PublishOptions {
  /**
   * The trace this message continues (the outbox row's `trace_context`); by default the active one. The message
   * carries the publish span's `traceparent` in its headers.
   */
  trace?: TraceCarrier | undefined;
  /**
   * The envelope was validated against its contract when it was written (the outbox relay: `enqueue` parses every
   * event before inserting its row), so `publish` does not parse it a second time. Consumers still validate what
   * they receive.
   */
  validated?: boolean;
}

export interface Publisher {
  /** The connection used (owned by the publisher when it was created with a url). */
  readonly connection: AmqpConnection;
  /** Resolves once the broker has confirmed the (persistent) message; rejects otherwise. */
  publish(envelope: EventEnvelope, options?: PublishOptions): Promise<void>;
  /** True while a confirm channel is open. */
  isReady(): boolean;
  close(): Promise<void>;
}

/**
 * AMQP properties for an envelope: persistent, messageId = event id, ids also in headers, and the W3C trace
 * context of `traceContext` (default: the active span) as `traceparent`/`tracestate` headers.
 */
export function messageProperties(envelope: EventEnvelope, traceContext = context.active()): Options.Publish {
  const headers: Record<string, unknown> = {
    [HEADERS.eventId]: envelope.id,
    [HEADERS.eventType]: envelope.type,
    [HEADERS.correlationId]: envelope.correlationId,
  };
  if (envelope.causationId !== undefined) headers[HEADERS.causationId] = envelope.causationId;
  injectInto(headers, traceContext);
  const occurred = Date.parse(envelope.occurredAt);
  return {
    persistent: true,
    messageId: envelope.id,
    correlationId: envelope.correlationId,
    type: envelope.type,
    appId: envelope.source,
    contentType: 'application/json',
    contentEncoding: 'utf-8',
    timestamp: Number.isFinite(occurred) ? Math.floor(occurred / 1000) : Math.floor(Date.now() / 1000),
    headers,
  };
}

/** Publishes on a confirm channel and waits for the broker's ack. */
export function publishConfirmed(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
  timeoutMs: number,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      reject(new Error(`No publisher confirm within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = (err: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err)
        reject(err instanceof Error ? err : new Error(`Broker refused the message (nack): ${String(err)}`));
      else resolve();
    };
    try {
      channel.publish(exchange, routingKey, content, options, (err) => done(err));
    } catch (err) {
      done(err ?? new Error('publish failed'));
    }
  });
}

function isChannelClosed(err: unknown): boolean {
  const e = err as { name?: string; message?: string } | null;
  return (
    e?.name === 'IllegalOperationError' || /\b(channel|connection) (is )?closed\b/i.test(e?.message ?? '')
  );
}

export function createPublisher(options: PublisherOptions): Publisher {
  if (!options.connection && !options.url) throw new Error('createPublisher needs a url or a connection');
  const prefix = options.prefix ?? '';
  const logger = (options.logger ?? noopLogger).child({ component: 'publisher' });
  const ownsConnection = !options.connection;
  const connection =
    options.connection ??
    new AmqpConnection({
      url: options.url as string,
      name: options.name ?? 'publisher',
      logger: options.logger ?? noopLogger,
      ...(options.heartbeatSeconds !== undefined ? { heartbeatSeconds: options.heartbeatSeconds } : {}),
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    });
  const { exchange } = exchangeNames(prefix);
  const registry: ContractRegistry = options.registry ?? contracts;
  const validate = options.validate ?? true;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 10_000;

  const channel: ManagedChannel = connection.channel({
    name: 'publish',
    setup: (ch) => assertExchanges(ch, prefix),
    ...(options.reconnect ? { reconnect: options.reconnect } : {}),
  });
  if (ownsConnection) connection.start();
  let closed = false;

  return {
    connection,
    async publish(envelope, publishOptions = {}) {
      if (closed) throw new Error('Publisher is closed');
      const started = Date.now();
      // The producer span (OpenTelemetry messaging conventions): child of the outbox row's trace, and the parent
      // every consumer of this message continues.
      const parent = publishOptions.trace ? contextFrom(publishOptions.trace) : context.active();
      const span = tracer().startSpan(
        `${envelope.type} publish`,
        {
          kind: SpanKind.PRODUCER,
          attributes: {
            'messaging.system': 'rabbitmq',
            'messaging.operation.type': 'send',
            'messaging.destination.name': exchange,
            'messaging.rabbitmq.destination.routing_key': envelope.type,
            'messaging.message.id': envelope.id,
            'tyres.correlation_id': envelope.correlationId,
          },
        },
        parent,
      );
      const traceContext = trace.setSpan(parent, span);
      try {
        if (validate && !publishOptions.validated) parseEnvelope(envelope, registry);
        const content = Buffer.from(JSON.stringify(envelope));
        for (let attempt = 1; ; attempt++) {
          const ch = await channel.waitForReady(Math.max(1, connectTimeoutMs - (Date.now() - started)));
          try {
            await publishConfirmed(
              ch,
              exchange,
              envelope.type,
              content,
              messageProperties(envelope, traceContext),
              confirmTimeoutMs,
            );
            break;
          } catch (err) {
            // The channel died under this publish (connection lost, broker restart): whether the broker got
            // the message is unknown, so send it once more on the next channel. Consumers dedupe (inbox).
            if (attempt >= 2 || !isChannelClosed(err)) throw err;
            logger.debug({ eventId: envelope.id }, 'channel closed during publish; retrying once');
          }
        }
        callMetric(options.metrics, 'published', {
          type: envelope.type,
          outcome: 'ok',
          durationMs: Date.now() - started,
        });
        span.end();
      } catch (err) {
        recordFailure(span, err);
        span.end();
        callMetric(options.metrics, 'published', {
          type: envelope.type,
          outcome: 'error',
          durationMs: Date.now() - started,
        });
        throw err;
      }
    },
    isReady: () => channel.isReady(),
    async close() {
      if (closed) return;
      closed = true;
      await channel.close();
      if (ownsConnection) await connection.close();
      logger.debug({}, 'publisher closed');
    },
  };
}
