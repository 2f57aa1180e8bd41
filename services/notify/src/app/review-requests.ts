import { randomBytes } from 'node:crypto';
import type { CustomerInvoiceIssuedV2, CustomerInvoiceUpdatedV2, EventOf, JobCompleted } from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import type { DeliveryRepository } from '../db/deliveries';
import type { ReviewProgress, ReviewRepository } from '../db/reviews';
import type { BusinessDetails } from '../domain/messages';
import {
  isUnsubscribeToken,
  REVIEW_REQUEST_PURPOSE,
  reviewRequestEmail,
  unsubscribeHeaders,
  unsubscribeLinks,
} from '../domain/review-messages';
import type { NotifyQueues } from '../workers/queues';
import type { DeliveryRequests } from './delivery-requests';

export interface ReviewRequestsDeps {
  reviews: ReviewRepository;
  deliveries: Pick<DeliveryRepository, 'withdrawOpen'>;
  requests: Pick<DeliveryRequests, 'enqueue'>;
  queues: Pick<NotifyQueues, 'email'>;
  business: BusinessDetails;
  emailAttempts: number;
  /** The business's review page (config REVIEW_URL); null: no review requests at all. */
  reviewUrl: string | null;
  /** The public site, where the unsubscribe page and its API live. */
  siteUrl: string;
  logger: Logger;
  now?: () => Date;
}

export type ReviewOutcome = 'queued' | 'duplicate' | 'waiting' | 'disabled' | 'unsubscribed';

/** The review request's delivery key: one per job, whichever replica or redelivery queues it. */
export const reviewRequestKey = (jobId: string) => `email-review-request-${jobId}`;

/** "j***@example.com": enough for the customer to recognise the address on the public page, not to learn it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * The review request (issue 18 item 3) and the unsubscribe that the Spam Act 2003 requires of it.
 *
 * - When: the job is completed (JobCompleted, which carries the customer's contact) and its invoice is paid
 *   (CustomerInvoiceUpdated to `paid` for an on-site payment; CustomerInvoiceIssued already `paid` for a prepaid
 *   booking, whose work comes later), in either order: each fact is recorded, the second one queues the email. A
 *   cancelled booking's fee invoice never meets a completed job, so it never asks for a review.
 * - Once per job: the delivery row's key is the job's (reviewRequestKey), so replays, replicas and both facts
 *   arriving together queue one email. Quiet hours hold it until 8 am like every message (app/delivery-requests.ts).
 * - Email only: an SMS would need its own opt-out (reply STOP) that notify cannot receive; docs/decisions.md.
 * - Unsubscribed contacts (by email address) get none; an unsubscribe also withdraws the requests still waiting
 *   (held for the morning or retrying). Transactional messages never look at it.
 */
export class ReviewRequests {
  constructor(private readonly deps: ReviewRequestsDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async jobCompleted(event: EventOf<typeof JobCompleted>): Promise<ReviewOutcome> {
    const d = event.data;
    const progress = await this.deps.reviews.completed({
      jobId: d.jobId,
      jobNumber: d.jobNumber,
      customerName: d.customer.name,
      customerEmail: d.customer.email,
      at: new Date(d.completedAt),
    });
    return this.request(progress, event);
  }

  async invoicePaid(
    event: EventOf<typeof CustomerInvoiceUpdatedV2> | EventOf<typeof CustomerInvoiceIssuedV2>,
  ): Promise<ReviewOutcome> {
    const d = event.data;
    if (d.status !== 'paid') return 'waiting';
    const progress = await this.deps.reviews.paid(d.jobId, new Date(d.paidAt ?? event.occurredAt));
    return this.request(progress, event);
  }

  private async request(
    p: ReviewProgress,
    source: { id: string; correlationId: string; occurredAt: string },
  ): Promise<ReviewOutcome> {
    if (!this.deps.reviewUrl) return 'disabled';
    if (!p.completedAt || !p.paidAt || !p.customerEmail || !p.jobNumber || !p.customerName) return 'waiting';
    const contact = await this.deps.reviews.contact(p.customerEmail, randomBytes(32).toString('base64url'));
    if (contact.unsubscribedAt) return 'unsubscribed';
    const links = unsubscribeLinks(this.deps.siteUrl, contact.token);
    const email = reviewRequestEmail(
      { jobNumber: p.jobNumber, customerName: p.customerName },
      this.deps.business,
      { reviewUrl: this.deps.reviewUrl, unsubscribeUrl: links.page },
    );
    const outcome = await this.deps.requests.enqueue({
      key: reviewRequestKey(p.jobId),
      channel: 'email',
      purpose: REVIEW_REQUEST_PURPOSE,
      recipient: p.customerEmail,
      subject: email.subject,
      body: email.text,
      html: email.html,
      headers: unsubscribeHeaders(links),
      jobId: p.jobId,
      maxAttempts: this.deps.emailAttempts,
      sourceEventId: source.id,
      correlationId: source.correlationId,
      requestedAt: new Date(source.occurredAt),
    });
    return outcome === 'duplicate' ? 'duplicate' : 'queued';
  }

  /** GET /api/unsubscribe/:token: whether the link's contact is unsubscribed; null for an unknown link (404). */
  async status(token: string): Promise<{ unsubscribed: boolean; contact: string } | null> {
    if (!isUnsubscribeToken(token)) return null;
    const contact = await this.deps.reviews.byToken(token);
    if (!contact) return null;
    return { unsubscribed: contact.unsubscribedAt !== null, contact: maskEmail(contact.email) };
  }

  /**
   * POST /api/unsubscribe/:token (the page, or a mail client's one-click List-Unsubscribe-Post): honoured at once,
   * idempotent; the review requests still waiting for that address are withdrawn. Null for an unknown link (404).
   */
  async unsubscribe(token: string): Promise<{ unsubscribed: true; contact: string } | null> {
    if (!isUnsubscribeToken(token)) return null;
    const contact = await this.deps.reviews.unsubscribe(token, this.now());
    if (!contact) return null;
    const withdrawn = await this.deps.deliveries.withdrawOpen(
      contact.email,
      REVIEW_REQUEST_PURPOSE,
      'unsubscribed from review requests',
    );
    for (const key of withdrawn)
      await this.deps.queues.email.remove(key).catch((err: unknown) => {
        // The row is withdrawn already: a job left behind finds nothing to claim (claimAttempt) and sends nothing.
        this.deps.logger.warn(
          { key, err: (err as Error).message },
          'withdrawn review request job not removed',
        );
      });
    if (withdrawn.length) this.deps.logger.info({ withdrawn: withdrawn.length }, 'review requests withdrawn');
    return { unsubscribed: true, contact: maskEmail(contact.email) };
  }
}
