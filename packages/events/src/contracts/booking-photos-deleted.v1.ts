import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime } from './common';

/**
 * booking (stores the bytes) -> jobs (drops the photos' metadata from the job detail). Issue 18 (privacy): a job's
 * photos are deleted PHOTO_RETENTION_MONTHS after it was paid. (An erasure deletes photos too, but CustomerErased
 * already tells every service.)
 */
export const BookingPhotosDeletedV1Data = z.object({
  jobId: id,
  photoIds: z.array(id).min(1).max(100),
  reason: z.enum(['retention']),
  deletedAt: isoDateTime,
});
export type BookingPhotosDeletedV1Data = z.infer<typeof BookingPhotosDeletedV1Data>;

export const BookingPhotosDeletedV1 = defineContract({
  type: 'booking.photos-deleted.v1',
  name: 'BookingPhotosDeleted',
  version: 1,
  schema: BookingPhotosDeletedV1Data,
});
