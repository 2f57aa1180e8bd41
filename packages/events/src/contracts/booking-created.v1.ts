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
});
export type BookingCreatedV1Data = z.infer<typeof BookingCreatedV1Data>;

export const BookingCreatedV1 = defineContract({
  type: 'booking.created.v1',
  name: 'BookingCreated',
  version: 1,
  schema: BookingCreatedV1Data,
});
