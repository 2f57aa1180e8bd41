import { Worker } from 'bullmq';
import { createRedis, type Logger } from '@tyres/service-kit';
import { queueTelemetry } from '@tyres/telemetry';
import type { BookingLifecycle } from '../app/booking-lifecycle';
import type { Confirmations } from '../app/confirmations';
import { bullPrefix, REMINDER_QUEUE, type ConfirmationJobData, type ReminderJobData } from './queues';

export interface ReminderWorkerOptions {
  redisUrl: string;
  redisPrefix: string;
  lifecycle: Pick<BookingLifecycle, 'remind'>;
  /** The confirmation's fallback jobs (name `booking-confirmation`) share the queue. */
  confirmations: Pick<Confirmations, 'fallback'>;
  logger: Logger;
}

/**
 * The day-before reminders (and the confirmations' fallbacks), when due: thin, the use case decides (BookingLifecycle.remind). A failure (database or
 * Redis down) throws and BullMQ retries the job; the delivery rows keep a second run from sending twice.
 */
export function startReminderWorker(options: ReminderWorkerOptions) {
  const connection = createRedis(options.redisUrl, 'worker');
  const worker = new Worker<ReminderJobData | ConfirmationJobData>(
    REMINDER_QUEUE,
    async (job) => {
      if (job.name === 'booking-confirmation' && 'confirmationJobId' in job.data)
        return options.confirmations.fallback(job.data);
      if (!('bookingJobId' in job.data)) return 'unknown-job';
      const outcome = await options.lifecycle.remind(job.data);
      if (outcome !== 'queued')
        options.logger.info({ jobId: job.data.bookingJobId, outcome }, 'reminder not sent: booking changed');
      return outcome;
    },
    {
      connection,
      prefix: bullPrefix(options.redisPrefix),
      concurrency: 5,
      telemetry: queueTelemetry('notify'),
    },
  );
  worker.on('error', (err) =>
    options.logger.warn({ err: err.message, queue: REMINDER_QUEUE }, 'worker connection problem'),
  );
  return {
    isReady: () => connection.status === 'ready',
    async close() {
      await worker.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
