import type { ConfirmChannel, ConsumeMessage, MessageProperties, Options } from 'amqplib';
import {
  context,
  contextFrom,
  recordFailure,
  SpanKind,
  SpanStatusCode,
  trace,
  tracer,
  type Link,
  type Span,
} from '@tyres/telemetry';
import { AmqpConnection, type ManagedChannel, type ReconnectOptions } from './connection';
import { contracts } from './contracts';
import type { AnyContract, EventEnvelope, EventOf } from './envelope';
import { errorFields, errorMessage, noopLogger, type Logger } from './logger';
import { callMetrics, type EventMetrics } from './metrics';
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

/** Links on a batch's span: the SDK's default span link limit. */
const BATCH_SPAN_LINKS = 128;
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

/** One message of a batch: its event and the context a single handler would get. */
export interface BatchItem<E extends EventEnvelope = EventEnvelope> {
  event: E;
  ctx: HandlerContext;
}

/**
 * Applies a batch of events at once (e.g. in one database transaction). Resolve to ack them all (one multiple
 * ack); the array, if returned, says per item (same order) whether it was skipped as a duplicate. Throw and the bus
 * hands the same messages to the handler again one at a time (a batch of one each), so one bad message never holds
 * back the others and gets the usual retry / dead-letter treatment on its own.
 */
export type BatchEventHandler<E extends EventEnvelope = EventEnvelope> = (
  items: readonly BatchItem<E>[],
) => Promise<void | readonly (void | 'duplicate' | undefined)[]>;

/** The events of any of several contracts (a union, one member per contract). */
export type EventsOf<C extends AnyContract> = C extends AnyContract ? EventOf<C> : never;

export interface BatchOptions {
  /** Most messages per batch (default 200). The channel's prefetch is raised to twice this. */
  maxMessages?: number;
  /** Longest a message waits for the batch to fill (default 50 ms). */
  lingerMs?: number;
  /**
   * Batches handled at once (default 1): with 2, the next batch is parsed and applied while the previous one waits
   * on its database, at the price of order between batches (the handler must not depend on it, e.g. use locks per
   * aggregate). Acks stay in delivery order.
   */
  concurrency?: number;
}

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
   * Registers one handler for several contracts, called with batches of their events (`BatchEventHandler`):
   * messages gathered up to `maxMessages`, or for at most `lingerMs` after the first. A contract goes either here or
   * to `subscribe`, not both. Once anything is subscribed in batches the whole consumer works batch by batch, one
   * batch at a time per bus (events of per-event handlers within a batch are handled one by one first). Call before
   * start().
   */
  subscribeBatch<const Cs extends readonly AnyContract[]>(
    contracts: Cs,
    handler: BatchEventHandler<EventsOf<Cs[number]>>,
    options?: BatchOptions,
  ): void;
  /**
   * Messages ready in this service's queue (not yet delivered to any consumer), as the broker counts them;
   * undefined while not connected.
   */
  queueDepth(): Promise<number | undefined>;
  /** Adds metric hooks (besides `options.metrics`), e.g. when the bus was built by someone else (service-kit). */
  addMetrics(hooks: EventMetrics): void;
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
  const metricHooks: EventMetrics[] = options.metrics ? [options.metrics] : [];
  const inFlight = new Set<Promise<void>>();
  const consumerTags = new WeakMap<ConfirmChannel, string>();
  let channel: ManagedChannel | undefined;
  let stopping = false;
  let closed: Promise<void> | undefined;

  async function setup(ch: ConfirmChannel): Promise<void> {
    await assertServiceTopology(ch, topology, [...handlers.keys(), ...batchHandlers.keys()], {
      queueType: options.queueType ?? 'quorum',
      ...(options.deliveryLimit !== undefined ? { deliveryLimit: options.deliveryLimit } : {}),
    });
    await ch.prefetch(batching() ? Math.max(prefetch, (batchConcurrency + 1) * batchSize) : prefetch);
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
        if (batching()) {
          pending.push({ ch, msg, at: Date.now() });
          schedulePump();
        } else track(handleMessage(ch, msg));
      },
      { noAck: false },
    );
    consumerTags.set(ch, consumerTag);
    log.info(
      { queue: topology.queue, types: [...handlers.keys(), ...batchHandlers.keys()], prefetch, batchSize },
      'consuming',
    );
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

  /** A parsed delivery on its way through the handlers. */
  interface Delivery {
    ch: ConfirmChannel;
    msg: ConsumeMessage;
    started: number;
    retryCount: number;
    event: EventEnvelope;
    ctx: HandlerContext;
  }

  /** Parses a message; one that fails its contract is dead-lettered here (undefined). */
  async function prepare(ch: ConfirmChannel, msg: ConsumeMessage): Promise<Delivery | undefined> {
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
      callMetrics(metricHooks, 'consumed', {
        type: type ?? msg.fields.routingKey,
        outcome: 'dead-letter',
        duplicate: false,
        durationMs: Date.now() - started,
        attempt,
      });
      return undefined;
    }
    // Made on first use: a batch's messages mostly never log, and a child logger per message is not free.
    let logger: Logger | undefined;
    const ctx: HandlerContext = {
      get logger() {
        logger ??= baseLogger.child({
          correlationId: parsed.correlationId,
          eventId: parsed.id,
          eventType: parsed.type,
          attempt,
        });
        return logger;
      },
      service,
      attempt,
      maxAttempts: retryPolicy.maxAttempts,
      redelivered: msg.fields.redelivered,
      routingKey: msg.fields.routingKey,
      headers: { ...(msg.properties.headers ?? {}) },
    };
    return { ch, msg, started, retryCount, event: parsed, ctx };
  }

  /** A handler threw: retry later, or dead-letter (non-retryable, or out of attempts). */
  async function settleFailure(d: Delivery, err: unknown): Promise<'retry' | 'dead-letter'> {
    const logger = d.ctx.logger;
    if (err instanceof NonRetryableError) {
      await deadLetter(d.ch, d.msg, 'non-retryable', err, logger);
      return 'dead-letter';
    }
    if (d.ctx.attempt >= retryPolicy.maxAttempts) {
      await deadLetter(d.ch, d.msg, 'max-attempts', err, logger);
      return 'dead-letter';
    }
    await retryLater(d.ch, d.msg, d.retryCount, err, logger);
    return 'retry';
  }

  function consumedMetric(d: Delivery, outcome: 'ack' | 'retry' | 'dead-letter', duplicate: boolean): void {
    const now = Date.now();
    const occurred = Date.parse(d.event.occurredAt);
    callMetrics(metricHooks, 'consumed', {
      type: d.event.type,
      outcome,
      duplicate,
      durationMs: now - d.started,
      attempt: d.ctx.attempt,
      ...(Number.isFinite(occurred) ? { ageMs: Math.max(0, now - occurred) } : {}),
    });
  }

  /** The consumer span of one delivery: a child of the publish span whose `traceparent` the message carries. */
  function consumerSpan(d: Delivery): Span {
    return tracer().startSpan(
      `${d.event.type} process`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'rabbitmq',
          'messaging.operation.type': 'process',
          'messaging.consumer.group.name': service,
          'messaging.destination.name': topology.queue,
          'messaging.rabbitmq.destination.routing_key': d.msg.fields.routingKey,
          'messaging.message.id': d.event.id,
          'tyres.correlation_id': d.event.correlationId,
          'tyres.attempt': d.ctx.attempt,
        },
      },
      contextFrom(d.msg.properties.headers),
    );
  }

  /** Runs `work` for one delivery, then acks it or hands it to retry / dead-letter. */
  async function settleOne(d: Delivery, work: () => Promise<boolean>): Promise<void> {
    let outcome: 'ack' | 'retry' | 'dead-letter' = 'ack';
    let duplicate = false;
    const span = consumerSpan(d);
    try {
      duplicate = await context.with(trace.setSpan(context.active(), span), work);
      ack(d.ch, d.msg);
      d.ctx.logger.debug(
        { durationMs: Date.now() - d.started, duplicate },
        duplicate ? 'duplicate skipped' : 'handled',
      );
    } catch (err) {
      recordFailure(span, err);
      outcome = await context.with(trace.setSpan(context.active(), span), () => settleFailure(d, err));
    }
    if (duplicate) span.setAttribute('tyres.duplicate', true);
    span.setAttribute('tyres.outcome', outcome);
    span.end();
    consumedMetric(d, outcome, duplicate);
  }

  /**
   * A batch's span: one per handler call, linked to each message's publish span (a batch has many parents, so
   * links, as the messaging conventions say).
   */
  function batchSpan(list: readonly Delivery[]): Span {
    const links: Link[] = [];
    for (const d of list) {
      // The SDK keeps 128 links a span by default (OTEL_SPAN_LINK_COUNT_LIMIT) and drops the rest silently: stop
      // there, and say how many messages the batch had (messaging.batch.message_count below).
      if (links.length === BATCH_SPAN_LINKS) break;
      const sc = trace.getSpanContext(contextFrom(d.msg.properties.headers));
      if (sc) links.push({ context: sc });
    }
    return tracer().startSpan(
      `${list.length} events process`,
      {
        kind: SpanKind.CONSUMER,
        links,
        attributes: {
          'messaging.system': 'rabbitmq',
          'messaging.operation.type': 'process',
          'messaging.consumer.group.name': service,
          'messaging.destination.name': topology.queue,
          'messaging.batch.message_count': list.length,
        },
      },
      context.active(),
    );
  }

  /** The per-event handlers of a delivery, in order; true if any skipped it as a duplicate. */
  async function runHandlers(d: Delivery): Promise<boolean> {
    const list = handlers.get(d.event.type);
    if (!list || list.length === 0) {
      // A binding without a handler (e.g. an older replica during a rolling deploy): never drop the event.
      throw new Error(`No handler for ${d.event.type} in ${service}`);
    }
    let duplicate = false;
    for (const handler of list) {
      if ((await handler(d.event, d.ctx)) === 'duplicate') duplicate = true;
    }
    return duplicate;
  }

  async function handleMessage(ch: ConfirmChannel, msg: ConsumeMessage): Promise<void> {
    const d = await prepare(ch, msg);
    if (d) await settleOne(d, () => runHandlers(d));
  }

  // --- batch consumption ------------------------------------------------------------------------------------------

  interface BatchSubscription {
    handler: BatchEventHandler;
    maxMessages: number;
    lingerMs: number;
  }
  const batchHandlers = new Map<string, BatchSubscription>();
  let batchSize = 0;
  let lingerMs = 0;
  /** Delivered, not yet handled (batch mode), in delivery order. */
  const pending: { ch: ConfirmChannel; msg: ConsumeMessage; at: number }[] = [];
  let lingerTimer: NodeJS.Timeout | undefined;
  /** Batches at once (the highest `concurrency` asked for) and how many are running. */
  let batchConcurrency = 1;
  let batchesRunning = 0;
  /** Settles when the last batch started is settled (acked, retried or dead-lettered, every message of it). */
  let lastBatchSettled: Promise<void> = Promise.resolve();

  const batching = () => batchHandlers.size > 0;

  /** Starts batches while there is room: a full one at once, a partial one once its first message lingered. */
  function schedulePump(): void {
    while (pending.length > 0 && batchesRunning < batchConcurrency) {
      const first = pending[0] as (typeof pending)[number];
      const wait =
        stopping || pending.length >= batchSize ? 0 : Math.max(0, first.at + lingerMs - Date.now());
      if (lingerTimer) clearTimeout(lingerTimer);
      lingerTimer = undefined;
      if (wait > 0) {
        lingerTimer = setTimeout(() => {
          lingerTimer = undefined;
          schedulePump();
        }, wait);
        return;
      }
      // One channel per batch: acks only go to the channel that delivered (a newer channel redelivers the rest).
      const ch = first.ch;
      let n = 0;
      while (n < pending.length && n < batchSize && (pending[n] as (typeof pending)[number]).ch === ch) n++;
      const taken = pending.splice(0, n).map((p) => p.msg);
      const previous = lastBatchSettled;
      const batch = handleBatch(ch, taken, previous);
      lastBatchSettled = batch.then(
        () => undefined,
        () => undefined,
      );
      batchesRunning += 1;
      track(
        batch.finally(() => {
          batchesRunning -= 1;
          schedulePump();
        }),
      );
    }
  }

  async function handleBatch(
    ch: ConfirmChannel,
    msgs: ConsumeMessage[],
    previous: Promise<void>,
  ): Promise<void> {
    const groups = new Map<BatchSubscription, Delivery[]>();
    for (const msg of msgs) {
      const d = await prepare(ch, msg);
      if (!d) continue;
      const sub = batchHandlers.get(d.event.type);
      if (!sub) {
        // Per-event handlers (or none): settled now, before the batch's multiple ack covers its tag range.
        await settleOne(d, () => runHandlers(d));
        continue;
      }
      const list = groups.get(sub) ?? [];
      list.push(d);
      groups.set(sub, list);
    }
    const done: Delivery[] = [];
    for (const [sub, list] of groups) {
      if (list.length === 1) {
        await settleOne(list[0] as Delivery, () => runBatchOfOne(sub, list[0] as Delivery));
        continue;
      }
      let result: Awaited<ReturnType<BatchEventHandler>>;
      const span = batchSpan(list);
      try {
        result = await context.with(trace.setSpan(context.active(), span), () =>
          sub.handler(list.map((d) => ({ event: d.event, ctx: d.ctx }))),
        );
        span.end();
      } catch (err) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(err) });
        span.end();
        log.warn(
          { ...errorFields(err), messages: list.length },
          'batch failed; handling its messages one at a time',
        );
        for (const d of list) await settleOne(d, () => runBatchOfOne(sub, d));
        continue;
      }
      list.forEach((d, i) => {
        done.push(d);
        consumedMetric(d, 'ack', result?.[i] === 'duplicate');
      });
    }
    if (done.length === 0) return;
    // A multiple ack covers every delivery up to its tag: once the batches started before this one are settled
    // (and the one-by-one ones above), it covers exactly this batch.
    await previous;
    let last = done[0] as Delivery;
    for (const d of done) if (d.msg.fields.deliveryTag > last.msg.fields.deliveryTag) last = d;
    try {
      ch.ack(last.msg, true);
    } catch (err) {
      // The channel closed under us: the broker redelivers the batch, the inbox absorbs the duplicates.
      log.warn({ ...errorFields(err), messages: done.length }, 'batch ack failed (channel closed)');
    }
  }

  async function runBatchOfOne(sub: BatchSubscription, d: Delivery): Promise<boolean> {
    const result = await sub.handler([{ event: d.event, ctx: d.ctx }]);
    return result?.[0] === 'duplicate';
  }

  async function queueDepth(): Promise<number | undefined> {
    const model = connection.current;
    if (!model || !channel?.isReady()) return undefined;
    // A channel of its own: a failed check (queue gone) closes the channel it ran on, never the consumer's.
    let ch: Awaited<ReturnType<typeof model.createChannel>> | undefined;
    try {
      ch = await model.createChannel();
      ch.on('error', () => undefined);
      return (await ch.checkQueue(topology.queue)).messageCount;
    } catch {
      return undefined;
    } finally {
      await ch?.close().catch(() => undefined);
    }
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
      return [...handlers.keys(), ...batchHandlers.keys()];
    },
    queueDepth,
    addMetrics(hooks) {
      metricHooks.push(hooks);
    },
    subscribeBatch(contractList, handler, batchOptions = {}) {
      if (closed) throw new Error('The event bus is closed');
      if (channel) throw new Error('subscribeBatch must be called before start()');
      const sub: BatchSubscription = {
        handler: handler as BatchEventHandler,
        maxMessages: batchOptions.maxMessages ?? 200,
        lingerMs: batchOptions.lingerMs ?? 50,
      };
      if (!Number.isInteger(sub.maxMessages) || sub.maxMessages < 1)
        throw new Error('maxMessages must be a positive integer');
      if (!(sub.lingerMs >= 0)) throw new Error('lingerMs must be 0 or more');
      for (const contract of contractList) {
        if (!registry[contract.type]) throw new Error(`${contract.type} is not in the bus registry`);
        if (handlers.has(contract.type) || batchHandlers.has(contract.type))
          throw new Error(`${contract.type} already has a handler`);
      }
      for (const contract of contractList) batchHandlers.set(contract.type, sub);
      const concurrency = batchOptions.concurrency ?? 1;
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new Error('concurrency must be a positive integer');
      batchConcurrency = Math.max(batchConcurrency, concurrency);
      // One gathering for the whole consumer: the largest batch and the shortest linger asked for.
      batchSize = Math.max(batchSize, sub.maxMessages);
      lingerMs = batchHandlers.size === contractList.length ? sub.lingerMs : Math.min(lingerMs, sub.lingerMs);
    },
    subscribe(contract, handler) {
      if (closed) throw new Error('The event bus is closed');
      if (!registry[contract.type]) throw new Error(`${contract.type} is not in the bus registry`);
      if (batchHandlers.has(contract.type))
        throw new Error(`${contract.type} is already subscribed in batches`);
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
        // Batch mode: what was delivered and is still gathering is handled now (no more linger).
        schedulePump();
        if (inFlight.size > 0) {
          log.info({ inFlight: inFlight.size }, 'waiting for running handlers');
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), options.shutdownTimeoutMs ?? 30_000);
          });
          // Until nothing runs: a finishing batch may start the next one (the last gathered messages).
          const drained = (async () => {
            while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
          })();
          const result = await Promise.race([drained, timeout]);
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
