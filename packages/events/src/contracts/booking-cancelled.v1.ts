import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, money, slot } from './common';

/**
 * booking -> jobs, billing, notify, reporting. A booking was cancelled and its slot freed in the same transaction
 * (issue 18). The terms are the kernel's cancellation policy (cancellationTerms) computed at `cancelledAt` and are
 * final: consumers apply them, never recompute them. `refund` is what goes back to the card (prepaid, paid) and is
 * final; `fee` is what the policy charges: kept from the card (prepaid) or invoiced (pay on site). With `feeWaived`
 * (staff only) the fee is recorded but not charged: nothing is invoiced, and a prepaid refund already includes it.
 */
export const BookingCancelledV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  slot,
  cancelledAt: isoDateTime,
  cancelledBy: z.enum(['customer', 'staff']),
  /** The staff member who cancelled (cancelledBy staff): the audit trail of a waived fee. */
  cancelledByUserId: id.nullable().optional(),
  reason: z.string().min(1).max(500).nullable().optional(),
  band: z.enum(['full_refund', 'half_refund', 'no_refund']),
  refundPercent: z.int().min(0).max(100),
  refund: money,
  fee: money,
  feeWaived: z.boolean(),
  paymentMethod: z.enum(['onsite', 'prepaid']),
  /** The Stripe payment intent to refund (prepaid and paid); absent otherwise. */
  paymentIntentId: z.string().min(1).max(255).nullable().optional(),
  /**
   * What ended the booking: a cancellation under the policy (absent means this), or staff marking the customer a
   * no-show after the slot started (the kernel's noShowTerms: charged in full, `fee` the whole charge or price,
   * nothing refunded). Consumers that do not know it apply it as a cancellation with these terms.
   */
  kind: z.enum(['cancellation', 'no_show']).optional(),
});
export type BookingCancelledV1Data = z.infer<typeof BookingCancelledV1Data>;

export const BookingCancelledV1 = defineContract({
  type: 'booking.cancelled.v1',
  name: 'BookingCancelled',
  version: 1,
  schema: BookingCancelledV1Data,
});
