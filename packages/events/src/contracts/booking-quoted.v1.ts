import { z } from 'zod';
import { defineContract } from '../envelope';
import { customer, id, isoDate, isoDateTime, money, paymentMethod, serviceType, timeSlot } from './common';

/**
 * booking -> billing (prepares the payment intent for the checkout page), notify.
 * A prepaid booking starts as a quote that holds its slot until `expiresAt`.
 * `bookingToken` is the checkout capability: never log it.
 */
export const BookingQuotedV1Data = z.object({
  quoteId: id,
  /**
   * The job id and number the booking service assigned at quote time; BookingCreated carries the same ones once
   * paid. Optional (added after v1 shipped): older producers omit them.
   */
  jobId: id.optional(),
  jobNumber: z.string().min(1).max(50).optional(),
  bookingToken: z.string().min(16).max(200),
  serviceType,
  scheduledDate: isoDate,
  timeSlot,
  suburb: z.string().min(1).max(100),
  postcode: z.string().min(3).max(10),
  /** Total the customer owes before the card surcharge (GST inclusive). */
  amount: money,
  currency: z.literal('AUD'),
  paymentMethod,
  callbackRequired: z.boolean(),
  customer,
  expiresAt: isoDateTime,
  createdAt: isoDateTime,
});
export type BookingQuotedV1Data = z.infer<typeof BookingQuotedV1Data>;

export const BookingQuotedV1 = defineContract({
  type: 'booking.quoted.v1',
  name: 'BookingQuoted',
  version: 1,
  schema: BookingQuotedV1Data,
});
