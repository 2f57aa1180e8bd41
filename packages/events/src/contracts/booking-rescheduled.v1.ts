import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, slot } from './common';

/**
 * booking -> jobs, notify, reporting. The customer moved their own booking from the "manage my booking" page
 * (issue 18). Booking has already moved the slot reservation in the same transaction, so slot lists are right when
 * this is published; consumers move the job (jobs), the day-before reminder and the notice (notify).
 * Staff reschedules stay JobRescheduled (jobs owns those).
 */
export const BookingRescheduledV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  from: slot,
  to: slot,
  rescheduledBy: z.enum(['customer']),
  rescheduledAt: isoDateTime,
});
export type BookingRescheduledV1Data = z.infer<typeof BookingRescheduledV1Data>;

export const BookingRescheduledV1 = defineContract({
  type: 'booking.rescheduled.v1',
  name: 'BookingRescheduled',
  version: 1,
  schema: BookingRescheduledV1Data,
});
