import type {
  BookingCreatedV1Data,
  JobAssignedV1Data,
  JobCompletedV1Data,
  JobDeletedV1Data,
  JobRescheduledV1Data,
  JobStatusChangedV1Data,
} from '@tyres/events';
import type { Identity } from '@tyres/service-kit';
import { toDbDate } from '../domain/dates';
import type { Db, Tx } from './client';
import type { JobSnapshot } from './generated/client';

/**
 * The job projection. BookingCreated creates the row (the booking service assigns job id and number); the jobs
 * service's events move status and assignment. Events of one job can arrive out of order (different producers,
 * retries): each field group remembers the time of the event that set it and ignores older ones. A Job* event for a
 * job billing has not seen yet throws, so the bus retries it after BookingCreated has arrived.
 */
export class JobNotKnownYet extends Error {
  constructor(jobId: string) {
    super(`Job ${jobId} is not known to billing yet (BookingCreated not received); retrying later`);
    this.name = 'JobNotKnownYet';
  }
}

export async function upsertFromBookingCreated(tx: Tx, data: BookingCreatedV1Data): Promise<void> {
  const details = {
    jobNumber: data.jobNumber,
    serviceType: data.serviceType,
    scheduledDate: toDbDate(data.scheduledDate),
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
  };
  await tx.jobSnapshot.upsert({
    where: { jobId: data.jobId },
    create: { jobId: data.jobId, ...details },
    // A replayed or re-emitted BookingCreated refreshes the booking details, never status or assignment.
    update: details,
  });
  if (data.stripePaymentIntentId) {
    await tx.payment.updateMany({
      where: { providerIntentId: data.stripePaymentIntentId, jobId: null },
      data: { jobId: data.jobId },
    });
  }
}

async function requireJob(tx: Tx, jobId: string): Promise<JobSnapshot> {
  const job = await tx.jobSnapshot.findUnique({ where: { jobId } });
  if (!job) throw new JobNotKnownYet(jobId);
  return job;
}

const newer = (at: Date, previous: Date | null) => !previous || at.getTime() >= previous.getTime();

/** Returns the status change it applied (undefined when the event was older than what billing knows). */
export async function applyStatusChanged(
  tx: Tx,
  data: JobStatusChangedV1Data,
): Promise<{ from: string; to: string } | undefined> {
  const job = await requireJob(tx, data.jobId);
  const at = new Date(data.changedAt);
  const update: Record<string, unknown> = {};
  let applied: { from: string; to: string } | undefined;
  if (newer(at, job.statusAt)) {
    update.status = data.to;
    update.statusAt = at;
    applied = { from: job.status, to: data.to };
    if (data.to === 'completed' && !job.completedAt) update.completedAt = at;
  }
  if (newer(at, job.assignmentAt)) {
    update.assignedTechnicianId = data.assignedTechnicianId;
    update.assignmentAt = at;
  }
  if (Object.keys(update).length > 0)
    await tx.jobSnapshot.update({ where: { jobId: job.jobId }, data: update });
  return applied;
}

export async function applyCompleted(tx: Tx, data: JobCompletedV1Data): Promise<void> {
  const job = await requireJob(tx, data.jobId);
  const at = new Date(data.completedAt);
  const update: Record<string, unknown> = { completedAt: at };
  if (newer(at, job.statusAt)) {
    update.status = 'completed';
    update.statusAt = at;
  }
  if (newer(at, job.assignmentAt)) {
    update.assignedTechnicianId = data.assignedTechnicianId;
    update.assignmentAt = at;
  }
  await tx.jobSnapshot.update({ where: { jobId: job.jobId }, data: update });
}

export async function applyAssigned(tx: Tx, data: JobAssignedV1Data): Promise<void> {
  const job = await requireJob(tx, data.jobId);
  const at = new Date(data.assignedAt);
  if (!newer(at, job.assignmentAt)) return;
  await tx.jobSnapshot.update({
    where: { jobId: job.jobId },
    data: { assignedTechnicianId: data.technicianId, assignmentAt: at },
  });
}

export async function applyRescheduled(tx: Tx, data: JobRescheduledV1Data): Promise<void> {
  const job = await requireJob(tx, data.jobId);
  const at = new Date(data.rescheduledAt);
  const update: Record<string, unknown> = {
    scheduledDate: toDbDate(data.to.scheduledDate),
    timeSlot: data.to.timeSlot,
  };
  if (newer(at, job.assignmentAt)) {
    update.assignedTechnicianId = data.assignedTechnicianId;
    update.assignmentAt = at;
  }
  await tx.jobSnapshot.update({ where: { jobId: job.jobId }, data: update });
}

/** Deleted jobs stay (their invoices are financial records) but can no longer be invoiced or seen by technicians. */
export async function applyDeleted(tx: Tx, data: JobDeletedV1Data): Promise<void> {
  await requireJob(tx, data.jobId);
  await tx.jobSnapshot.updateMany({
    where: { jobId: data.jobId, deletedAt: null },
    data: { deletedAt: new Date(data.deletedAt) },
  });
}

/** Admins see every job; a technician only jobs assigned to them. Anything else reads as "not found". */
export function canSeeJob(
  identity: Identity,
  job: Pick<JobSnapshot, 'assignedTechnicianId' | 'deletedAt'>,
): boolean {
  if (identity.role === 'admin') return true;
  return job.deletedAt === null && job.assignedTechnicianId === identity.id;
}

export async function findVisibleJob(
  db: Db | Tx,
  jobId: string,
  identity: Identity,
): Promise<JobSnapshot | undefined> {
  const job = await db.jobSnapshot.findUnique({ where: { jobId } });
  return job && canSeeJob(identity, job) ? job : undefined;
}
