import { connect, type GetMessage } from 'amqplib';
import { copyProperties } from './bus';
import { publishConfirmed } from './publisher';
import { HEADERS, serviceTopology } from './topology';

export interface ReplayOptions {
  url: string;
  service: string;
  prefix?: string;
  /** Most messages to move (default: the number in the DLQ when the replay starts, so it always ends). */
  limit?: number;
  /** Only replay messages this returns true for; the others stay in the DLQ. */
  filter?: (message: GetMessage) => boolean;
}

const DEAD_LETTER_HEADERS: string[] = [
  HEADERS.retryCount,
  HEADERS.lastError,
  HEADERS.deadLetterReason,
  HEADERS.failedAt,
  HEADERS.failedService,
];

/**
 * Moves messages from `${prefix}${service}.dlq` back into the service queue (through the default exchange, so
 * only that service sees them again) with a fresh attempt counter. Use after fixing the bug or the data that
 * made them fail. Each message is acked off the DLQ only after the broker confirmed the copy.
 * Returns how many messages were replayed.
 */
export async function replayDeadLetters(
  options: ReplayOptions,
): Promise<{ replayed: number; skipped: number }> {
  const topology = serviceTopology(options.service, options.prefix ?? '');
  const model = await connect(options.url, {
    clientProperties: { connection_name: `${options.service}-dlq-replay` },
  });
  model.on('error', () => undefined);
  let replayed = 0;
  let skipped = 0;
  try {
    const ch = await model.createConfirmChannel();
    ch.on('error', () => undefined);
    const { messageCount } = await ch.checkQueue(topology.deadLetterQueue);
    const limit = Math.min(options.limit ?? messageCount, messageCount);
    const keep: GetMessage[] = [];
    for (let i = 0; i < limit; i++) {
      const msg = await ch.get(topology.deadLetterQueue, { noAck: false });
      if (msg === false) break;
      if (options.filter && !options.filter(msg)) {
        keep.push(msg);
        skipped += 1;
        continue;
      }
      const headers: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(msg.properties.headers ?? {})) {
        if (
          !DEAD_LETTER_HEADERS.includes(k) &&
          !/^x-(death|first-death-|last-death-|delivery-count)/.test(k)
        ) {
          headers[k] = v;
        }
      }
      headers['x-replayed-at'] = new Date().toISOString();
      await publishConfirmed(
        ch,
        '',
        topology.queue,
        msg.content,
        copyProperties(msg.properties, headers),
        10_000,
      );
      ch.ack(msg);
      replayed += 1;
    }
    // Skipped messages go back to the DLQ (requeued) when the channel closes.
    for (const msg of keep) ch.nack(msg, false, true);
    await ch.close();
  } finally {
    await model.close().catch(() => undefined);
  }
  return { replayed, skipped };
}
