import { slotStartsAt, type TimeSlot } from './calendar';
import { divideRounded, type Cents } from './money';

/**
 * The cancellation policy the terms promise (issue 18), written once for the public "manage my booking" page, the
 * dashboard's Cancel and Mark no-show, billing's refunds and the messages:
 *
 *   cancelled 24 hours or more before the slot starts: full refund;
 *   12 to 24 hours before: 50%;
 *   under 12 hours (or after the start): none;
 *   a no-show is charged in full; a prepaid job is not refundable once the work is completed.
 *
 * "Before the slot starts" is measured from the start of the booked two-hour slot in Perth (8-10 AM → 08:00 Perth)
 * to the moment of cancelling. Boundaries belong to the customer's favour: exactly 24 hours is "24+", exactly 12
 * hours is "12-24". Amounts are shares of what the customer paid (prepaid, card surcharge included: the whole
 * charge is refunded or kept in the same proportion) or of the job's price (pay on site: the same share is the
 * cancellation fee they owe), half-up to the cent. docs/decisions.md ("Cancellation policy") has the reasoning.
 */

export const FULL_REFUND_HOURS = 24;
export const HALF_REFUND_HOURS = 12;
export const HALF_REFUND_PERCENT = 50n;

export type CancellationBand = 'full_refund' | 'half_refund' | 'no_refund';

export const CANCELLATION_BAND_LABEL: Readonly<Record<CancellationBand, string>> = {
  full_refund: '24 hours or more before the booking: full refund',
  half_refund: '12 to 24 hours before the booking: 50% refund',
  no_refund: 'Less than 12 hours before the booking: no refund',
};

const HOUR_MS = 3_600_000;

/** Which band a cancellation at `at` falls in for a booking of `slot` on the Perth calendar `date`. */
export function cancellationBand(date: string, slot: TimeSlot, at: Date): CancellationBand {
  const msBefore = slotStartsAt(date, slot).getTime() - at.getTime();
  if (msBefore >= FULL_REFUND_HOURS * HOUR_MS) return 'full_refund';
  if (msBefore >= HALF_REFUND_HOURS * HOUR_MS) return 'half_refund';
  return 'no_refund';
}

/** The share refunded in a band, in percent. */
export function refundPercent(band: CancellationBand): bigint {
  return band === 'full_refund' ? 100n : band === 'half_refund' ? HALF_REFUND_PERCENT : 0n;
}

export interface CancellationTerms {
  band: CancellationBand;
  /** Whole hours from the moment of cancelling to the slot's start (0 once it has started). */
  hoursBefore: number;
  refundPercent: number;
  /** Prepaid: what goes back to the card. Pay on site: 0. */
  refund: Cents;
  /** What the business keeps (prepaid) or invoices (pay on site) under the policy, before any waiver. */
  fee: Cents;
}

export interface CancellationInput {
  scheduledDate: string;
  timeSlot: TimeSlot;
  /** The moment of cancelling. */
  at: Date;
  /** The job's price (GST inclusive) as booked. */
  price: Cents;
  /** What the customer's card was charged for it (price + surcharge), when prepaid and paid; otherwise 0. */
  paid: Cents;
  /** The work is completed: a prepaid job is then not refundable. */
  completed?: boolean;
}

/**
 * The refund and fee of cancelling now. A prepaid booking: the refund is the band's share of what was charged and the
 * fee the rest (nothing more is invoiced). Pay on site: nothing to refund, the fee is the share of the price the band
 * does not forgive.
 */
export function cancellationTerms(input: CancellationInput): CancellationTerms {
  const start = slotStartsAt(input.scheduledDate, input.timeSlot).getTime();
  const band = input.completed
    ? 'no_refund'
    : cancellationBand(input.scheduledDate, input.timeSlot, input.at);
  const percent = refundPercent(band);
  const hoursBefore = Math.max(0, Math.floor((start - input.at.getTime()) / HOUR_MS));
  if (input.paid > 0n) {
    const refund = divideRounded(input.paid * percent, 100n);
    return { band, hoursBefore, refundPercent: Number(percent), refund, fee: input.paid - refund };
  }
  const fee = input.price - divideRounded(input.price * percent, 100n);
  return { band, hoursBefore, refundPercent: Number(percent), refund: 0n, fee };
}

/** A no-show is charged in full: no refund of a prepaid booking, the whole price invoiced for a pay-on-site one. */
export function noShowTerms(input: { price: Cents; paid: Cents }): CancellationTerms {
  return {
    band: 'no_refund',
    hoursBefore: 0,
    refundPercent: 0,
    refund: 0n,
    fee: input.paid > 0n ? input.paid : input.price,
  };
}
