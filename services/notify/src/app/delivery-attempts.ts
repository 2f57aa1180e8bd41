import type { Logger } from '@tyres/service-kit';
import { WITHDRAWN, type Delivery, type DeliveryRepository } from '../db/deliveries';
import { errorText, type FailureKind } from '../domain/delivery-errors';
import type { DeliveryOutcome } from '../domain/notifications';
import { maskPhone } from '../domain/phone';

/** What a transport answered for a message handed over. */
export interface SentMessage {
  providerMessageId: string | null;
  /** Local email transport: the RFC 822 message that would have been sent. */
  rawMessage?: string;
}

/** What differs between SMS and email: how to address, send and judge a failure (workers/delivery-worker.ts). */
export interface ChannelSender {
  channel: 'sms' | 'email';
  transport: string;
  /** Checks/normalises the recipient before the attempt; throws PermanentDeliveryError when it can never work. */
  prepare(delivery: Delivery): { normalizedTo?: string };
  send(delivery: Delivery, prepared: { normalizedTo?: string }): Promise<SentMessage>;
  classify(err: unknown): FailureKind;
}

export interface DeliveryAttemptsDeps {
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

/** One attempt as the queue sees it: which message, and how many attempts the queue already made of its job. */
export interface AttemptRequest {
  deliveryId: string;
  attemptsMade: number;
  maxAttempts: number;
}

export type AttemptResult =
  | { providerMessageId: string | null }
  | { skipped: string }
  /** Another worker holds the message: look again at this instant (ms), without using up an attempt. */
  | { deferUntil: number };

/** The message is given up for good: the queue must not retry it (BullMQ: UnrecoverableError). */
export class DeliveryGivenUpError extends Error {
  override readonly name = 'DeliveryGivenUpError';
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

/**
 * One attempt of one message, and its outcome recorded. The delivery row is the source of truth: a message already
 * sent is never sent again (a duplicate job, a stalled job re-run, a manual retry in the queue dashboard), and an
 * attempt claims the row first, so two workers never talk to the provider about the same message at once (a job
 * re-run by another replica while the first one still holds it is deferred until that attempt ends); every attempt
 * is logged. A permanent failure throws DeliveryGivenUpError; a transient one rethrows, and the queue retries with
 * exponential backoff until the attempts run out.
 */
export class DeliveryAttempts {
  private readonly leaseMs: number;

  constructor(private readonly deps: DeliveryAttemptsDeps) {
    this.leaseMs = deps.leaseMs ?? deps.sendTimeoutMs + 30_000;
  }

  private logFor(delivery: Delivery): Logger {
    return this.deps.logger.child({
      deliveryId: delivery.id,
      key: delivery.key,
      channel: this.deps.sender.channel,
      purpose: delivery.purpose,
    });
  }

  async attempt(request: AttemptRequest): Promise<AttemptResult> {
    const { deliveries, sender } = this.deps;
    // The claim comes first and returns the row: a message that can be attempted (the usual case) costs no read
    // before it. Only a message not taken is read, to say why.
    const delivery = await deliveries.claim(request.deliveryId, sender.transport, this.leaseMs);
    if (delivery === null) {
      const now = await deliveries.get(request.deliveryId);
      if (!now) throw new DeliveryGivenUpError(`Delivery ${request.deliveryId} does not exist`);
      const log = this.logFor(now);
      if (now.status === 'sent') {
        log.info({}, 'already sent; not sending again');
        this.deps.onAttempt?.('skipped', now);
        return { skipped: 'already sent' };
      }
      if (now.status === 'failed' && now.lastError?.startsWith(WITHDRAWN)) {
        log.info({}, 'withdrawn (the recipient unsubscribed); not sending');
        this.deps.onAttempt?.('skipped', now);
        return { skipped: 'withdrawn' };
      }
      // Another worker is in the middle of an attempt: look again once its lease is over.
      const at = Math.max(now.updatedAt.getTime() + this.leaseMs, Date.now()) + 1000;
      log.warn({ retryAt: new Date(at).toISOString() }, 'another attempt is in progress; deferring');
      this.deps.onAttempt?.('deferred', now);
      return { deferUntil: at };
    }
    const attempt = delivery.attempts;
    // Made on first use: at the usual log level (warn) a sent message logs nothing.
    let logger: Logger | undefined;
    const log = () => (logger ??= this.logFor(delivery));

    let prepared: { normalizedTo?: string } = {};
    let prepareError: unknown;
    try {
      prepared = sender.prepare(delivery);
    } catch (err) {
      prepareError = err;
    }
    // The E.164 number goes into the row with the attempt's outcome (SMS).
    const normalized = prepared.normalizedTo ? { normalizedTo: prepared.normalizedTo } : {};
    const started = Date.now();
    try {
      if (prepareError) throw prepareError;
      const sent = await withTimeout(sender.send(delivery, prepared), this.deps.sendTimeoutMs);
      const durationMs = Date.now() - started;
      try {
        await persistently(() =>
          deliveries.markSent(delivery.id, attempt, {
            transport: sender.transport,
            providerMessageId: sent.providerMessageId,
            rawMessage: sent.rawMessage ?? null,
            durationMs,
            at: new Date(),
            ...normalized,
          }),
        );
      } catch (err) {
        // Sent, but the log could not say so: never resend (a second SMS is worse than a stale log line).
        log().error({ err: errorText(err) }, 'message sent but the delivery log update failed');
      }
      log().info(
        {
          attempt,
          transport: sender.transport,
          durationMs,
          ...(prepared.normalizedTo ? { to: maskPhone(prepared.normalizedTo) } : {}),
        },
        sender.transport === 'local' ? 'recorded by the local transport (not delivered)' : 'sent',
      );
      this.deps.onAttempt?.('sent', delivery);
      this.deps.onFinished?.(delivery, { outcome: 'sent', transport: sender.transport });
      return { providerMessageId: sent.providerMessageId };
    } catch (err) {
      const durationMs = Date.now() - started;
      const kind = sender.classify(err);
      const message = errorText(err);
      const last = kind === 'permanent' || request.attemptsMade + 1 >= request.maxAttempts;
      if (last) {
        await deliveries.markFailed(delivery.id, attempt, {
          error: message,
          transport: sender.transport,
          durationMs,
          at: new Date(),
          ...normalized,
        });
        log().warn(
          { attempt, kind, err: message },
          kind === 'permanent' ? 'failed permanently; not retrying' : 'failed; attempts exhausted',
        );
        this.deps.onAttempt?.('failed', delivery);
        this.deps.onFinished?.(delivery, { outcome: 'failed', error: message });
      } else {
        const delay = Math.round(this.deps.backoffMs * 2 ** request.attemptsMade);
        await deliveries.markRetrying(delivery.id, attempt, {
          error: message,
          transport: sender.transport,
          durationMs,
          nextAttemptAt: new Date(Date.now() + delay),
          ...normalized,
        });
        log().warn({ attempt, err: message, retryInMs: delay }, 'send failed; will retry');
        this.deps.onAttempt?.('retry', delivery);
      }
      if (kind === 'permanent') throw new DeliveryGivenUpError(message);
      throw err instanceof Error ? err : new Error(message);
    }
  }
}
