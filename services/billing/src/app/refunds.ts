import { randomUUID } from 'node:crypto';
import type { BookingCancelled, EventOf, Logger as EventLogger } from '@tyres/events';
import { formatMoney, parseMoneyInput, type Cents } from '@tyres/kernel';
import { conflict, notFound, type Logger } from '@tyres/service-kit';
import type { Db, Tx } from '../db/client';
import type { Refund } from '../db/generated/client';
import { claimJobCancellation, findJob } from '../db/jobs';
import { findPaymentByIntent } from '../db/payments';
import {
  findRefund,
  insertRefundOnce,
  listRefunds,
  lockRefund,
  lockRefundOfProvider,
  requestedRefundIds,
  updateRefund,
} from '../db/refunds';
import {
  cancellationInvoicePlan,
  nextRefundStatus,
  refundPlan,
  type CancellationTermsInput,
  type RefundStatus,
} from '../domain/cancellation';
import { centsOf } from '../domain/money';
import type { ProviderEvent } from '../domain/provider-event';
import { refundStatus, type PaymentProvider } from '../http/stripe-client';
import type { RefundQueue } from '../workers/refund-queue';
import type { CustomerInvoices } from './customer-invoices';
import { JobNotKnownYet } from './jobs';
import type { Transactions } from './transactions';

type Log = Pick<EventLogger, 'info' | 'warn' | 'error'>;

export const REFUND_NOT_FOUND = 'Refund not found';
export const REFUND_NOT_FAILED = 'Only a failed refund can be retried';

export interface RefundDeps {
  db: Db;
  transactions: Transactions;
  invoices: Pick<CustomerInvoices, 'applyCancellation'>;
  provider: PaymentProvider;
  queue: RefundQueue;
  clock: () => Date;
  logger: Logger;
}

/** The Stripe idempotency key of a cancellation's refund: the same cancellation never refunds twice. */
export const refundIdempotencyKey = (cancellationEventId: string) => `refund-${cancellationEventId}`;

function cents(money: string): Cents {
  const parsed = parseMoneyInput(money);
  if (!parsed.ok) throw new Error(`not money: ${money}`);
  return parsed.cents;
}

/** The parts of a refund (or a charge's refund list) that a provider event carries. */
interface ProviderRefundObject {
  id?: unknown;
  object?: unknown;
  status?: unknown;
  failure_reason?: unknown;
  metadata?: Record<string, string>;
}

function refundsOfEvent(event: ProviderEvent): ProviderRefundObject[] {
  const object = event.data.object as ProviderRefundObject & { refunds?: { data?: unknown } };
  if (event.type.startsWith('refund.')) return [object];
  // charge.refunded carries the charge, with its refunds listed (Stripe includes the latest ones).
  const list = object.refunds?.data;
  return Array.isArray(list) ? (list as ProviderRefundObject[]) : [];
}

/**
 * Refunds of prepaid bookings cancelled under the policy (issue 18). The cancellation is recorded in the inbox
 * transaction (the refund row and the invoices); the call to the provider happens outside it, in the `refund` worker,
 * with retries and backoff and an idempotency key derived from the cancellation event, so a retried or redelivered
 * request never refunds twice. Refund webhooks settle the status; a refund that keeps failing stays visible as
 * failed with its error, and staff can retry it.
 */
export class Refunds {
  constructor(private readonly deps: RefundDeps) {}

  /**
   * booking.cancelled, in the inbox transaction: the refund recorded (prepaid, something to refund), the invoices
   * changed as the terms say. Nothing here calls the provider.
   */
  async bookingCancelled(tx: Tx, event: EventOf<typeof BookingCancelled>, log: Log): Promise<void> {
    const data = event.data;
    const job = await findJob(tx, data.jobId);
    if (!job) throw new JobNotKnownYet(data.jobId);
    // A job is cancelled once: a second BookingCancelled for it (another event id) changes nothing, so neither a
    // second refund nor a second fee invoice can come of it.
    if (!(await claimJobCancellation(tx, data.jobId, event.id))) {
      log.warn({ jobId: data.jobId }, 'job cancellation already applied from another event: ignored');
      return;
    }
    const terms: CancellationTermsInput = {
      paymentMethod: data.paymentMethod,
      refundPercent: data.refundPercent,
      refund: cents(data.refund),
      fee: cents(data.fee),
      feeWaived: data.feeWaived,
      kind: data.kind ?? 'cancellation',
    };
    const intentId = data.paymentIntentId ?? null;
    const plan = refundPlan(terms);
    if (plan.kind === 'refund') {
      if (!intentId) {
        // Booking says money goes back but names no payment: nothing billing can refund; staff must do it by hand.
        log.error(
          { jobId: data.jobId, refund: data.refund },
          'prepaid cancellation with a refund but no payment intent: refund it in Stripe by hand',
        );
      } else {
        const payment = await findPaymentByIntent(tx, intentId);
        if (payment && centsOf(payment.totalAmount) < plan.amount)
          log.error(
            { jobId: data.jobId, refund: data.refund, charged: formatMoney(centsOf(payment.totalAmount)) },
            'cancellation refund exceeds the charge: the provider will refuse it; staff to check',
          );
        const refund = await insertRefundOnce(tx, {
          id: randomUUID(),
          cancellationEventId: event.id,
          jobId: data.jobId,
          jobNumber: data.jobNumber,
          paymentId: payment?.id ?? null,
          providerIntentId: intentId,
          amount: data.refund,
          refundPercent: data.refundPercent,
          mode: payment?.mode ?? this.deps.provider.mode,
          status: 'requested',
          idempotencyKey: refundIdempotencyKey(event.id),
          requestedAt: this.deps.clock(),
        });
        if (!refund)
          log.warn({ jobId: data.jobId }, 'job already has a refund: a second cancellation ignored');
      }
    }
    const outcome = await this.deps.invoices.applyCancellation(
      tx,
      {
        jobId: data.jobId,
        paymentIntentId: intentId,
        cancelledAt: new Date(data.cancelledAt),
        plan: cancellationInvoicePlan(terms),
      },
      { id: event.id, correlationId: event.correlationId },
    );
    if (outcome.missingPaidInvoice)
      log.error(
        { jobId: data.jobId },
        'cancelled prepaid booking has no paid invoice in billing: staff to check',
      );
    log.info(
      {
        jobId: data.jobId,
        kind: terms.kind,
        band: data.band,
        refund: data.refund,
        fee: data.fee,
        invoices: outcome,
      },
      terms.kind === 'no_show' ? 'booking no-show applied' : 'booking cancellation applied',
    );
  }

  /**
   * After the cancellation committed (also on a redelivery): hands its refund, if still only requested, to the
   * worker. A failure to queue (Redis down) is logged: the sweep queues it later.
   */
  async requestForCancellation(cancellationEventId: string): Promise<void> {
    const refund = await this.deps.db.refund.findUnique({ where: { cancellationEventId } });
    if (!refund || refund.status !== 'requested') return;
    await this.enqueue(refund);
  }

  private async enqueue(refund: Refund): Promise<void> {
    try {
      await this.deps.queue.enqueue(refund.id, refund.attempts);
    } catch (err) {
      this.deps.logger.warn(
        { refundId: refund.id, err: err instanceof Error ? err.message : String(err) },
        'refund could not be queued yet; the sweep will queue it',
      );
    }
  }

  /** Queues refunds recorded but never handed over (queued while Redis was down, or lost). */
  async sweep(olderThanMs = 60_000): Promise<number> {
    const stranded = await requestedRefundIds(
      this.deps.db,
      new Date(this.deps.clock().getTime() - olderThanMs),
    );
    for (const { id } of stranded) {
      const refund = await findRefund(this.deps.db, id);
      if (refund?.status === 'requested') await this.enqueue(refund);
    }
    return stranded.length;
  }

  /**
   * The `refund` job: asks the provider for the refund (same idempotency key on every attempt). An error is
   * recorded and rethrown for BullMQ to retry with backoff; after the last attempt the refund is `failed`.
   */
  async refundJob(
    refundId: string,
    attempt: { number: number; of: number },
  ): Promise<{ status: RefundStatus } | { skipped: string }> {
    const refund = await findRefund(this.deps.db, refundId);
    if (!refund) return { skipped: 'unknown refund' };
    if (refund.status !== 'requested') return { skipped: `already ${refund.status}` };
    try {
      const made = await this.deps.provider.refund({
        paymentIntentId: refund.providerIntentId,
        amountCents: Number(centsOf(refund.amount)),
        idempotencyKey: refund.idempotencyKey,
        metadata: {
          refundId: refund.id,
          requestKey: refund.idempotencyKey,
          jobId: refund.jobId,
          jobNumber: refund.jobNumber,
        },
      });
      const settled = await this.deps.transactions.run(async (tx) => {
        const current = await lockRefund(tx, refundId);
        if (!current) return undefined;
        // A webhook may have settled it already (it can arrive before this answer): never move it back.
        const status = nextRefundStatus(current.status as RefundStatus, made.status);
        const now = this.deps.clock();
        return updateRefund(tx, refundId, {
          status,
          providerRefundId: made.id,
          attempts: { increment: 1 },
          lastError: made.status === 'failed' ? (made.failureReason ?? 'refund failed') : null,
          ...(status === 'succeeded' && !current.succeededAt ? { succeededAt: now } : {}),
          ...(status === 'failed' ? { failedAt: now } : {}),
        });
      });
      this.deps.logger.info(
        { refundId, providerRefundId: made.id, status: settled?.status },
        'refund requested from the provider',
      );
      return { status: (settled?.status ?? made.status) as RefundStatus };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const last = attempt.number >= attempt.of;
      await updateRefund(this.deps.db, refundId, {
        attempts: { increment: 1 },
        lastError: message.slice(0, 1000),
        ...(last ? { status: 'failed', failedAt: this.deps.clock() } : {}),
      });
      this.deps.logger.warn(
        { refundId, attempt: attempt.number, of: attempt.of, err: message },
        last ? 'refund failed after its last attempt: shown to staff as failed' : 'refund attempt failed',
      );
      throw err;
    }
  }

  /**
   * A refund webhook (refund.created/updated/failed, charge.refunded) in the provider-event transaction, which
   * already recorded the event id (a replay never gets here). Unknown refunds are ignored (refunds made in Stripe's
   * dashboard are not billing's).
   */
  async applyProviderEvent(tx: Tx, event: ProviderEvent): Promise<{ matched: number; updated: number }> {
    let matched = 0;
    let updated = 0;
    for (const object of refundsOfEvent(event)) {
      if (typeof object.id !== 'string') continue;
      const refund = await lockRefundOfProvider(tx, object.id, object.metadata?.refundId);
      if (!refund) continue;
      matched += 1;
      // After a staff retry the refund is a new Stripe refund: a late report about the one that failed before (same
      // refundId in its metadata, another Stripe id and request key) must not touch it.
      const sameRequest = refund.providerRefundId
        ? refund.providerRefundId === object.id
        : object.metadata?.requestKey === refund.idempotencyKey;
      if (!sameRequest) continue;
      const reported = refundStatus(typeof object.status === 'string' ? object.status : undefined);
      const status = nextRefundStatus(refund.status as RefundStatus, reported);
      if (status === refund.status && refund.providerRefundId === object.id) continue;
      const now = this.deps.clock();
      const reason = typeof object.failure_reason === 'string' ? object.failure_reason : null;
      await updateRefund(tx, refund.id, {
        status,
        providerRefundId: object.id,
        ...(status === 'succeeded' ? { succeededAt: refund.succeededAt ?? now, lastError: null } : {}),
        ...(status === 'failed' && refund.status !== 'failed'
          ? { failedAt: now, lastError: `Stripe reported the refund failed: ${reason ?? 'no reason given'}` }
          : {}),
      });
      updated += 1;
    }
    return { matched, updated };
  }

  list(filters: { status?: RefundStatus; limit: number; offset: number }) {
    return listRefunds(this.deps.db, filters);
  }

  /**
   * Staff retry of a failed refund: back to `requested` and handed to the worker again. When the requests never got
   * through, the idempotency key stays (Stripe may still have made it); when Stripe made the refund and then reported
   * it failed, that key would only replay the failed refund, so the retry asks with a new one.
   */
  async retry(id: string): Promise<Refund> {
    const refund = await this.deps.transactions.run(async (tx) => {
      const current = await lockRefund(tx, id);
      if (!current) throw notFound(REFUND_NOT_FOUND);
      if (current.status !== 'failed')
        throw conflict(REFUND_NOT_FAILED, { status: current.status }, 'not_failed');
      const failedAtProvider = current.providerRefundId !== null;
      return updateRefund(tx, id, {
        status: 'requested',
        failedAt: null,
        ...(failedAtProvider
          ? {
              providerRefundId: null,
              idempotencyKey: `${refundIdempotencyKey(current.cancellationEventId)}-retry-${current.attempts}`,
              lastError: `${current.lastError ?? 'failed'} (Stripe refund ${current.providerRefundId})`,
            }
          : {}),
      });
    });
    // Queued now, or by the sweep if Redis is unreachable: the refund is `requested` either way.
    await this.enqueue(refund);
    return refund;
  }
}
