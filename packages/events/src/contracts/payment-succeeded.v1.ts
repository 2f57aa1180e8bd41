import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, money } from './common';

/**
 * billing -> booking (confirm the quote: create the job, emit BookingCreated with paymentStatus paid),
 * jobs (mark an existing job paid), notify, reporting.
 * `amount` = `originalAmount` + `surchargeAmount` (1.7% card surcharge).
 */
export const PaymentSucceededV1Data = z.object({
  paymentId: id,
  /** Stripe PaymentIntent id (`pi_...`), or a `test_...` id in test mode. */
  paymentIntentId: z.string().min(1).max(255),
  /** The prepaid quote this pays for, if any. */
  quoteId: id.nullable(),
  /** The job this pays for, if it already exists. */
  jobId: id.nullable(),
  originalAmount: money,
  surchargeAmount: money,
  amount: money,
  currency: z.literal('AUD'),
  /** `test` when running without Stripe keys (same path, clearly labelled). */
  mode: z.enum(['live', 'test']),
  succeededAt: isoDateTime,
});
export type PaymentSucceededV1Data = z.infer<typeof PaymentSucceededV1Data>;

export const PaymentSucceededV1 = defineContract({
  type: 'payment.succeeded.v1',
  name: 'PaymentSucceeded',
  version: 1,
  schema: PaymentSucceededV1Data,
});
