import type { Outbox } from '@tyres/events';
import { forbidden, notFound, type Identity } from '@tyres/service-kit';
import { interruptedUploadError, photoCountError } from '../domain/errors';
import { MSG } from '../domain/messages';
import { EXTENSION, maxPhotos, type ReceivedPhoto } from '../domain/photos';
import { bookingPhotoAddedEvent, eventMeta, type PhotoRow } from '../events/builders';
import type { Db, Tx } from './client';
import { TX_OPTIONS } from './bookings';
import { PHOTO_COLUMNS } from './photo-columns';

export interface UploadTarget {
  bookingId: string;
  jobId: string;
  /** Photos the booking may still receive. */
  remaining: number;
  max: number;
}

export const photoView = (p: PhotoRow) => ({
  id: p.id,
  jobId: p.jobId,
  type: p.type,
  filename: p.filename,
  originalName: p.originalName,
  mimeType: p.mimeType,
  size: p.size,
  uploadedAt: p.uploadedAt.toISOString(),
});

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

  /** The booking a customer may add photos to: made in the last hour (quote or booking), with room left. */
  async uploadTarget(jobId: string): Promise<UploadTarget> {
    const booking = await this.deps.db.booking.findUnique({
      where: { jobId },
      select: {
        id: true,
        jobId: true,
        status: true,
        tyreSize: true,
        createdAt: true,
        expiresAt: true,
        _count: { select: { photos: true } },
      },
    });
    const now = this.deps.clock().getTime();
    // A quote whose hold ran out is gone for the customer (as for its token), even before the sweeper marks it.
    const liveQuote =
      booking?.status === 'quoted' && booking.expiresAt !== null && booking.expiresAt.getTime() > now;
    if (!booking || (booking.status !== 'confirmed' && !liveQuote)) throw notFound('Booking not found');
    const ageMs = now - booking.createdAt.getTime();
    if (ageMs > this.deps.windowMinutes * 60_000) throw forbidden(MSG.photoWindow);
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
      const [booking] = await tx.$queryRawUnsafe<{ status: string }[]>(
        `SELECT status::text AS status FROM booking.bookings WHERE id = $1::uuid FOR UPDATE`,
        target.bookingId,
      );
      // Re-checked under the row lock: the quote may have expired (or been cancelled) while the files streamed.
      if (!booking || (booking.status !== 'confirmed' && booking.status !== 'quoted'))
        throw notFound('Booking not found');
      const existing = await tx.jobPhoto.count({ where: { bookingId: target.bookingId } });
      if (existing + files.length > target.max) throw photoCountError(target.max);
      // Each file must still be an upload in progress: its marker goes with this transaction (db/photo-chunks.ts).
      const claimed = await tx.$executeRawUnsafe(
        `DELETE FROM booking.photo_uploads WHERE photo_id = ANY($1::uuid[])`,
        files.map((f) => f.id),
      );
      if (claimed !== files.length) throw interruptedUploadError();
      const now = this.deps.clock();
      const rows: PhotoRow[] = [];
      for (const file of files) {
        rows.push(
          await tx.jobPhoto.create({
            data: {
              id: file.id,
              bookingId: target.bookingId,
              jobId: target.jobId,
              type,
              filename: `${file.id}.${EXTENSION[file.mimeType]}`,
              originalName: file.originalName,
              mimeType: file.mimeType,
              size: file.size,
              uploadedAt: now,
            },
            select: PHOTO_COLUMNS,
          }),
        );
      }
      if (booking.status === 'confirmed') {
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
   * their assigned jobs' (others: 404).
   */
  async forStaff(jobId: string, photoId: string, who: Identity) {
    if (who.role !== 'admin') {
      const assignment = await this.deps.db.jobTechnician.findUnique({ where: { jobId } });
      if (!assignment || assignment.technicianId !== who.id) return undefined;
    }
    return this.deps.db.jobPhoto.findFirst({
      where: { id: photoId, jobId },
      select: { id: true, mimeType: true, size: true, filename: true },
    });
  }
}

/** JobAssigned: remember the technician (newest assignment wins, whatever order events arrive in). */
export async function recordAssignment(
  tx: Tx,
  jobId: string,
  technicianId: string | null,
  assignedAt: Date,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO booking.job_technicians (job_id, technician_id, assigned_at) VALUES ($1::uuid, $2::uuid, $3::timestamptz)
     ON CONFLICT (job_id) DO UPDATE SET technician_id = EXCLUDED.technician_id, assigned_at = EXCLUDED.assigned_at
      WHERE booking.job_technicians.assigned_at <= EXCLUDED.assigned_at`,
    jobId,
    technicianId,
    assignedAt.toISOString(),
  );
}
