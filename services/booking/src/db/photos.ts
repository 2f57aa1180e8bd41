/** Queries on job photos' records (their bytes: photo-chunks.ts) and on who may see them. */
import type { PhotoMimeType } from '../domain/constants';
import type { PhotoRow } from '../events/builders';
import type { Db, Tx } from './client';
import { PHOTO_COLUMNS } from './photo-columns';

/** What decides whether a customer may still add photos to the booking of a job. */
export async function photoTargetOf(db: Db, jobId: string) {
  return (
    (await db.booking.findUnique({
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
    })) ?? undefined
  );
}

/** Locks a booking row and returns its status (undefined: no such booking). */
export async function lockBookingStatus(tx: Tx, bookingId: string): Promise<string | undefined> {
  const [row] = await tx.$queryRawUnsafe<{ status: string }[]>(
    `SELECT status::text AS status FROM booking.bookings WHERE id = $1::uuid FOR UPDATE`,
    bookingId,
  );
  return row?.status;
}

export const countPhotos = (tx: Tx, bookingId: string) => tx.jobPhoto.count({ where: { bookingId } });

/** Ends the uploads in progress of these photos (their markers); returns how many were still in progress. */
export async function finishUploads(tx: Tx, photoIds: string[]): Promise<number> {
  return Number(
    await tx.$executeRawUnsafe(
      `DELETE FROM booking.photo_uploads WHERE photo_id = ANY($1::uuid[])`,
      photoIds,
    ),
  );
}

export interface NewPhoto {
  id: string;
  bookingId: string;
  jobId: string;
  type: string;
  filename: string;
  originalName: string;
  mimeType: PhotoMimeType;
  size: number;
  uploadedAt: Date;
}

export async function insertPhoto(tx: Tx, photo: NewPhoto): Promise<PhotoRow> {
  return tx.jobPhoto.create({ data: photo, select: PHOTO_COLUMNS });
}

/** The technician a job is assigned to (null: unassigned), if booking has heard of an assignment. */
export async function assignmentOf(
  db: Db,
  jobId: string,
): Promise<{ technicianId: string | null } | undefined> {
  return (await db.jobTechnician.findUnique({ where: { jobId } })) ?? undefined;
}

export async function photoOfJob(db: Db, jobId: string, photoId: string) {
  return (
    (await db.jobPhoto.findFirst({
      where: { id: photoId, jobId },
      select: { id: true, mimeType: true, size: true, filename: true },
    })) ?? undefined
  );
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
