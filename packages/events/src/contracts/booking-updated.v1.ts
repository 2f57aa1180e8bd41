import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, vehicle } from './common';

/**
 * booking -> jobs, notify. The customer corrected their details from the "manage my booking" page (issue 18).
 * Only the fields that changed are present (booking never emits it with none of phone, notes, vehicle);
 * `notes: null` clears the notes.
 */
export const BookingUpdatedV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  phone: z.string().min(1).max(50).optional(),
  notes: z.string().max(2000).nullable().optional(),
  vehicle: vehicle.optional(),
  updatedBy: z.enum(['customer']),
  updatedAt: isoDateTime,
});
export type BookingUpdatedV1Data = z.infer<typeof BookingUpdatedV1Data>;

export const BookingUpdatedV1 = defineContract({
  type: 'booking.updated.v1',
  name: 'BookingUpdated',
  version: 1,
  schema: BookingUpdatedV1Data,
});
