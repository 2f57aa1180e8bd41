/**
 * What cancelling or marking a no-show means for the customer's money, for the staff dialogs (issue 18). The rule
 * is the kernel's (`cancellationTerms`, `noShowTerms`: the same code booking runs when it records the cancel), fed
 * with the job's slot, its price and what the card was charged, at the moment the dialog shows it.
 */
import {
  CANCELLATION_BAND_LABEL,
  cancellationTerms,
  formatAud,
  isTimeSlot,
  noShowTerms,
  type CancellationTerms,
  type Cents,
} from '@tyres/kernel';
import { cents } from '../lib/money';

export interface CancellationFacts {
  scheduledDate: string;
  timeSlot: string;
  /** The job's price, GST inclusive (money string). */
  price: string;
  paymentMethod: string;
  paymentStatus: string;
  /** What the card was charged (price + surcharge) when prepaid and paid; null otherwise. */
  amountPaid: string | null;
}

/** Cents the customer's card was charged for the job (0 unless prepaid and paid). */
export function paidCents(facts: CancellationFacts): Cents {
  return facts.paymentMethod === 'prepaid' && facts.paymentStatus === 'paid' && facts.amountPaid
    ? cents(facts.amountPaid)
    : 0n;
}

/** The policy's terms of cancelling at `at`; undefined for a slot the kernel does not know. */
export function termsNow(facts: CancellationFacts, at: Date): CancellationTerms | undefined {
  if (!isTimeSlot(facts.timeSlot)) return undefined;
  return cancellationTerms({
    scheduledDate: facts.scheduledDate,
    timeSlot: facts.timeSlot,
    at,
    price: cents(facts.price),
    paid: paidCents(facts),
  });
}

/** What the customer gets and owes, in words, with or without the fee waived. */
export interface MoneyOutcome {
  /** The policy band, e.g. "12 to 24 hours before the booking: 50% refund". */
  band: string;
  /** "Refund to card: $374.90" (prepaid), or null. */
  refund: string | null;
  /** "Cancellation fee: $374.90", "Cancellation fee: $374.90 (waived)" or "No cancellation fee". */
  fee: string;
}

export function cancellationOutcome(
  facts: CancellationFacts,
  terms: CancellationTerms,
  waive: boolean,
): MoneyOutcome {
  const paid = paidCents(facts);
  // A waived fee on a prepaid booking is refunded with the rest (booking refunds the whole charge).
  const refund = paid > 0n ? (waive ? paid : terms.refund) : null;
  return {
    band: CANCELLATION_BAND_LABEL[terms.band],
    refund: refund === null ? null : `Refund to card: ${formatAud(refund)}`,
    fee:
      terms.fee === 0n
        ? 'No cancellation fee'
        : `Cancellation fee: ${formatAud(terms.fee)}${waive ? ' (waived)' : ''}`,
  };
}

/** The no-show charge in words: the whole charge kept (prepaid), or the whole price invoiced (pay on site). */
export function noShowCharge(facts: CancellationFacts): string {
  const paid = paidCents(facts);
  const terms = noShowTerms({ price: cents(facts.price), paid });
  return paid > 0n
    ? `The customer is charged in full: the ${formatAud(terms.fee)} paid online is kept (no refund).`
    : `The customer is charged in full: an invoice for ${formatAud(terms.fee)} (the job's price) is raised.`;
}
