import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { queueTelemetry } from '@tyres/telemetry';

/** Queue names (architecture section 5). */
export const SMS_QUEUE = 'sms';
export const EMAIL_QUEUE = 'email';

/**
 * BullMQ key prefix: REDIS_PREFIX + "notify", so notify's `email` queue never shares keys with billing's `email`
 * queue, and test suites never see each other's jobs.
 */
export const bullPrefix = (redisPrefix: string) => `${redisPrefix}notify`;

/** Job data: only the delivery row's id. Recipients and texts stay in Postgres, not in clear text in Redis. */
export interface DeliveryJobData {
  deliveryId: string;
  correlationId?: string;
}

// Deterministic job ids (BullMQ forbids ':' in custom ids; UUIDs and these prefixes have none).
export const smsJobId = (requestId: string) => `sms-${requestId}`;
export const emailJobId = (requestId: string) => `email-${requestId}`;
export const bookingConfirmationJobId = (jobId: string) => `email-booking-confirmation-${jobId}`;

export function jobOptions(attempts: number, backoffMs: number): JobsOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: backoffMs },
    // Finished jobs are kept for a week (failed ones a month) so a late duplicate request with the same id collapses
    // into the existing job instead of creating a new one; the delivery log is the record beyond that.
    removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

export interface NotifyQueues {
  sms: Queue<DeliveryJobData>;
  email: Queue<DeliveryJobData>;
  close(): Promise<void>;
}

export interface QueueSettings {
  redisPrefix: string;
  smsAttempts: number;
  smsBackoffMs: number;
  emailAttempts: number;
  emailBackoffMs: number;
}

/**
 * Producers on the runtime's Redis client (no offline queue: an add while Redis is down fails at once, so the
 * event is retried instead of hanging).
 */
export function createQueues(producer: Redis, settings: QueueSettings): NotifyQueues {
  const prefix = bullPrefix(settings.redisPrefix);
  // Adding a job records a producer span and stores the trace context in the job, for the worker to continue.
  const telemetry = queueTelemetry('notify');
  const sms = new Queue<DeliveryJobData>(SMS_QUEUE, {
    connection: producer,
    prefix,
    telemetry,
    defaultJobOptions: jobOptions(settings.smsAttempts, settings.smsBackoffMs),
  });
  const email = new Queue<DeliveryJobData>(EMAIL_QUEUE, {
    connection: producer,
    prefix,
    telemetry,
    defaultJobOptions: jobOptions(settings.emailAttempts, settings.emailBackoffMs),
  });
  sms.on('error', () => undefined);
  email.on('error', () => undefined);
  return {
    sms,
    email,
    async close() {
      await Promise.allSettled([sms.close(), email.close()]);
    },
  };
}
