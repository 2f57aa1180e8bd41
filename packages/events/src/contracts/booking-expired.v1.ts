import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDate, isoDateTime, timeSlot } from './common';

/** booking -> billing (cancel the pending payment intent), notify. The quote's slot is free again. */
export const BookingExpiredV1Data = z.object({
  quoteId: id,
  scheduledDate: isoDate,
  timeSlot,
  reason: z.enum(['payment-timeout', 'cancelled', 'payment-failed']),
  expiredAt: isoDateTime,
});
export type BookingExpiredV1Data = z.infer<typeof BookingExpiredV1Data>;

export const BookingExpiredV1 = defineContract({
  type: 'booking.expired.v1',
  name: 'BookingExpired',
  version: 1,
  schema: BookingExpiredV1Data,
});
