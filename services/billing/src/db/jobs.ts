import type { BookingCreatedV1Data } from '@tyres/events';
import { dateToDb } from '@tyres/kernel';
import { EDITED_BOOKING_FIELDS, type JobChange } from '../domain/job-projection';
import type { Db, Tx } from './client';
import { Prisma, type JobSnapshot } from './generated/client';

/** Queries of the job projection (job_snapshots); the rules of what an event changes are domain/job-projection's. */

export async function findJob(db: Db | Tx, jobId: string): Promise<JobSnapshot | undefined> {
  return (await db.jobSnapshot.findUnique({ where: { jobId } })) ?? undefined;
}

/** Creates the job from BookingCreated, or refreshes its booking details (never its status or assignment). */
export async function upsertJobFromBooking(tx: Tx, data: BookingCreatedV1Data): Promise<void> {
  const details = {
    jobNumber: data.jobNumber,
    serviceType: data.serviceType,
    scheduledDate: dateToDb(data.scheduledDate),
    timeSlot: data.timeSlot,
    address: data.address,
    suburb: data.suburb,
    postcode: data.postcode,
    tyreSize: data.tyreSize,
    tyreQuantity: data.tyreQuantity,
    tyreBrand: data.tyreBrand,
    notes: data.notes,
    customerValue: data.customerValue,
    paymentMethod: data.paymentMethod,
    paymentStatus: data.paymentStatus,
    customerName: data.customer.name,
    customerEmail: data.customer.email,
    customerPhone: data.customer.phone,
    vehicleMake: data.vehicle.make,
    vehicleModel: data.vehicle.model,
    vehicleYear: data.vehicle.year,
    vehicleColor: data.vehicle.color ?? null,
    vehicleRegistration: data.vehicle.registration,
    bookedAt: new Date(data.createdAt),
    // Issue 19: the quote's lines as booked (invoice lines follow them); DbNull for older events and callback quotes.
    quoteLines: data.quote ? (data.quote as Prisma.InputJsonValue) : Prisma.DbNull,
  };
  // A new job (the usual case) is one statement; a replayed or re-emitted BookingCreated finds the row and updates it.
  const { count } = await tx.jobSnapshot.createMany({
    data: [{ jobId: data.jobId, ...details }],
    skipDuplicates: true,
  });
  if (count === 1) return;
  // An edited job (issue 19) keeps its edited fields: the admin's edit is newer than any booking detail.
  const existing = await tx.jobSnapshot.findUniqueOrThrow({
    where: { jobId: data.jobId },
    select: { editVersion: true },
  });
  const update: Partial<typeof details> = { ...details };
  if (existing.editVersion > 0) for (const field of EDITED_BOOKING_FIELDS) delete update[field];
  await tx.jobSnapshot.update({ where: { jobId: data.jobId }, data: update });
}

export async function updateJob(tx: Tx, jobId: string, change: JobChange): Promise<void> {
  const { scheduledDate, ...rest } = change;
  await tx.jobSnapshot.update({
    where: { jobId },
    data: { ...rest, ...(scheduledDate !== undefined ? { scheduledDate: dateToDb(scheduledDate) } : {}) },
  });
}

/** Marks the job deleted (once: the first deletion time stays). */
export async function markJobDeleted(tx: Tx, jobId: string, at: Date): Promise<void> {
  await tx.jobSnapshot.updateMany({ where: { jobId, deletedAt: null }, data: { deletedAt: at } });
}

/**
 * Claims the job's cancellation for one BookingCancelled event: true when this event is (now) the one applied, false
 * when another cancellation event of the job was applied before.
 */
export async function claimJobCancellation(tx: Tx, jobId: string, eventId: string): Promise<boolean> {
  const claimed = await tx.jobSnapshot.updateMany({
    where: { jobId, cancellationEventId: null },
    data: { cancellationEventId: eventId },
  });
  if (claimed.count === 1) return true;
  const job = await tx.jobSnapshot.findUnique({ where: { jobId }, select: { cancellationEventId: true } });
  return job?.cancellationEventId === eventId;
}
