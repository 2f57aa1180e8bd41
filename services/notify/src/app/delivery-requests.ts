import type { EmailRequested, EventOf, SmsRequested } from '@tyres/events';
import type { DeliveryRepository, DeliveryStatus, NewDelivery } from '../db/deliveries';
import type { BusinessDetails } from '../domain/messages';
import { DEFAULT_QUIET_WINDOW, releaseAfterQuietHours, type QuietWindow } from '../domain/quiet-hours';
import { emailJobId, smsJobId, type NotifyQueues } from '../workers/queues';

/** Statuses whose BullMQ job may still need (re-)adding: the message has not been sent or given up. */
export const OPEN_STATUSES: readonly DeliveryStatus[] = ['queued', 'sending', 'retrying'];

export interface DeliveryRequestsDeps {
  deliveries: DeliveryRepository;
  queues: Pick<NotifyQueues, 'sms' | 'email'>;
  business: BusinessDetails;
  smsAttempts: number;
  emailAttempts: number;
  /** The clock quiet hours are judged by (tests pin it). */
  now?: () => Date;
  /** Config QUIET_HOURS; null: off. Default 8 pm to 8 am Perth. */
  quietWindow?: QuietWindow | null;
}

/**
 * What notify does once per event (the durable `notify` queue): decide the message, write its delivery row, queue
 * it for the sms or email worker.
 *
 * The row is the idempotency record (it plays the inbox's part): a redelivered event finds it and at most re-adds
 * the job, which BullMQ collapses by id; a message already sent or failed is left alone. Because the row commits
 * before the job is added, a failure to add (Redis down) throws, the event is retried, and the retry adds the job:
 * nothing is lost between the two stores, and nothing is sent twice.
 */
export class DeliveryRequests {
  constructor(private readonly deps: DeliveryRequestsDeps) {}

  /** SmsRequested -> `sms` queue (job id from requestId). The number is checked by the worker (no retry if invalid). */
  smsRequested(event: EventOf<typeof SmsRequested>): Promise<void | 'duplicate'> {
    return this.enqueue({
      key: smsJobId(event.data.requestId),
      channel: 'sms',
      purpose: event.data.purpose,
      recipient: event.data.to,
      body: event.data.body,
      jobId: event.data.jobId,
      requestedBy: event.data.requestedBy ?? null,
      maxAttempts: this.deps.smsAttempts,
      sourceEventId: event.id,
      correlationId: event.correlationId,
      requestedAt: new Date(event.data.requestedAt),
    });
  }

  /** EmailRequested -> `email` queue (job id from requestId). */
  emailRequested(event: EventOf<typeof EmailRequested>): Promise<void | 'duplicate'> {
    return this.enqueue({
      key: emailJobId(event.data.requestId),
      channel: 'email',
      purpose: event.data.purpose,
      recipient: event.data.to,
      subject: event.data.subject,
      body: event.data.text,
      html: event.data.html ?? null,
      replyTo: event.data.replyTo ?? null,
      jobId: event.data.jobId,
      maxAttempts: this.deps.emailAttempts,
      sourceEventId: event.id,
      correlationId: event.correlationId,
      requestedAt: new Date(event.data.requestedAt),
    });
  }

  /**
   * Writes the delivery row (idempotent on its key), then queues the BullMQ job with the same key as job id. In quiet
   * hours (8 pm-8 am Perth) the job is delayed to 8 am, except the technician-en-route SMS (domain/quiet-hours.ts).
   */
  async enqueue(input: NewDelivery): Promise<void | 'duplicate'> {
    const now = this.deps.now?.() ?? new Date();
    const sendAt = releaseAfterQuietHours(
      now,
      input.purpose,
      this.deps.quietWindow === undefined ? DEFAULT_QUIET_WINDOW : this.deps.quietWindow,
    );
    const held = sendAt.getTime() > now.getTime();
    const { delivery, created } = await this.deps.deliveries.createIfAbsent({
      ...input,
      nextAttemptAt: held ? sendAt : null,
    });
    if (!created && !OPEN_STATUSES.includes(delivery.status)) return 'duplicate';
    const queue = delivery.channel === 'sms' ? this.deps.queues.sms : this.deps.queues.email;
    await queue.add(
      delivery.purpose,
      { deliveryId: delivery.id, correlationId: input.correlationId ?? undefined },
      // BullMQ runs a delayed job at timestamp + delay: both from our clock, so the job is due at 8 am exactly.
      held
        ? { jobId: delivery.key, delay: sendAt.getTime() - now.getTime(), timestamp: now.getTime() }
        : { jobId: delivery.key },
    );
    return created ? undefined : 'duplicate';
  }
}
