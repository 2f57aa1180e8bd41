import type { Channel } from 'amqplib';

/**
 * Names (docs/team-conventions.md):
 *   topic exchange        `${prefix}tyres.events`       routing key = event type
 *   dead-letter exchange  `${prefix}tyres.dlx`          direct, routing key = the service queue name
 *   service queue         `${prefix}<service>`          durable, bound to every type the service subscribes to
 *   dead-letter queue     `${prefix}<service>.dlq`      bound to the DLX with the service queue name
 *   retry queues          `${prefix}<service>.retry.<delay>ms`  TTL queues that dead-letter back to the service
 *                                                       queue through the default exchange
 */
export const EVENTS_EXCHANGE = 'tyres.events';
export const DEAD_LETTER_EXCHANGE = 'tyres.dlx';

/** AMQP headers this package sets or reads. */
export const HEADERS = {
  eventId: 'eventId',
  eventType: 'eventType',
  correlationId: 'correlationId',
  causationId: 'causationId',
  /** How many times the message went through a retry queue (absent = first delivery). */
  retryCount: 'x-retry-count',
  lastError: 'x-last-error',
  deadLetterReason: 'x-dead-letter-reason',
  failedAt: 'x-failed-at',
  failedService: 'x-failed-service',
  originalRoutingKey: 'x-original-routing-key',
} as const;

export interface RetryOptions {
  /** Handler attempts before dead-lettering, first delivery included (default 5). */
  maxAttempts?: number;
  /** Delay before the 2nd attempt (default 1000 ms). */
  initialDelayMs?: number;
  /** Each further delay is the previous one times this (default 5: 1 s, 5 s, 25 s, 125 s). */
  multiplier?: number;
  /** Cap for any delay (default 5 minutes). */
  maxDelayMs?: number;
  /** Explicit delays (ms) before attempt 2, 3, ...; the last one repeats. Overrides the three above. */
  delaysMs?: readonly number[];
}

export interface RetryPolicy {
  maxAttempts: number;
  /** delaysMs[n] = wait after the (n+1)th failed attempt; length maxAttempts - 1. */
  delaysMs: number[];
}

export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const maxAttempts = options.maxAttempts ?? 5;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new Error('retry.maxAttempts must be an integer >= 1');
  const count = maxAttempts - 1;
  let delaysMs: number[];
  if (options.delaysMs && options.delaysMs.length > 0) {
    const given = options.delaysMs;
    delaysMs = Array.from({ length: count }, (_, i) => given[Math.min(i, given.length - 1)] as number);
  } else {
    const initial = options.initialDelayMs ?? 1000;
    const multiplier = options.multiplier ?? 5;
    const max = options.maxDelayMs ?? 5 * 60_000;
    delaysMs = Array.from({ length: count }, (_, i) => Math.min(max, Math.round(initial * multiplier ** i)));
  }
  for (const d of delaysMs) {
    if (!Number.isInteger(d) || d < 1)
      throw new Error(`Retry delays must be positive integers (ms), got ${d}`);
  }
  return { maxAttempts, delaysMs };
}

export type QueueType = 'quorum' | 'classic';

export interface ServiceTopology {
  prefix: string;
  service: string;
  exchange: string;
  deadLetterExchange: string;
  queue: string;
  deadLetterQueue: string;
  /** One queue per distinct delay. */
  retryQueues: { delayMs: number; name: string }[];
  /** Every queue this service declares (for test cleanup). */
  queues: string[];
  /** Both shared exchanges. */
  exchanges: string[];
}

const SERVICE = /^[a-z][a-z0-9-]*$/;

export function exchangeNames(prefix = ''): { exchange: string; deadLetterExchange: string } {
  return { exchange: `${prefix}${EVENTS_EXCHANGE}`, deadLetterExchange: `${prefix}${DEAD_LETTER_EXCHANGE}` };
}

export function retryQueueName(service: string, delayMs: number, prefix = ''): string {
  return `${prefix}${service}.retry.${delayMs}ms`;
}

export function serviceTopology(
  service: string,
  prefix = '',
  retry: RetryPolicy = resolveRetryPolicy(),
): ServiceTopology {
  if (!SERVICE.test(service)) throw new Error(`Invalid service name ${JSON.stringify(service)}`);
  const { exchange, deadLetterExchange } = exchangeNames(prefix);
  const queue = `${prefix}${service}`;
  const deadLetterQueue = `${queue}.dlq`;
  const retryQueues = [...new Set(retry.delaysMs)].map((delayMs) => ({
    delayMs,
    name: retryQueueName(service, delayMs, prefix),
  }));
  return {
    prefix,
    service,
    exchange,
    deadLetterExchange,
    queue,
    deadLetterQueue,
    retryQueues,
    queues: [queue, deadLetterQueue, ...retryQueues.map((q) => q.name)],
    exchanges: [exchange, deadLetterExchange],
  };
}

type DeclaringChannel = Pick<Channel, 'assertExchange' | 'assertQueue' | 'bindQueue'>;

/** Declares the two shared exchanges (idempotent). Publishers need only this. */
export async function assertExchanges(channel: DeclaringChannel, prefix = ''): Promise<void> {
  const { exchange, deadLetterExchange } = exchangeNames(prefix);
  await channel.assertExchange(exchange, 'topic', { durable: true });
  await channel.assertExchange(deadLetterExchange, 'direct', { durable: true });
}

export interface QueueOptions {
  /** Default quorum (replicated, with a delivery limit that bounds crash loops). */
  queueType?: QueueType;
  /** Quorum only: broker-side redelivery limit before dead-lettering (default 20). */
  deliveryLimit?: number;
}

/** Declares a service's queue, DLQ and retry queues and binds the queue to `routingKeys` (idempotent). */
export async function assertServiceTopology(
  channel: DeclaringChannel,
  topology: ServiceTopology,
  routingKeys: Iterable<string>,
  options: QueueOptions = {},
): Promise<void> {
  const queueType = options.queueType ?? 'quorum';
  await assertExchanges(channel, topology.prefix);
  const typeArgs: Record<string, unknown> =
    queueType === 'quorum'
      ? { 'x-queue-type': 'quorum', 'x-delivery-limit': options.deliveryLimit ?? 20 }
      : { 'x-queue-type': 'classic' };
  await channel.assertQueue(topology.deadLetterQueue, {
    durable: true,
    arguments: { 'x-queue-type': queueType },
  });
  await channel.bindQueue(topology.deadLetterQueue, topology.deadLetterExchange, topology.queue);
  await channel.assertQueue(topology.queue, {
    durable: true,
    arguments: {
      ...typeArgs,
      'x-dead-letter-exchange': topology.deadLetterExchange,
      'x-dead-letter-routing-key': topology.queue,
    },
  });
  for (const retry of topology.retryQueues) {
    await channel.assertQueue(retry.name, {
      durable: true,
      arguments: {
        'x-queue-type': 'classic',
        'x-message-ttl': retry.delayMs,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': topology.queue,
      },
    });
  }
  for (const key of routingKeys) {
    await channel.bindQueue(topology.queue, topology.exchange, key);
  }
}
