import { Queue } from 'bullmq';
import { createRedis } from '@tyres/service-kit';
import { queueTelemetry } from '@tyres/telemetry';
import { bullPrefix } from './queues';

/** The queue of refund requests to the payment provider (issue 18). */
export const REFUND_QUEUE = 'refund';

export interface RefundJobData {
  refundId: string;
}

/** Hands refunds to the `refund` worker; one job per refund and request round (a staff retry is a new round). */
export interface RefundQueue {
  enqueue(refundId: string, round: number): Promise<void>;
  close(): Promise<void>;
}

/** Deterministic ids (no ':'): a redelivered cancellation or the sweep adds nothing while the job exists. */
export const refundJobId = (refundId: string, round: number) => `refund-${refundId}-r${round}`;

export function createRefundQueue(
  redisUrl: string,
  redisPrefix: string,
  options: { attempts: number; backoffMs: number },
): RefundQueue {
  const connection = createRedis(redisUrl, 'client');
  connection.on('error', () => undefined);
  const queue = new Queue<RefundJobData>(REFUND_QUEUE, {
    connection,
    prefix: bullPrefix(redisPrefix),
    telemetry: queueTelemetry('billing'),
    defaultJobOptions: {
      attempts: options.attempts,
      backoff: { type: 'exponential', delay: options.backoffMs },
      removeOnComplete: { age: 24 * 3600, count: 1000 },
      removeOnFail: { age: 30 * 24 * 3600 },
    },
  });
  queue.on('error', () => undefined);
  return {
    async enqueue(refundId, round) {
      await (queue as unknown as Queue).add('refund' as never, { refundId } as never, {
        jobId: refundJobId(refundId, round),
      });
    },
    async close() {
      await queue.close().catch(() => undefined);
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
