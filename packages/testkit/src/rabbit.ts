import { randomBytes } from 'node:crypto';
import { connect, type Channel, type ChannelModel, type GetMessage, type Options } from 'amqplib';
import { getAmqpUrl } from './infra';

/**
 * A unique prefix for EVENT_PREFIX / REDIS_PREFIX, e.g. `t-outbox-3f9a1c.`: exchanges become
 * `t-outbox-3f9a1c.tyres.events`, queues `t-outbox-3f9a1c.jobs`, so suites sharing one broker never see each
 * other's messages. Letters, digits, '-' and '.' only (valid in AMQP names, Redis keys and BullMQ prefixes).
 */
export function uniquePrefix(label = 't'): string {
  const clean =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 24) || 't';
  return `t-${clean}-${randomBytes(3).toString('hex')}.`;
}

/** The queue and exchange names of docs/team-conventions.md for a prefix (what cleanup deletes). */
export function conventionalNames(
  prefix: string,
  services: readonly string[],
  retryDelaysMs: readonly number[] = [],
): { exchanges: string[]; queues: string[] } {
  return {
    exchanges: [`${prefix}tyres.events`, `${prefix}tyres.dlx`],
    queues: services.flatMap((s) => [
      `${prefix}${s}`,
      `${prefix}${s}.dlq`,
      ...[...new Set(retryDelaysMs)].map((d) => `${prefix}${s}.retry.${d}ms`),
    ]),
  };
}

export interface RabbitAdmin {
  readonly url: string;
  /** Message count of a queue (ready messages, not the unacked ones); undefined if it does not exist. */
  messageCount(queue: string): Promise<number | undefined>;
  queueExists(queue: string): Promise<boolean>;
  exchangeExists(exchange: string): Promise<boolean>;
  /** Takes one message off a queue (acked, i.e. removed), or undefined when empty. */
  get(queue: string): Promise<GetMessage | undefined>;
  /** Takes up to `max` messages (acked). */
  drain(queue: string, max?: number): Promise<GetMessage[]>;
  /** Looks at up to `max` messages and puts them back (nacked with requeue). */
  peek(queue: string, max?: number): Promise<GetMessage[]>;
  purge(queue: string): Promise<number>;
  /** Publishes raw bytes (e.g. a malformed message), waiting for the broker's confirm. */
  publish(
    exchange: string,
    routingKey: string,
    content: Buffer | string,
    options?: Options.Publish,
  ): Promise<void>;
  deleteQueue(queue: string): Promise<void>;
  deleteExchange(exchange: string): Promise<void>;
  /** Remembers names for `cleanup()`. */
  track(names: { queues?: readonly string[]; exchanges?: readonly string[] }): void;
  /**
   * Deletes the tracked queues/exchanges plus the conventional names for `prefix` and `services`
   * (queue, .dlq, .retry.<d>ms for each given delay, and both exchanges). amqplib cannot list queues (no
   * management API needed), so anything else must be tracked.
   */
  cleanup(
    prefix?: string,
    options?: { services?: readonly string[]; retryDelaysMs?: readonly number[] },
  ): Promise<void>;
  close(): Promise<void>;
}

/**
 * Broker housekeeping for tests over plain AMQP (works without the management plugin). Every operation runs on
 * a fresh channel, because a failed passive check (404) closes the channel it ran on.
 */
export async function createRabbitAdmin(url?: string): Promise<RabbitAdmin> {
  const amqpUrl = url ?? (await getAmqpUrl());
  const model: ChannelModel = await connect(amqpUrl, {
    clientProperties: { connection_name: 'testkit-admin' },
  });
  model.on('error', () => undefined);
  const trackedQueues = new Set<string>();
  const trackedExchanges = new Set<string>();

  async function withChannel<T>(fn: (ch: Channel) => Promise<T>): Promise<T> {
    const ch = await model.createChannel();
    ch.on('error', () => undefined);
    try {
      return await fn(ch);
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  async function exists(fn: (ch: Channel) => Promise<unknown>): Promise<boolean> {
    try {
      await withChannel(fn);
      return true;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return false;
      throw err;
    }
  }

  const admin: RabbitAdmin = {
    url: amqpUrl,
    async messageCount(queue) {
      try {
        return (await withChannel((ch) => ch.checkQueue(queue))).messageCount;
      } catch (err) {
        if ((err as { code?: number }).code === 404) return undefined;
        throw err;
      }
    },
    queueExists: (queue) => exists((ch) => ch.checkQueue(queue)),
    exchangeExists: (exchange) => exists((ch) => ch.checkExchange(exchange)),
    async get(queue) {
      return withChannel(async (ch) => {
        const msg = await ch.get(queue, { noAck: true });
        return msg === false ? undefined : msg;
      });
    },
    async drain(queue, max = 1000) {
      return withChannel(async (ch) => {
        const out: GetMessage[] = [];
        while (out.length < max) {
          const msg = await ch.get(queue, { noAck: true });
          if (msg === false) break;
          out.push(msg);
        }
        return out;
      });
    },
    async peek(queue, max = 100) {
      return withChannel(async (ch) => {
        const out: GetMessage[] = [];
        while (out.length < max) {
          const msg = await ch.get(queue, { noAck: false });
          if (msg === false) break;
          out.push(msg);
        }
        if (out.length > 0) ch.nackAll(true);
        return out;
      });
    },
    async purge(queue) {
      return (await withChannel((ch) => ch.purgeQueue(queue))).messageCount;
    },
    async publish(exchange, routingKey, content, options = {}) {
      const ch = await model.createConfirmChannel();
      ch.on('error', () => undefined);
      try {
        await new Promise<void>((resolve, reject) => {
          ch.publish(
            exchange,
            routingKey,
            Buffer.isBuffer(content) ? content : Buffer.from(content),
            options,
            (err) => (err ? reject(err instanceof Error ? err : new Error('nacked')) : resolve()),
          );
        });
      } finally {
        await ch.close().catch(() => undefined);
      }
    },
    async deleteQueue(queue) {
      await withChannel((ch) => ch.deleteQueue(queue));
    },
    async deleteExchange(exchange) {
      await withChannel((ch) => ch.deleteExchange(exchange));
    },
    track(names) {
      for (const q of names.queues ?? []) trackedQueues.add(q);
      for (const e of names.exchanges ?? []) trackedExchanges.add(e);
    },
    async cleanup(prefix, options = {}) {
      const conventional = prefix
        ? conventionalNames(prefix, options.services ?? [], options.retryDelaysMs ?? [])
        : { queues: [], exchanges: [] };
      const queues = new Set([...trackedQueues, ...conventional.queues]);
      const exchanges = new Set([...trackedExchanges, ...conventional.exchanges]);
      await withChannel(async (ch) => {
        for (const q of queues) await ch.deleteQueue(q);
        for (const e of exchanges) await ch.deleteExchange(e);
      });
      trackedQueues.clear();
      trackedExchanges.clear();
    },
    async close() {
      await model.close().catch(() => undefined);
    },
  };
  return admin;
}
