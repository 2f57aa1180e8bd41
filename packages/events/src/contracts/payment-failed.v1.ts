import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, money } from './common';

/** billing -> booking (the quote stays payable until it expires), notify. */
export const PaymentFailedV1Data = z.object({
  paymentId: id,
  paymentIntentId: z.string().min(1).max(255),
  quoteId: id.nullable(),
  jobId: id.nullable(),
  amount: money,
  currency: z.literal('AUD'),
  /** Provider code, e.g. Stripe's `card_declined`. */
  failureCode: z.string().max(100).nullable(),
  failureMessage: z.string().max(1000).nullable(),
  mode: z.enum(['live', 'test']),
  failedAt: isoDateTime,
});
export type PaymentFailedV1Data = z.infer<typeof PaymentFailedV1Data>;

export const PaymentFailedV1 = defineContract({
  type: 'payment.failed.v1',
  name: 'PaymentFailed',
  version: 1,
  schema: PaymentFailedV1Data,
});
