import { createHash } from 'node:crypto';
import { PaymentFailed, PaymentSucceeded } from '@tyres/events';
import { isUniqueViolation } from '@tyres/service-kit';
import { moneyString, type SurchargedAmount } from '../domain/money';
import type { EventWriter } from '../events/emit';
import type { ProviderEvent } from '../domain/provider-event';
import { TX_OPTIONS, type Db, type Tx } from './client';
import type { Payment } from './generated/client';

/** Booking tokens are capabilities: billing keeps only their hash. */
export function hashBookingToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface NewPayment {
  id: string;
  bookingTokenHash: string;
  quoteId: string | null;
  jobId: string | null;
  amounts: SurchargedAmount;
  mode: 'live' | 'test';
  providerIntentId: string;
  clientSecret: string;
}

export type EventOutcome =
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'succeeded'; payment: Payment; alreadySucceeded: boolean }
  | { kind: 'failed'; payment: Payment; failureCode: string | null; failureMessage: string | null }
  | { kind: 'canceled'; payment: Payment };

export class PaymentRepository {
  constructor(
    private readonly db: Db,
    private readonly events: EventWriter,
    private readonly afterCommit: () => void,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  findByTokenHash(hash: string): Promise<Payment | null> {
    return this.db.payment.findUnique({ where: { bookingTokenHash: hash } });
  }

  findByIntentId(id: string): Promise<Payment | null> {
    return this.db.payment.findUnique({ where: { providerIntentId: id } });
  }

  /** Records a new intent; when another request for the same token won the race, returns that one instead. */
  async create(input: NewPayment): Promise<Payment> {
    try {
      return await this.db.payment.create({
        data: {
          id: input.id,
          bookingTokenHash: input.bookingTokenHash,
          quoteId: input.quoteId,
          jobId: input.jobId,
          originalAmount: input.amounts.originalAmount,
          surchargeAmount: input.amounts.surchargeAmount,
          totalAmount: input.amounts.totalAmount,
          currency: 'AUD',
          mode: input.mode,
          providerIntentId: input.providerIntentId,
          clientSecret: input.clientSecret,
        },
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const existing = await this.findByTokenHash(input.bookingTokenHash);
      if (!existing) throw err;
      return existing;
    }
  }

  /**
   * Applies one provider event (a verified webhook delivery or a test-mode confirmation) exactly once: the event id
   * is recorded in the same transaction as the effect, and the payment row is locked, so a replay, a duplicate
   * delivery or a concurrent confirmation never emits a second PaymentSucceeded for an intent.
   */
  async applyProviderEvent(event: ProviderEvent): Promise<EventOutcome> {
    const intent = event.data.object;
    const outcome = await this.db.$transaction(async (tx): Promise<EventOutcome> => {
      const inserted = await tx.$executeRaw`
        INSERT INTO "billing"."provider_events" ("id", "type", "provider_intent_id")
        VALUES (${event.id}, ${event.type}, ${intent.id ?? null}) ON CONFLICT ("id") DO NOTHING`;
      if (Number(inserted) === 0) return { kind: 'duplicate' };
      if (!event.type.startsWith('payment_intent.'))
        return { kind: 'ignored', reason: `event type ${event.type}` };
      if (typeof intent.id !== 'string') return { kind: 'ignored', reason: 'payment intent without an id' };
      const payment = await this.lockByIntent(tx, intent.id);
      if (!payment) return { kind: 'ignored', reason: `unknown payment intent ${intent.id}` };
      const now = this.clock();
      switch (event.type) {
        case 'payment_intent.succeeded':
          return this.succeed(tx, payment, now);
        case 'payment_intent.payment_failed':
          return this.fail(tx, payment, now, event);
        case 'payment_intent.canceled': {
          if (payment.status === 'succeeded') return { kind: 'ignored', reason: 'already succeeded' };
          const updated = await tx.payment.update({
            where: { id: payment.id },
            data: { status: 'canceled' },
          });
          return { kind: 'canceled', payment: updated };
        }
        default:
          return { kind: 'ignored', reason: `event type ${event.type}` };
      }
    }, TX_OPTIONS);
    if (outcome.kind === 'succeeded' || outcome.kind === 'failed') this.afterCommit();
    return outcome;
  }

  private async lockByIntent(tx: Tx, intentId: string): Promise<Payment | null> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "billing"."payments" WHERE "provider_intent_id" = ${intentId} FOR UPDATE`;
    const id = rows[0]?.id;
    return id ? tx.payment.findUnique({ where: { id } }) : null;
  }

  private async succeed(tx: Tx, payment: Payment, now: Date): Promise<EventOutcome> {
    if (payment.status === 'succeeded') return { kind: 'succeeded', payment, alreadySucceeded: true };
    const updated = await tx.payment.update({
      where: { id: payment.id },
      data: { status: 'succeeded', succeededAt: now, failureCode: null, failureMessage: null },
    });
    await this.events.emit(tx, PaymentSucceeded, {
      paymentId: updated.id,
      paymentIntentId: updated.providerIntentId,
      quoteId: updated.quoteId,
      jobId: updated.jobId,
      originalAmount: moneyString(updated.originalAmount),
      surchargeAmount: moneyString(updated.surchargeAmount),
      amount: moneyString(updated.totalAmount),
      currency: 'AUD',
      mode: updated.mode as 'live' | 'test',
      succeededAt: now.toISOString(),
    });
    return { kind: 'succeeded', payment: updated, alreadySucceeded: false };
  }

  private async fail(tx: Tx, payment: Payment, now: Date, event: ProviderEvent): Promise<EventOutcome> {
    const error = event.data.object.last_payment_error ?? null;
    const failureCode = (error?.decline_code ?? error?.code ?? null)?.slice(0, 100) ?? null;
    const failureMessage = error?.message?.slice(0, 1000) ?? null;
    // A late failure report never undoes a success; each failed attempt (a new event) is reported once.
    if (payment.status === 'succeeded') return { kind: 'ignored', reason: 'already succeeded' };
    const updated = await tx.payment.update({
      where: { id: payment.id },
      data: { status: 'failed', failedAt: now, failureCode, failureMessage },
    });
    await this.events.emit(tx, PaymentFailed, {
      paymentId: updated.id,
      paymentIntentId: updated.providerIntentId,
      quoteId: updated.quoteId,
      jobId: updated.jobId,
      amount: moneyString(updated.totalAmount),
      currency: 'AUD',
      failureCode,
      failureMessage,
      mode: updated.mode as 'live' | 'test',
      failedAt: now.toISOString(),
    });
    return { kind: 'failed', payment: updated, failureCode, failureMessage };
  }
}
