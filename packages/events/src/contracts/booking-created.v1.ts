import { z } from 'zod';
import { defineContract } from '../envelope';
import {
  customer,
  id,
  isoDate,
  isoDateTime,
  money,
  paymentMethod,
  paymentStatus,
  serviceType,
  timeSlot,
  vehicle,
} from './common';

/**
 * booking -> jobs (adopts jobId and jobNumber), notify (new_booking to dashboards, confirmation messages),
 * reporting. Emitted when a booking is accepted: an onsite booking at once, a prepaid one once paid.
 */
/** One line of the quote the booking was priced with (issue 19): GST-inclusive, as the customer saw it. */
export const BookingQuoteLine = z.object({
  /** callout | tyre | fitting | balancing | puncture-repair | battery | other */
  code: z.string().min(1).max(50),
  description: z.string().min(1).max(200),
  amount: money,
});

/** The quote a booking was priced with: its lines, the prepaid discount, and the total (= customerValue). */
export const BookingQuote = z.object({
  lines: z.array(BookingQuoteLine).max(20),
  subtotal: money,
  discount: money,
  total: money,
});
export type BookingQuote = z.infer<typeof BookingQuote>;

export const BookingCreatedV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  /** The booking service's customer and vehicle rows (the jobs service keeps copies of the details below). */
  customerId: id,
  vehicleId: id,
  serviceType,
  scheduledDate: isoDate,
  timeSlot,
  address: z.string().min(1).max(500),
  suburb: z.string().min(1).max(100),
  postcode: z.string().min(3).max(10),
  /** e.g. "205/55R16"; null when unknown or not a tyre service. */
  tyreSize: z.string().max(50).nullable(),
  tyreQuantity: z.int().min(1).max(4).nullable(),
  tyreBrand: z.string().max(100).nullable(),
  notes: z.string().max(5000).nullable(),
  customerValue: money,
  paymentMethod,
  paymentStatus,
  stripePaymentIntentId: z.string().max(255).nullable().optional(),
  /** `online` for the public booking dialog, `staff` for the dashboard's New Booking screen. */
  channel: z.enum(['online', 'staff']),
  customer,
  vehicle,
  createdAt: isoDateTime,
  /**
   * The quote's lines as priced at booking (issue 19 price list): billing's invoice lines follow them. Optional:
   * absent on older events and on callback quotes (no price yet).
   */
  quote: BookingQuote.optional(),
  /**
   * A prepaid booking: the card surcharge rate its quote was given and charged at (percent, 2 places, "1.70"; issue
   * 19 price list). Optional: absent on onsite bookings and older events (1.70%).
   */
  cardSurchargeRate: z
    .string()
    .regex(/^\d{1,3}\.\d{2}$/)
    .optional(),
});
export type BookingCreatedV1Data = z.infer<typeof BookingCreatedV1Data>;

export const BookingCreatedV1 = defineContract({
  type: 'booking.created.v1',
  name: 'BookingCreated',
  version: 1,
  schema: BookingCreatedV1Data,
});
