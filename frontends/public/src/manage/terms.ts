/**
 * The cancellation terms in plain words (issue 18): what cancelling at this moment means for this customer, from
 * the server's terms (GET /api/manage/{token} `cancellation`, the kernel's policy applied to the booking). A prepaid
 * booking gets a refund to the card and keeps the rest; a pay-on-site one owes the fee the band does not forgive.
 */
import { formatMoney, moneyCents } from '../site/format';
import type { CancellationTerms, ManagedBooking } from './api';

/** Paid online: the terms are shares of what the card was charged (as the server computes them). */
export const paidOnline = (b: Pick<ManagedBooking, 'paymentStatus' | 'amountPaid'>) =>
  b.paymentStatus === 'paid' && b.amountPaid !== null && moneyCents(b.amountPaid) > 0n;

export function cancellationWording(b: ManagedBooking, t: CancellationTerms): string {
  const refund = formatMoney(t.refund);
  const fee = formatMoney(t.fee);
  if (paidOnline(b)) {
    if (t.band === 'full_refund') return `Cancelling now: full refund of ${refund} to your card.`;
    if (t.band === 'half_refund')
      return `Cancelling now: ${t.refundPercent}% (${refund}) refunded to your card, ${fee} kept.`;
    return `No refund: less than 12 hours before your booking. The ${fee} you paid is kept.`;
  }
  if (moneyCents(t.fee) === 0n) return 'Cancelling now is free: there is nothing to pay.';
  if (t.band === 'half_refund')
    return `Cancelling now: a cancellation fee of ${fee} (${100 - t.refundPercent}% of the price) will be invoiced.`;
  return `Less than 12 hours before your booking: cancelling now means a cancellation fee of ${fee}, the full price, will be invoiced.`;
}

/** What a cancelled booking's stored terms meant, for the cancelled page. */
export function cancelledWording(b: ManagedBooking): string | null {
  const c = b.cancelled;
  if (!c) return null;
  if (c.feeWaived) return 'The cancellation fee was waived.';
  const refund = moneyCents(c.refund);
  const fee = moneyCents(c.fee);
  if (refund > 0n) return `A refund of ${formatMoney(c.refund)} is being returned to your card.`;
  if (fee > 0n)
    return paidOnline(b)
      ? `No refund was due: the ${formatMoney(c.fee)} you paid is kept under our cancellation policy.`
      : `A cancellation fee of ${formatMoney(c.fee)} applies under our cancellation policy.`;
  return null;
}
