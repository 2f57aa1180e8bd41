import type { BookingCreated, EmailRequested, EventHandler, EventOf, SmsRequested } from '@tyres/events';
import type { DeliveryRepository, NewDelivery } from '../db/deliveries';
import { OPEN_STATUSES } from '../db/deliveries';
import { bookingConfirmationEmail, type BusinessDetails } from '../domain/messages';
import { bookingConfirmationJobId, emailJobId, smsJobId, type NotifyQueues } from '../workers/queues';

export interface HandlerDeps {
  deliveries: DeliveryRepository;
  queues: NotifyQueues;
  business: BusinessDetails;
  smsAttempts: number;
  emailAttempts: number;
}

/**
 * Writes the delivery row (idempotent on its key), then queues the BullMQ job with the same key as job id.
 *
 * The row is the handler's idempotency record (it plays the inbox's part): a redelivered event finds it and at
 * most re-adds the job, which BullMQ collapses by id; a message already sent or failed is left alone. Because the
 * row commits before the job is added, a failure to add (Redis down) throws, the event is retried, and the retry
 * adds the job: nothing is lost between the two stores, and nothing is sent twice.
 */
async function enqueueDelivery(deps: HandlerDeps, input: NewDelivery): Promise<void | 'duplicate'> {
  const { delivery, created } = await deps.deliveries.createIfAbsent(input);
  if (!created && !OPEN_STATUSES.includes(delivery.status)) return 'duplicate';
  const queue = delivery.channel === 'sms' ? deps.queues.sms : deps.queues.email;
  await queue.add(
    delivery.purpose,
    { deliveryId: delivery.id, correlationId: input.correlationId ?? undefined },
    { jobId: delivery.key },
  );
  return created ? undefined : 'duplicate';
}

/** SmsRequested -> `sms` queue (job id from requestId). The number is checked by the worker (no retry if invalid). */
export function onSmsRequested(deps: HandlerDeps): EventHandler<EventOf<typeof SmsRequested>> {
  return (event) =>
    enqueueDelivery(deps, {
      key: smsJobId(event.data.requestId),
      channel: 'sms',
      purpose: event.data.purpose,
      recipient: event.data.to,
      body: event.data.body,
      jobId: event.data.jobId,
      requestedBy: event.data.requestedBy ?? null,
      maxAttempts: deps.smsAttempts,
      sourceEventId: event.id,
      correlationId: event.correlationId,
      requestedAt: new Date(event.data.requestedAt),
    });
}

/** EmailRequested -> `email` queue (job id from requestId). */
export function onEmailRequested(deps: HandlerDeps): EventHandler<EventOf<typeof EmailRequested>> {
  return (event) =>
    enqueueDelivery(deps, {
      key: emailJobId(event.data.requestId),
      channel: 'email',
      purpose: event.data.purpose,
      recipient: event.data.to,
      subject: event.data.subject,
      body: event.data.text,
      html: event.data.html ?? null,
      replyTo: event.data.replyTo ?? null,
      jobId: event.data.jobId,
      maxAttempts: deps.emailAttempts,
      sourceEventId: event.id,
      correlationId: event.correlationId,
      requestedAt: new Date(event.data.requestedAt),
    });
}

/** BookingCreated -> booking confirmation email to the customer (one per booking: job id from the job's id). */
export function onBookingCreated(deps: HandlerDeps): EventHandler<EventOf<typeof BookingCreated>> {
  return (event) => {
    const content = bookingConfirmationEmail(event.data, deps.business);
    return enqueueDelivery(deps, {
      key: bookingConfirmationJobId(event.data.jobId),
      channel: 'email',
      purpose: 'booking-confirmation',
      recipient: event.data.customer.email,
      subject: content.subject,
      body: content.text,
      html: content.html,
      jobId: event.data.jobId,
      maxAttempts: deps.emailAttempts,
      sourceEventId: event.id,
      correlationId: event.correlationId,
      requestedAt: new Date(event.occurredAt),
    });
  };
}
