import type { ConfirmChannel, ConsumeMessage, MessageProperties, Options } from 'amqplib';
import { AmqpConnection, type ManagedChannel, type ReconnectOptions } from './connection';
import { contracts } from './contracts';
import type { AnyContract, EventEnvelope, EventOf } from './envelope';
import { errorFields, errorMessage, noopLogger, type Logger } from './logger';
import { callMetric, type EventMetrics } from './metrics';
import { publishConfirmed } from './publisher';
import { EventParseError, parseEnvelope, type ContractRegistry } from './registry';
import {
  assertServiceTopology,
  HEADERS,
  resolveRetryPolicy,
  serviceTopology,
  type QueueType,
  type RetryOptions,
  type RetryPolicy,
  type ServiceTopology,
} from './topology';

export interface HandlerContext {
  /** Child logger carrying service, correlationId, eventId, eventType and attempt. */
  logger: Logger;
  service: string;
  /** 1 on the first delivery; goes up each time the message comes back from a retry queue. */
  attempt: number;
  maxAttempts: number;
  /** The broker redelivered it (e.g. after a connection loss): the effect may already have happened. */
  redelivered: boolean;
  routingKey: string;
  headers: Record<string, unknown>;
}

/** Resolve to ack. Throw to retry (or dead-letter after the last attempt). Return 'duplicate' if skipped. */
export type EventHandler<E extends EventEnvelope = EventEnvelope> = (
  event: E,
  ctx: HandlerContext,
) => Promise<void | 'duplicate'>;

/** Throw this from a handler when retrying cannot help (bad data for this service): straight to the DLQ. */
export class NonRetryableError extends Error {
  override readonly name: string = 'NonRetryableError';
}

export interface EventBusOptions {
  /** Broker URL (AMQP_URL); the bus then owns its connection, named `${service}-consumer`. */
  url?: string;
  /** Or an existing connection (not closed by the bus). */
  connection?: AmqpConnection;
  /** The consuming service; its queue is `${prefix}${service}`. */
  service: string;
  /** EVENT_PREFIX. */
  prefix?: string;
  logger?: Logger;
  /** Unacked messages in flight per consumer (default 10). */
  prefetch?: number;
  /** Attempts and backoff (default 5 attempts, 1 s / 5 s / 25 s / 125 s). */
  retry?: RetryOptions;
  /** Default quorum. Changing it for an existing queue needs the queue deleted first. */
  queueType?: QueueType;
  /** Quorum queues: broker-side delivery limit, a backstop against crash loops (default 20). */
  deliveryLimit?: number;
  registry?: ContractRegistry;
  metrics?: EventMetrics;
  /** `close()` waits this long for running handlers (default 30 s). */
  shutdownTimeoutMs?: number;
  /** How long to wait for the broker's confirm of a retry/dead-letter copy (default 10 s). */
  confirmTimeoutMs?: number;
  heartbeatSeconds?: number;
  reconnect?: ReconnectOptions;
}

export interface EventBus {
  readonly service: string;
  readonly topology: ServiceTopology;
  readonly retryPolicy: RetryPolicy;
  readonly connection: AmqpConnection;
  /** Registers a handler for one contract (several handlers per contract run in order). Call before start(). */
  subscribe<C extends AnyContract>(contract: C, handler: EventHandler<EventOf<C>>): void;
  /**
   * Connects, declares the topology and starts consuming. By default resolves once consuming; with
   * `{ wait: false }` returns at once and keeps connecting in the background (the service can boot while the
   * broker is down; `isReady()` tells readiness).
   */
  start(options?: { wait?: boolean; timeoutMs?: number }): Promise<void>;
  /** True while a consumer is active. */
  isReady(): boolean;
  /** Handlers currently running. */
  readonly inFlight: number;
  /** Event types with at least one handler (what this service consumes). */
  subscribedTypes(): string[];
  /** Stops consuming, waits for running handlers (up to shutdownTimeoutMs), then closes. */
  close(): Promise<void>;
}

const BROKER_HEADERS = /^x-(death|first-death-|last-death-|delivery-count)/;

/** @internal AMQP properties for a republished copy of `props` (retry, dead-letter, replay). */
export function copyProperties(props: MessageProperties, headers: Record<string, unknown>): Options.Publish {
  const out: Options.Publish = { persistent: true, headers };
  if (props.contentType) out.contentType = props.contentType as string;
  if (props.contentEncoding) out.contentEncoding = props.contentEncoding as string;
  if (props.messageId) out.messageId = props.messageId as string;
  if (props.correlationId) out.correlationId = props.correlationId as string;
  if (props.type) out.type = props.type as string;
  if (props.appId) out.appId = props.appId as string;
  if (props.timestamp) out.timestamp = props.timestamp as number;
  return out;
}

function ownHeaders(props: MessageProperties): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props.headers ?? {})) {
    if (!BROKER_HEADERS.test(k) && v !== undefined) out[k] = v;
  }
  return out;
}

function retryCountOf(props: MessageProperties): number {
  const raw = props.headers?.[HEADERS.retryCount];
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

export function createEventBus(options: EventBusOptions): EventBus {
  if (!options.connection && !options.url) throw new Error('createEventBus needs a url or a connection');
  const service = options.service;
  const prefix = options.prefix ?? '';
  const retryPolicy = resolveRetryPolicy(options.retry);
  const topology = serviceTopology(service, prefix, retryPolicy);
  const registry: ContractRegistry = options.registry ?? contracts;
  const prefetch = options.prefetch ?? 10;
  if (!Number.isInteger(prefetch) || prefetch < 1) throw new Error('prefetch must be a positive integer');
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 10_000;
  const baseLogger = (options.logger ?? noopLogger).child({ service });
  const log = baseLogger.child({ component: 'event-bus' });
  const ownsConnection = !options.connection;
  const connection =
    options.connection ??
    new AmqpConnection({
      url: options.url as string,
      name: `${service}-consumer`,
      logger: options.logger ?? noopLogger,
      ...(options.heartbeatSeconds !== undefined ? { heartbeatSeconds: options.heartbeatSeconds } : {}),
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    });

  const handlers = new Map<string, EventHandler[]>();
  const inFlight = new Set<Promise<void>>();
  const consumerTags = new WeakMap<ConfirmChannel, string>();
  let channel: ManagedChannel | undefined;
  let stopping = false;
  let closed: Promise<void> | undefined;

  async function setup(ch: ConfirmChannel): Promise<void> {
    await assertServiceTopology(ch, topology, handlers.keys(), {
      queueType: options.queueType ?? 'quorum',
      ...(options.deliveryLimit !== undefined ? { deliveryLimit: options.deliveryLimit } : {}),
    });
    await ch.prefetch(prefetch);
    if (stopping) return;
    const { consumerTag } = await ch.consume(
      topology.queue,
      (msg) => {
        if (!msg) {
          // The broker cancelled us (queue deleted, failover): start over on a new channel.
          log.warn({ queue: topology.queue }, 'consumer cancelled by the broker; re-subscribing');
          channel?.reopen();
          return;
        }
        track(handleMessage(ch, msg));
      },
      { noAck: false },
    );
    consumerTags.set(ch, consumerTag);
    log.info({ queue: topology.queue, types: [...handlers.keys()], prefetch }, 'consuming');
  }

  function track(task: Promise<void>): void {
    const wrapped = task.catch((err) => log.error(errorFields(err), 'unexpected error handling a message'));
    inFlight.add(wrapped);
    void wrapped.finally(() => inFlight.delete(wrapped));
  }

  function ack(ch: ConfirmChannel, msg: ConsumeMessage): boolean {
    try {
      ch.ack(msg);
      return true;
    } catch (err) {
      // The channel closed under us: the broker redelivers the message, the inbox absorbs the duplicate.
      log.warn({ ...errorFields(err), deliveryTag: msg.fields.deliveryTag }, 'ack failed (channel closed)');
      return false;
    }
  }

  function nack(ch: ConfirmChannel, msg: ConsumeMessage, requeue: boolean): void {
    try {
      ch.nack(msg, false, requeue);
    } catch (err) {
      log.warn(errorFields(err), 'nack failed (channel closed)');
    }
  }

  async function deadLetter(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    reason: string,
    err: unknown,
    logger: Logger,
  ): Promise<void> {
    const headers = {
      ...ownHeaders(msg.properties),
      [HEADERS.deadLetterReason]: reason,
      [HEADERS.lastError]: errorMessage(err),
      [HEADERS.failedAt]: new Date().toISOString(),
      [HEADERS.failedService]: service,
      [HEADERS.originalRoutingKey]: msg.fields.routingKey,
    };
    try {
      await publishConfirmed(
        ch,
        topology.deadLetterExchange,
        topology.queue,
        msg.content,
        copyProperties(msg.properties, headers),
        confirmTimeoutMs,
      );
      ack(ch, msg);
      logger.error({ ...errorFields(err), reason, queue: topology.deadLetterQueue }, 'message dead-lettered');
    } catch (publishErr) {
      // Fall back to the broker's own dead-lettering (the queue's x-dead-letter-exchange).
      logger.error({ ...errorFields(publishErr), reason }, 'dead-letter publish failed; rejecting instead');
      nack(ch, msg, false);
    }
  }

  async function retryLater(
    ch: ConfirmChannel,
    msg: ConsumeMessage,
    retryCount: number,
    err: unknown,
    logger: Logger,
  ): Promise<void> {
    const delayMs = retryPolicy.delaysMs[retryCount] as number;
    const queue = topology.retryQueues.find((q) => q.delayMs === delayMs)?.name as string;
    const headers = {
      ...ownHeaders(msg.properties),
      [HEADERS.retryCount]: retryCount + 1,
      [HEADERS.lastError]: errorMessage(err),
      [HEADERS.originalRoutingKey]: msg.fields.routingKey,
    };
    try {
      // Default exchange: straight into this service's retry queue; its TTL dead-letters it back to our queue.
      await publishConfirmed(
        ch,
        '',
        queue,
        msg.content,
        copyProperties(msg.properties, headers),
        confirmTimeoutMs,
      );
      ack(ch, msg);
      logger.warn({ ...errorFields(err), retryInMs: delayMs }, 'handler failed; retrying later');
    } catch (publishErr) {
      logger.error(errorFields(publishErr), 'could not schedule the retry; requeueing');
      nack(ch, msg, true);
    }
  }

  async function handleMessage(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const started = Date.now();
    const retryCount = retryCountOf(msg.properties);
    const attempt = retryCount + 1;
    let parsed: EventEnvelope;
    try {
      parsed = parseEnvelope(msg.content, registry).envelope;
    } catch (err) {
      const reason = err instanceof EventParseError ? err.reason : 'unparseable';
      const type = err instanceof EventParseError ? err.details.type : undefined;
      await deadLetter(
        ch,
        msg,
        reason,
        err,
        log.child({ routingKey: msg.fields.routingKey, eventType: type }),
      );
      callMetric(options.metrics, 'consumed', {
        type: type ?? msg.fields.routingKey,
        outcome: 'dead-letter',
        duplicate: false,
        durationMs: Date.now() - started,
        attempt,
      });
      return;
    }
    const logger = baseLogger.child({
      correlationId: parsed.correlationId,
      eventId: parsed.id,
      eventType: parsed.type,
      attempt,
    });
    const ctx: HandlerContext = {
      logger,
      service,
      attempt,
      maxAttempts: retryPolicy.maxAttempts,
      redelivered: msg.fields.redelivered,
      routingKey: msg.fields.routingKey,
      headers: { ...(msg.properties.headers ?? {}) },
    };
    const list = handlers.get(parsed.type);
    let outcome: 'ack' | 'retry' | 'dead-letter' = 'ack';
    let duplicate = false;
    try {
      if (!list || list.length === 0) {
        // A binding without a handler (e.g. an older replica during a rolling deploy): never drop the event.
        throw new Error(`No handler for ${parsed.type} in ${service}`);
      }
      for (const handler of list) {
        if ((await handler(parsed, ctx)) === 'duplicate') duplicate = true;
      }
      ack(ch, msg);
      logger.debug(
        { durationMs: Date.now() - started, duplicate },
        duplicate ? 'duplicate skipped' : 'handled',
      );
    } catch (err) {
      if (err instanceof NonRetryableError) {
        outcome = 'dead-letter';
        await deadLetter(ch, msg, 'non-retryable', err, logger);
      } else if (attempt >= retryPolicy.maxAttempts) {
        outcome = 'dead-letter';
        await deadLetter(ch, msg, 'max-attempts', err, logger);
      } else {
        outcome = 'retry';
        await retryLater(ch, msg, retryCount, err, logger);
      }
    }
    callMetric(options.metrics, 'consumed', {
      type: parsed.type,
      outcome,
      duplicate,
      durationMs: Date.now() - started,
      attempt,
    });
  }

  const bus: EventBus = {
    service,
    topology,
    retryPolicy,
    connection,
    get inFlight() {
      return inFlight.size;
    },
    subscribedTypes() {
      return [...handlers.keys()];
    },
    subscribe(contract, handler) {
      if (closed) throw new Error('The event bus is closed');
      if (!registry[contract.type]) throw new Error(`${contract.type} is not in the bus registry`);
      const list = handlers.get(contract.type) ?? [];
      list.push(handler as EventHandler);
      handlers.set(contract.type, list);
      const ch = channel?.current;
      if (ch) {
        // Late subscription: bind now; every later (re)connect binds it in setup.
        ch.bindQueue(topology.queue, topology.exchange, contract.type).catch((err: unknown) =>
          log.error({ ...errorFields(err), type: contract.type }, 'binding failed'),
        );
      }
    },
    async start(startOptions = {}) {
      if (closed) throw new Error('The event bus is closed');
      if (!channel) {
        channel = connection.channel({
          name: 'consume',
          setup,
          ...(options.reconnect ? { reconnect: options.reconnect } : {}),
        });
        if (ownsConnection) connection.start();
      }
      if (startOptions.wait === false) return;
      await channel.waitForReady(startOptions.timeoutMs ?? 2 ** 31 - 1);
    },
    isReady: () => channel?.isReady() ?? false,
    close() {
      closed ??= (async () => {
        stopping = true;
        const ch = channel?.current;
        const tag = ch ? consumerTags.get(ch) : undefined;
        if (ch && tag) await ch.cancel(tag).catch(() => undefined);
        if (inFlight.size > 0) {
          log.info({ inFlight: inFlight.size }, 'waiting for running handlers');
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), options.shutdownTimeoutMs ?? 30_000);
          });
          const result = await Promise.race([Promise.allSettled([...inFlight]), timeout]);
          clearTimeout(timer);
          if (result === 'timeout')
            log.warn({ inFlight: inFlight.size }, 'handlers still running at shutdown');
        }
        await channel?.close();
        if (ownsConnection) await connection.close();
        log.info({}, 'event bus closed');
      })();
      return closed;
    },
  };
  return bus;
}
