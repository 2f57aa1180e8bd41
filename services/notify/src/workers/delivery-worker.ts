import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis, runWithContext, type Logger } from '@tyres/service-kit';
import {
  DeliveryAttempts,
  DeliveryGivenUpError,
  type ChannelSender,
  type DeliveryAttemptsDeps,
} from '../app/delivery-attempts';
import { classifySmtpError, classifyTwilioError, PermanentDeliveryError } from '../domain/delivery-errors';
import { InvalidPhoneNumberError, normalizeAuMobile } from '../domain/phone';
import { bullPrefix, EMAIL_QUEUE, SMS_QUEUE, type DeliveryJobData } from './queues';
import type { EmailTransport, SmsTransport, Transports } from './transports';
import { queueTelemetry } from '@tyres/telemetry';

export type { ChannelSender } from '../app/delivery-attempts';

export function smsSender(transport: SmsTransport): ChannelSender {
  return {
    channel: 'sms',
    transport: transport.name,
    prepare(delivery) {
      try {
        return { normalizedTo: normalizeAuMobile(delivery.recipient) };
      } catch (err) {
        if (err instanceof InvalidPhoneNumberError) throw new PermanentDeliveryError(err.message);
        throw err;
      }
    },
    send: (delivery, prepared) =>
      transport.send({ to: prepared.normalizedTo as string, body: delivery.body }),
    classify: classifyTwilioError,
  };
}

/** The row's extra headers (JSON object of strings), whatever else the column holds ignored. */
function emailHeaders(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    ),
  );
}

export function emailSender(
  transport: EmailTransport,
  defaults: { from: string; replyTo?: string },
): ChannelSender {
  return {
    channel: 'email',
    transport: transport.name,
    prepare: () => ({}),
    send: (delivery) =>
      transport.send({
        from: defaults.from,
        to: delivery.recipient,
        ...(delivery.replyTo || defaults.replyTo
          ? { replyTo: (delivery.replyTo ?? defaults.replyTo) as string }
          : {}),
        subject: delivery.subject ?? '(no subject)',
        text: delivery.body,
        ...(delivery.html ? { html: delivery.html } : {}),
        // Lets a reply or a bounce be matched to the log entry.
        headers: { ...emailHeaders(delivery.headers), 'X-Delivery-Key': delivery.key },
      }),
    classify: classifySmtpError,
  };
}

export type ProcessorDeps = DeliveryAttemptsDeps;

/**
 * The BullMQ processor, thin: one attempt is DeliveryAttempts.attempt (src/app). Here only the queue's words:
 * a message given up fails the job without retrying (UnrecoverableError); a deferred one goes back to the delayed
 * set without using up an attempt (moveToDelayed + DelayedError); a transient failure rethrows and BullMQ retries
 * with exponential backoff until the attempts run out.
 */
export function deliveryProcessor(deps: ProcessorDeps) {
  const attempts = new DeliveryAttempts(deps);
  return async (
    job: Job<DeliveryJobData>,
    token?: string,
  ): Promise<{ providerMessageId: string | null } | { skipped: string }> => {
    const correlationId = job.data.correlationId ?? job.id ?? 'unknown';
    return runWithContext({ correlationId }, async () => {
      let result;
      try {
        result = await attempts.attempt({
          deliveryId: job.data.deliveryId,
          attemptsMade: job.attemptsMade,
          maxAttempts: job.opts.attempts ?? 1,
        });
      } catch (err) {
        if (err instanceof DeliveryGivenUpError) throw new UnrecoverableError(err.message);
        throw err;
      }
      if ('deferUntil' in result) {
        await job.moveToDelayed(result.deferUntil, token);
        throw new DelayedError();
      }
      return result;
    });
  };
}

export interface WorkerSettings {
  queue: string;
  prefix: string;
  concurrency: number;
  connection: Redis;
  logger: Logger;
}

/** A BullMQ worker on its own blocking connection (maxRetriesPerRequest null); close() waits for running jobs. */
export function startDeliveryWorker(
  settings: WorkerSettings,
  processor: ReturnType<typeof deliveryProcessor>,
) {
  const worker = new Worker<DeliveryJobData>(settings.queue, processor, {
    connection: settings.connection,
    prefix: settings.prefix,
    concurrency: settings.concurrency,
    // Each SMS/email job runs in a span continuing the event that asked for it (the producer's trace context).
    telemetry: queueTelemetry('notify'),
  });
  worker.on('error', (err) =>
    settings.logger.warn({ err: err.message, queue: settings.queue }, 'worker connection problem'),
  );
  return {
    worker,
    /** Its blocking connection is up (readiness reports it as a dependency). */
    isReady: () => settings.connection.status === 'ready',
    async close() {
      await worker.close();
      await settings.connection.quit().catch(() => settings.connection.disconnect());
    },
  };
}

export interface DeliveryWorkersOptions {
  redisUrl: string;
  redisPrefix: string;
  transports: Transports;
  email: { from: string; replyTo?: string };
  sms: { concurrency: number; backoffMs: number };
  emailQueue: { concurrency: number; backoffMs: number };
  sendTimeoutMs: number;
  logger: Logger;
  deliveries: DeliveryAttemptsDeps['deliveries'];
  onAttempt: NonNullable<DeliveryAttemptsDeps['onAttempt']>;
  onFinished: NonNullable<DeliveryAttemptsDeps['onFinished']>;
}

export interface DeliveryWorkers {
  /** Every worker's Redis connection is up. */
  isReady(): boolean;
  /** Lets the running jobs finish, then closes the connections. */
  close(): Promise<void>;
}

/** The sms and email workers, each on its own blocking Redis connection. */
export function startDeliveryWorkers(options: DeliveryWorkersOptions): DeliveryWorkers {
  const prefix = bullPrefix(options.redisPrefix);
  const worker = (queue: string, concurrency: number, sender: ChannelSender, backoffMs: number) =>
    startDeliveryWorker(
      {
        queue,
        prefix,
        concurrency,
        connection: createRedis(options.redisUrl, 'worker'),
        logger: options.logger,
      },
      deliveryProcessor({
        deliveries: options.deliveries,
        sender,
        logger: options.logger,
        backoffMs,
        sendTimeoutMs: options.sendTimeoutMs,
        onAttempt: options.onAttempt,
        onFinished: options.onFinished,
      }),
    );
  const workers = [
    worker(SMS_QUEUE, options.sms.concurrency, smsSender(options.transports.sms), options.sms.backoffMs),
    worker(
      EMAIL_QUEUE,
      options.emailQueue.concurrency,
      emailSender(options.transports.email, options.email),
      options.emailQueue.backoffMs,
    ),
  ];
  return {
    isReady: () => workers.every((w) => w.isReady()),
    async close() {
      await Promise.allSettled(workers.map((w) => w.close()));
    },
  };
}
