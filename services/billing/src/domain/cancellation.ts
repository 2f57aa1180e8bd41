import type { Cents } from '@tyres/kernel';

/**
 * What a cancelled booking does to billing's books (issue 18; docs/decisions.md "Refunds and cancellation fees").
 * The terms are booking's, computed by the kernel's cancellationTerms when the booking was cancelled, and final:
 * these rules apply them, never recompute them.
 *
 * Prepaid (the paid invoice was issued at payment):
 *   - refund of the whole charge → the paid invoice is cancelled, nothing is kept;
 *   - part refunded → the paid invoice is cancelled and a paid, tax-inclusive "Cancellation fee (N%)" invoice is
 *     issued for the part kept (a forfeited part of a payment is consideration for a taxable supply: GST 1/11);
 *   - nothing refunded → the paid invoice stands (the business keeps the whole charge for the booked work).
 * Pay on site: a fee that is not waived → a draft tax-inclusive "Cancellation fee" invoice to be sent; waived or
 * nothing owed → no invoice.
 * A no-show (kind no_show: staff marked the customer absent once the slot had started) is charged in full by the
 * kernel's noShowTerms: pay on site → a draft "No-show charge" invoice for the whole price; prepaid → nothing
 * refunded, the paid invoice stands.
 */
export interface CancellationTermsInput {
  paymentMethod: 'onsite' | 'prepaid';
  refundPercent: number;
  refund: Cents;
  fee: Cents;
  feeWaived: boolean;
  /** What ended the booking (BookingCancelled.kind); absent: a cancellation. */
  kind?: 'cancellation' | 'no_show';
}

export const NO_SHOW_CHARGE = 'No-show charge';

export type CancellationRefundPlan = { kind: 'none' } | { kind: 'refund'; amount: Cents };

export type CancellationInvoicePlan =
  | { kind: 'keep-paid-invoice' }
  | { kind: 'cancel-paid-invoice' }
  | { kind: 'replace-with-fee-invoice'; fee: Cents; description: string }
  | { kind: 'draft-fee-invoice'; fee: Cents; description: string }
  | { kind: 'nothing' };

export function refundPlan(terms: CancellationTermsInput): CancellationRefundPlan {
  return terms.paymentMethod === 'prepaid' && terms.refund > 0n
    ? { kind: 'refund', amount: terms.refund }
    : { kind: 'none' };
}

/** The percentage of the charge kept, for the fee line ("Cancellation fee (50%)"). */
function keptPercent(refundPercent: number): number {
  return Math.max(0, Math.min(100, 100 - refundPercent));
}

export function cancellationInvoicePlan(terms: CancellationTermsInput): CancellationInvoicePlan {
  const fee = terms.feeWaived ? 0n : terms.fee;
  if (terms.paymentMethod === 'prepaid') {
    if (terms.refund === 0n) return { kind: 'keep-paid-invoice' };
    if (fee === 0n) return { kind: 'cancel-paid-invoice' };
    return {
      kind: 'replace-with-fee-invoice',
      fee,
      description: `Cancellation fee (${keptPercent(terms.refundPercent)}%)`,
    };
  }
  if (fee === 0n) return { kind: 'nothing' };
  return {
    kind: 'draft-fee-invoice',
    fee,
    description: terms.kind === 'no_show' ? NO_SHOW_CHARGE : 'Cancellation fee',
  };
}

/** The refund statuses in the order they move: a later webhook never takes a refund back to an earlier one. */
export type RefundStatus = 'requested' | 'pending' | 'succeeded' | 'failed';
const RANK: Record<RefundStatus, number> = { requested: 0, pending: 1, succeeded: 2, failed: 2 };

/**
 * The status a refund takes when the provider reports `next`: forward only; a settled refund (succeeded or failed)
 * stays as it is, except that a failed one may be settled by a later report (after a staff retry).
 */
export function nextRefundStatus(current: RefundStatus, next: RefundStatus): RefundStatus {
  if (current === 'succeeded') return current;
  if (current === 'failed') return next === 'succeeded' ? next : current;
  return RANK[next] >= RANK[current] ? next : current;
}
