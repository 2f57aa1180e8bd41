import { z } from 'zod';
import { PHOTO_MIME_TYPES } from '@tyres/kernel';
import { defineContract } from '../envelope';
import { id, isoDateTime } from './common';

/** booking (stores the bytes) -> jobs (keeps photo metadata for the job detail dialog). */
export const BookingPhotoAddedV1Data = z.object({
  jobId: id,
  photoId: id,
  /** e.g. "tyre-condition". */
  type: z.string().min(1).max(50),
  /** Generated storage name (never the client's name). */
  filename: z.string().min(1).max(255),
  originalName: z.string().max(255),
  /** The photo types a customer may upload (the kernel's booking contract). */
  mimeType: z.enum(PHOTO_MIME_TYPES),
  /** Bytes. */
  size: z.int().positive(),
  uploadedAt: isoDateTime,
});
export type BookingPhotoAddedV1Data = z.infer<typeof BookingPhotoAddedV1Data>;

export const BookingPhotoAddedV1 = defineContract({
  type: 'booking.photo-added.v1',
  name: 'BookingPhotoAdded',
  version: 1,
  schema: BookingPhotoAddedV1Data,
});
