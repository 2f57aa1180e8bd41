import type { BookingCreated, EmailRequested, EventOf, SmsRequested } from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import type { ConfirmationParts, ConfirmationRepository } from '../db/confirmations';
import type { DeliveryRepository } from '../db/deliveries';
import {
  bookingConfirmationEmail,
  bookingConfirmationSms,
  manageUrlIn,
  type BusinessDetails,
} from '../domain/messages';
import { parseAuPhoneNumber } from '../domain/phone';
import {
  bookingConfirmationJobId,
  confirmationFallbackJobId,
  type ConfirmationJobData,
  type NotifyQueues,
} from '../workers/queues';
import type { DeliveryRequests } from './delivery-requests';

export interface ConfirmationsDeps {
  confirmations: ConfirmationRepository;
  deliveries: Pick<DeliveryRepository, 'getByKey'>;
  requests: Pick<DeliveryRequests, 'enqueue'>;
  queues: Pick<NotifyQueues, 'reminders'>;
  business: BusinessDetails;
  smsAttempts: number;
  emailAttempts: number;
  /** How long a BookingCreated waits for its manage link before the confirmation goes without one. */
  linkWaitMs: number;
  logger: Logger;
  now?: () => Date;
}

/** The confirmation SMS's delivery key (the email keeps the key it always had: bookingConfirmationJobId). */
export const confirmationSmsKey = (jobId: string) => `sms-booking-confirmation-${jobId}`;

type Source = { id: string | null; correlationId: string | null; occurredAt: string };

const isMobile = (phone: string): boolean => {
  try {
    return parseAuPhoneNumber(phone).kind === 'mobile';
  } catch {
    return false;
  }
};

/**
 * One confirmation per booking, email and SMS, carrying the "manage my booking" link (issue 18 item 3).
 *
 * Its two halves come separately: BookingCreated (what the email says; every service reads it, so it never holds the
 * token) and booking's manage-link EmailRequested/SmsRequested (purpose `booking-manage-link`, the link in its
 * text), both written in one transaction but delivered in either order, possibly to two replicas. Each half is
 * upserted into notify.confirmations; whichever write completes the row queues the confirmation, so nothing waits on
 * an order. The delivery rows (keys per booking) make redeliveries and a race of the two halves send once; the
 * manage-link messages themselves are not sent: their link is in the confirmation.
 *
 * A BookingCreated whose link never comes (a producer that issues none) still gets its confirmation: a delayed job
 * (`linkWaitMs`) sends it, with the link if it came meanwhile. A link arriving after that (the confirmation already
 * went without it) is sent on its own, as booking asked: never lost.
 */
export class Confirmations {
  constructor(private readonly deps: ConfirmationsDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async bookingCreated(event: EventOf<typeof BookingCreated>): Promise<void | 'duplicate'> {
    const parts = await this.deps.confirmations.addBooking(event.data);
    if (parts.manageUrl) return this.send(parts, event);
    const data: ConfirmationJobData = {
      confirmationJobId: event.data.jobId,
      correlationId: event.correlationId,
    };
    // A short real-time wait (not a Perth-time plan): BullMQ counts the delay from its own clock.
    await this.deps.queues.reminders.add('booking-confirmation', data, {
      jobId: confirmationFallbackJobId(event.data.jobId),
      delay: this.deps.linkWaitMs,
    });
  }

  /**
   * booking's manage-link message. 'merged': its link is (or will be) in the confirmation; 'send-as-is': not a
   * link notify can fold in (no URL, no job) or the confirmation already went without it: deliver it as asked.
   */
  async manageLink(
    event: EventOf<typeof EmailRequested> | EventOf<typeof SmsRequested>,
  ): Promise<'merged' | 'send-as-is'> {
    const text = 'text' in event.data ? event.data.text : event.data.body;
    const url = manageUrlIn(text);
    const jobId = event.data.jobId;
    if (!url || !jobId) return 'send-as-is';
    const parts = await this.deps.confirmations.addManageUrl(jobId, url);
    if (!parts.booking) return 'merged';
    const key = 'text' in event.data ? bookingConfirmationJobId(jobId) : confirmationSmsKey(jobId);
    const sent = await this.deps.deliveries.getByKey(key);
    if (sent && !sent.body.includes(url)) return 'send-as-is';
    // Already queued, with the link, by the other half (or booking's other manage-link message): nothing to do.
    // That event's own redelivery re-queues it if it failed half-way; this event's own redelivery (its id on the
    // row) goes on and re-adds the job (a Redis failure after the row committed).
    if (sent && sent.sourceEventId !== null && sent.sourceEventId !== event.id) return 'merged';
    await this.send(parts, event);
    return 'merged';
  }

  /** The delayed job: the link did not come in time; confirm now (with the link if it came meanwhile). */
  async fallback(job: ConfirmationJobData): Promise<'queued' | 'unknown-booking'> {
    const parts = await this.deps.confirmations.get(job.confirmationJobId);
    if (!parts?.booking) return 'unknown-booking';
    if (!parts.manageUrl)
      this.deps.logger.warn(
        { jobId: job.confirmationJobId },
        'no manage link for the booking: confirmation sent without it',
      );
    await this.send(parts, {
      id: null,
      correlationId: job.correlationId ?? null,
      occurredAt: this.now().toISOString(),
    });
    return 'queued';
  }

  private async send(
    parts: ConfirmationParts,
    source: Source | EventOf<typeof BookingCreated> | EventOf<typeof EmailRequested>,
  ): Promise<void | 'duplicate'> {
    const b = parts.booking!;
    const email = bookingConfirmationEmail(b, this.deps.business, parts.manageUrl);
    const common = {
      purpose: 'booking-confirmation',
      jobId: b.jobId,
      sourceEventId: source.id,
      correlationId: source.correlationId,
      requestedAt: new Date(source.occurredAt),
    };
    const outcome = await this.deps.requests.enqueue({
      ...common,
      key: bookingConfirmationJobId(b.jobId),
      channel: 'email',
      recipient: b.customer.email,
      subject: email.subject,
      body: email.text,
      html: email.html,
      maxAttempts: this.deps.emailAttempts,
    });
    // The SMS is the link's way to the phone: a booking without one (none in practice) gets the email, as before.
    if (parts.manageUrl && isMobile(b.customer.phone))
      await this.deps.requests.enqueue({
        ...common,
        key: confirmationSmsKey(b.jobId),
        channel: 'sms',
        recipient: b.customer.phone,
        body: bookingConfirmationSms(b, this.deps.business, parts.manageUrl),
        maxAttempts: this.deps.smsAttempts,
      });
    return outcome;
  }
}
