/** Customers' tyre photos: where an upload may go, attaching a received batch, and who on staff may see one. */
import type { Outbox } from '@tyres/events';
import { forbidden, notFound, type Identity } from '@tyres/service-kit';
import { TX_OPTIONS } from '../db/bookings';
import type { Db, Tx } from '../db/client';
import {
  assignmentOf,
  countPhotos,
  finishUploads,
  insertPhoto,
  lockBookingStatus,
  photoOfJob,
  photoTargetOf,
  recordAssignment,
} from '../db/photos';
import { MSG } from '../domain/messages';
import { EXTENSION, maxPhotos, type ReceivedPhoto } from '../domain/photos';
import { bookingPhotoAddedEvent, eventMeta, type PhotoRow } from '../events/builders';
import { interruptedUploadError, photoCountError } from './errors';

export interface UploadTarget {
  bookingId: string;
  jobId: string;
  /** Photos the booking may still receive. */
  remaining: number;
  max: number;
}

export class Photos {
  constructor(
    private readonly deps: {
      db: Db;
      outbox: Outbox;
      wake: () => void;
      clock: () => Date;
      windowMinutes: number;
    },
  ) {}

  /**
   * The booking a customer may add photos to: made in the last hour (quote or booking), with room left. With
   * `window: false` (the manage page, whose link is the customer's proof) a confirmed booking of any age.
   */
  async uploadTarget(jobId: string, opts: { window?: boolean } = {}): Promise<UploadTarget> {
    const booking = await photoTargetOf(this.deps.db, jobId);
    const now = this.deps.clock().getTime();
    // A quote whose hold ran out is gone for the customer (as for its token), even before the sweeper marks it.
    const liveQuote =
      booking?.status === 'quoted' && booking.expiresAt !== null && booking.expiresAt.getTime() > now;
    if (!booking || (booking.status !== 'confirmed' && !liveQuote)) throw notFound('Booking not found');
    const ageMs = now - booking.createdAt.getTime();
    if (opts.window !== false && ageMs > this.deps.windowMinutes * 60_000) throw forbidden(MSG.photoWindow);
    const max = maxPhotos(booking.tyreSize);
    return {
      bookingId: booking.id,
      jobId: booking.jobId,
      remaining: Math.max(0, max - booking._count.photos),
      max,
    };
  }

  /**
   * Attaches a batch of received photos (their bytes already in photo_chunks) in one transaction, the booking row
   * locked so two concurrent uploads cannot pass the limit together. BookingPhotoAdded goes out now for a
   * confirmed booking; for a prepaid quote it goes out with BookingCreated once paid (the jobs service knows no job
   * before that). On a refusal the caller discards the chunks.
   */
  async store(target: UploadTarget, type: string, files: ReceivedPhoto[]): Promise<PhotoRow[]> {
    const stored = await this.deps.db.$transaction(async (tx: Tx) => {
      const status = await lockBookingStatus(tx, target.bookingId);
      // Re-checked under the row lock: the quote may have expired (or been cancelled) while the files streamed.
      if (status !== 'confirmed' && status !== 'quoted') throw notFound('Booking not found');
      const existing = await countPhotos(tx, target.bookingId);
      if (existing + files.length > target.max) throw photoCountError(target.max);
      // Each file must still be an upload in progress: its marker goes with this transaction (db/photo-chunks.ts).
      const claimed = await finishUploads(
        tx,
        files.map((f) => f.id),
      );
      if (claimed !== files.length) throw interruptedUploadError();
      const now = this.deps.clock();
      const rows: PhotoRow[] = [];
      for (const file of files) {
        rows.push(
          await insertPhoto(tx, {
            id: file.id,
            bookingId: target.bookingId,
            jobId: target.jobId,
            type,
            filename: `${file.id}.${EXTENSION[file.mimeType]}`,
            originalName: file.originalName,
            mimeType: file.mimeType,
            size: file.size,
            uploadedAt: now,
          }),
        );
      }
      if (status === 'confirmed') {
        await this.deps.outbox.enqueue(
          tx,
          rows.map((r) => bookingPhotoAddedEvent(r, eventMeta())),
        );
      }
      return rows;
    }, TX_OPTIONS);
    this.deps.wake();
    return stored;
  }

  /**
   * A photo's details for the dashboard (its bytes: PhotoChunks.open): admins see every job's, technicians only
   * their assigned jobs' (others: undefined, answered 404).
   */
  async forStaff(jobId: string, photoId: string, who: Identity) {
    if (who.role !== 'admin') {
      const assignment = await assignmentOf(this.deps.db, jobId);
      if (!assignment || assignment.technicianId !== who.id) return undefined;
    }
    return photoOfJob(this.deps.db, jobId, photoId);
  }

  /** JobAssigned, in the inbox transaction: who may see the job's photos. */
  async recordAssignment(
    tx: Tx,
    jobId: string,
    technicianId: string | null,
    assignedAt: Date,
  ): Promise<void> {
    await recordAssignment(tx, jobId, technicianId, assignedAt);
  }
}
