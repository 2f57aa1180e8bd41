/**
 * Issue 18 (privacy, Australian Privacy Principle 11.2): the rules of erasing a customer on request and of photo
 * retention. No I/O.
 */
import { ERASED_CUSTOMER_NAME } from '@tyres/events';
import { z } from 'zod';

/** What replaces the personal fields (the same values as the bookings trigger of migration customer_erasure). */
export const ERASED = {
  name: ERASED_CUSTOMER_NAME,
  vehicle: 'Erased',
} as const;

export const ERASURE_MSG = {
  reasonRequired: 'Please give the reason or request reference for the erasure',
  reasonTooLong: 'The reason is too long (500 characters at most)',
  confirmRequired: 'Please confirm the erasure: it cannot be undone',
  noBooking: 'No booking for this job',
} as const;

/** POST /api/dashboard/bookings/{jobId}/erase-customer: why (the customer's request, its reference), confirmed. */
export const eraseCustomerSchema = z.object({
  reason: z
    .string(ERASURE_MSG.reasonRequired)
    .trim()
    .min(1, ERASURE_MSG.reasonRequired)
    .max(500, ERASURE_MSG.reasonTooLong),
  confirm: z.literal(true, ERASURE_MSG.confirmRequired),
});

/** Photos are kept this many months after the job was paid (PHOTO_RETENTION_MONTHS), then deleted. */
export const DEFAULT_PHOTO_RETENTION_MONTHS = 12;

/**
 * The jobs paid before this instant have had their photos for the whole retention period: `now` minus `months`
 * calendar months (UTC calendar; the 31st of a month without one becomes its last day).
 */
export function retentionCutoff(now: Date, months: number): Date {
  const cutoff = new Date(now.getTime());
  const day = cutoff.getUTCDate();
  cutoff.setUTCDate(1);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(cutoff.getUTCFullYear(), cutoff.getUTCMonth() + 1, 0)).getUTCDate();
  cutoff.setUTCDate(Math.min(day, lastDay));
  return cutoff;
}
