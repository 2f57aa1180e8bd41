import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '@tyres/service-kit';
import type { Delivery } from '../domain/notifications';

/**
 * Messages for one user's dashboards, whichever replica holds their sockets. The live feed covers what comes from
 * events; this covers what notify itself produces: a delivery worker finishes an SMS on one replica, while the
 * staff member who asked for it may be connected to another (or to several). Every replica subscribes to one Redis
 * pub/sub channel and hands what arrives to its own hub, which writes only to that user's sockets, if it has any.
 *
 * Like the live feed it is at most once and only useful live: nothing is stored, and a replica that is
 * reconnecting to Redis misses the message (the delivery log keeps the outcome). ioredis re-subscribes after a
 * reconnect.
 */
export const userMessagesChannel = (redisPrefix: string) => `${redisPrefix}notify:user-messages`;

/** What travels on the channel: only per-user messages notify produces (today: sms_delivery). */
const wireMessage = z.object({
  to: z.literal('user'),
  userId: z.string().min(1).max(100),
  message: z.object({
    type: z.literal('sms_delivery'),
    data: z.object({
      jobId: z.string().nullable(),
      purpose: z.string(),
      status: z.enum(['sent', 'recorded', 'failed']),
      message: z.string(),
    }),
  }),
});

export interface UserMessagesOptions {
  /** A client in normal mode for PUBLISH (the runtime's shared one). */
  publisher: Redis;
  /** A dedicated connection: a subscribed connection can do nothing else. */
  subscriber: Redis;
  channel: string;
  /** Hands a message to this replica's hub. */
  deliver: (delivery: Delivery) => void;
  logger: Logger;
}

export interface UserMessages {
  /** Subscribes this replica; resolves once Redis confirmed the subscription. */
  start(): Promise<void>;
  /** Sends a message to the user's sockets on every replica. Never throws (a lost live message is logged). */
  publish(delivery: Extract<Delivery, { to: 'user' }>): Promise<void>;
  isReady(): boolean;
  close(): Promise<void>;
}

export function createUserMessages(options: UserMessagesOptions): UserMessages {
  const log = options.logger.child({ component: 'user-messages' });
  const { subscriber, channel } = options;
  let subscribed = false;

  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    let parsed: z.infer<typeof wireMessage>;
    try {
      parsed = wireMessage.parse(JSON.parse(text));
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'invalid user message ignored');
      return;
    }
    options.deliver(parsed);
  });
  // Without an 'error' listener a connection problem would be an unhandled 'error' event.
  subscriber.on('error', (err: Error) => log.warn({ err: err.message }, 'user-message subscriber problem'));

  return {
    async start() {
      await subscriber.subscribe(channel);
      subscribed = true;
    },
    async publish(delivery) {
      try {
        await options.publisher.publish(channel, JSON.stringify(delivery));
      } catch (err) {
        log.warn(
          { err: (err as Error).message, userId: delivery.userId, type: delivery.message.type },
          'user message not published (Redis unavailable); the delivery log has the outcome',
        );
      }
    },
    isReady: () => subscribed && subscriber.status === 'ready',
    async close() {
      subscribed = false;
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
