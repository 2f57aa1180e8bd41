import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { runWithContext, type Logger } from '@tyres/service-kit';
import type { Delivery, DeliveryRepository } from '../db/deliveries';
import {
  classifySmtpError,
  classifyTwilioError,
  errorText,
  PermanentDeliveryError,
  type FailureKind,
} from '../domain/delivery-errors';
import type { DeliveryOutcome } from '../domain/notifications';
import { InvalidPhoneNumberError, maskPhone, normalizeAuMobile } from '../domain/phone';
import type { DeliveryJobData } from './queues';
import type { EmailTransport, SentMessage, SmsTransport } from './transports';

/** What differs between SMS and email: how to address, send and judge a failure. */
export interface ChannelSender {
  channel: 'sms' | 'email';
  transport: string;
  /** Checks/normalises the recipient before the attempt; throws PermanentDeliveryError when it can never work. */
  prepare(delivery: Delivery): { normalizedTo?: string };
  send(delivery: Delivery, prepared: { normalizedTo?: string }): Promise<SentMessage>;
  classify(err: unknown): FailureKind;
}

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
        headers: { 'X-Delivery-Key': delivery.key },
      }),
    classify: classifySmtpError,
  };
}

class SendTimeoutError extends Error {
  override readonly name = 'SendTimeoutError';
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SendTimeoutError(`provider did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function persistently(task: () => Promise<void>, tries = 3): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await task();
    } catch (err) {
      if (i >= tries) throw err;
      await new Promise((r) => setTimeout(r, 200 * i));
    }
  }
}

export interface ProcessorDeps {
  deliveries: DeliveryRepository;
  sender: ChannelSender;
  logger: Logger;
  backoffMs: number;
  sendTimeoutMs: number;
  /**
   * How long an attempt in progress (`sending`) keeps others off the message (default: the send timeout + 30 s).
   * After that a worker that crashed mid-attempt is presumed dead and the message is attempted again.
   */
  leaseMs?: number;
  /** Test hook / metrics: called after each attempt. */
  onAttempt?: (outcome: 'sent' | 'retry' | 'failed' | 'skipped' | 'deferred', delivery: Delivery) => void;
  /**
   * Called once when a message's delivery has ended: handed to the transport, or given up (permanent error or
   * attempts exhausted). Not for retries, deferrals or a duplicate of a message already sent. Must not throw.
   */
  onFinished?: (delivery: Delivery, result: DeliveryOutcome) => void;
}

/**
 * One attempt of one message. The delivery row is the source of truth: a message already sent is never sent
 * again (a duplicate job, a stalled job re-run, a manual retry in the queue dashboard), and an attempt claims the
 * row first, so two workers never talk to the provider about the same message at once (a job re-run by another
 * replica while the first one still holds it waits until that attempt ends); every attempt is logged.
 * Permanent failures throw UnrecoverableError (BullMQ fails the job without retrying); transient ones rethrow and
 * BullMQ retries with exponential backoff until the attempts run out.
 */
export function deliveryProcessor(deps: ProcessorDeps) {
  const { deliveries, sender } = deps;
  const leaseMs = deps.leaseMs ?? deps.sendTimeoutMs + 30_000;
  return async (
    job: Job<DeliveryJobData>,
    token?: string,
  ): Promise<{ providerMessageId: string | null } | { skipped: string }> => {
    const correlationId = job.data.correlationId ?? job.id ?? 'unknown';
    return runWithContext({ correlationId }, async () => {
      const delivery = await deliveries.get(job.data.deliveryId);
      if (!delivery) throw new UnrecoverableError(`Delivery ${job.data.deliveryId} does not exist`);
      const log = deps.logger.child({
        deliveryId: delivery.id,
        key: delivery.key,
        channel: sender.channel,
        purpose: delivery.purpose,
      });
      if (delivery.status === 'sent') {
        log.info({}, 'already sent; not sending again');
        deps.onAttempt?.('skipped', delivery);
        return { skipped: 'already sent' };
      }

      let prepared: { normalizedTo?: string } = {};
      let prepareError: unknown;
      try {
        prepared = sender.prepare(delivery);
      } catch (err) {
        prepareError = err;
      }
      const attempt = await deliveries.claimAttempt(
        delivery.id,
        sender.transport,
        leaseMs,
        prepared.normalizedTo,
      );
      if (attempt === null) {
        const now = await deliveries.get(delivery.id);
        if (!now || now.status === 'sent') {
          log.info({}, 'already sent; not sending again');
          deps.onAttempt?.('skipped', delivery);
          return { skipped: 'already sent' };
        }
        // Another worker is in the middle of an attempt: look again once its lease is over, without using up one
        // of this job's attempts (DelayedError after moveToDelayed).
        const at = Math.max(now.updatedAt.getTime() + leaseMs, Date.now()) + 1000;
        log.warn({ retryAt: new Date(at).toISOString() }, 'another attempt is in progress; deferring');
        deps.onAttempt?.('deferred', delivery);
        await job.moveToDelayed(at, token);
        throw new DelayedError();
      }
      const started = Date.now();
      try {
        if (prepareError) throw prepareError;
        const sent = await withTimeout(sender.send(delivery, prepared), deps.sendTimeoutMs);
        const durationMs = Date.now() - started;
        try {
          await persistently(() =>
            deliveries.markSent(delivery.id, attempt, {
              transport: sender.transport,
              providerMessageId: sent.providerMessageId,
              rawMessage: sent.rawMessage ?? null,
              durationMs,
              at: new Date(),
            }),
          );
        } catch (err) {
          // Sent, but the log could not say so: never resend (a second SMS is worse than a stale log line).
          log.error({ err: errorText(err) }, 'message sent but the delivery log update failed');
        }
        log.info(
          {
            attempt,
            transport: sender.transport,
            durationMs,
            ...(prepared.normalizedTo ? { to: maskPhone(prepared.normalizedTo) } : {}),
          },
          sender.transport === 'local' ? 'recorded by the local transport (not delivered)' : 'sent',
        );
        deps.onAttempt?.('sent', delivery);
        deps.onFinished?.(delivery, { outcome: 'sent', transport: sender.transport });
        return { providerMessageId: sent.providerMessageId };
      } catch (err) {
        const durationMs = Date.now() - started;
        const kind = sender.classify(err);
        const message = errorText(err);
        const maxAttempts = job.opts.attempts ?? 1;
        const last = kind === 'permanent' || job.attemptsMade + 1 >= maxAttempts;
        if (last) {
          await deliveries.markFailed(delivery.id, attempt, {
            error: message,
            transport: sender.transport,
            durationMs,
            at: new Date(),
          });
          log.warn(
            { attempt, kind, err: message },
            kind === 'permanent' ? 'failed permanently; not retrying' : 'failed; attempts exhausted',
          );
          deps.onAttempt?.('failed', delivery);
          deps.onFinished?.(delivery, { outcome: 'failed', error: message });
        } else {
          const delay = Math.round(deps.backoffMs * 2 ** job.attemptsMade);
          await deliveries.markRetrying(delivery.id, attempt, {
            error: message,
            transport: sender.transport,
            durationMs,
            nextAttemptAt: new Date(Date.now() + delay),
          });
          log.warn({ attempt, err: message, retryInMs: delay }, 'send failed; will retry');
          deps.onAttempt?.('retry', delivery);
        }
        if (kind === 'permanent') throw new UnrecoverableError(message);
        throw err instanceof Error ? err : new Error(message);
      }
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
  });
  worker.on('error', (err) =>
    settings.logger.warn({ err: err.message, queue: settings.queue }, 'worker connection problem'),
  );
  return {
    worker,
    async close() {
      await worker.close();
      await settings.connection.quit().catch(() => settings.connection.disconnect());
    },
  };
}
