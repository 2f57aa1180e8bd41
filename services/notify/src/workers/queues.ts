import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { SLOT_START, type TimeSlot } from '@tyres/kernel';
import { queueTelemetry } from '@tyres/telemetry';

/** Queue names (architecture section 5). */
export const SMS_QUEUE = 'sms';
export const EMAIL_QUEUE = 'email';
/** Day-before reminders: delayed jobs, one per booking and slot (app/booking-lifecycle.ts). */
export const REMINDER_QUEUE = 'reminders';

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

/**
 * A reminder job's data: the booking and the slot it was scheduled for. At run time it is compared with notify's
 * booking record, so a job for a slot the booking no longer has (moved, cancelled) never sends. No PII.
 */
export interface ReminderJobData {
  bookingJobId: string;
  scheduledDate: string;
  timeSlot: TimeSlot;
  correlationId?: string;
}

/**
 * The confirmation's fallback (app/confirmations.ts), in the `reminders` queue as job name `booking-confirmation`:
 * a BookingCreated whose manage link has not come after a while is confirmed without it.
 */
export interface ConfirmationJobData {
  confirmationJobId: string;
  correlationId?: string;
}

// Deterministic job ids (BullMQ forbids ':' in custom ids; UUIDs and these prefixes have none).
export const smsJobId = (requestId: string) => `sms-${requestId}`;
export const emailJobId = (requestId: string) => `email-${requestId}`;
export const bookingConfirmationJobId = (jobId: string) => `email-booking-confirmation-${jobId}`;
export const confirmationFallbackJobId = (jobId: string) => `confirmation-${jobId}`;
/** "20261126-0800": a slot in ids (its date and start, no spaces or ':'). */
export const slotKey = (slot: { scheduledDate: string; timeSlot: TimeSlot }) =>
  `${slot.scheduledDate.replace(/-/g, '')}-${SLOT_START[slot.timeSlot].replace(':', '')}`;
/**
 * The reminder of one booking for one slot: every replica and every redelivery computes the same id, so BullMQ
 * keeps one job; a move removes the old slot's job and adds the new slot's.
 */
export const reminderJobId = (slot: ReminderJobData) => `reminder-${slot.bookingJobId}-${slotKey(slot)}`;

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
  reminders: Queue<ReminderJobData | ConfirmationJobData>;
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
  const reminders = new Queue<ReminderJobData | ConfirmationJobData>(REMINDER_QUEUE, {
    connection: producer,
    prefix,
    telemetry,
    // The reminder job only queues the SMS and email (their own jobs retry the sending).
    defaultJobOptions: jobOptions(5, 10_000),
  });
  sms.on('error', () => undefined);
  email.on('error', () => undefined);
  reminders.on('error', () => undefined);
  return {
    sms,
    email,
    reminders,
    async close() {
      await Promise.allSettled([sms.close(), email.close(), reminders.close()]);
    },
  };
}
