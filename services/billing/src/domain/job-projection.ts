/**
 * Billing's projection of a job (job_snapshots): BookingCreated creates it, the jobs service's events move status and
 * assignment. Events of one job can arrive out of order (different producers, retries): the status and the assignment
 * each remember the time of the event that set them, and an older event never overwrites a newer one. Pure: the
 * caller reads the row, applies what these return, and writes it.
 */

/** What the rules read of the projected job. */
export interface ProjectedJob {
  status: string;
  /** The highest JobUpdated version applied (0 = never edited). */
  editVersion?: number;
  statusAt: Date | null;
  assignmentAt: Date | null;
  completedAt: Date | null;
}

/** The fields a job event may change. */
export interface JobChange {
  status?: string;
  statusAt?: Date;
  completedAt?: Date;
  assignedTechnicianId?: string | null;
  assignmentAt?: Date;
  scheduledDate?: string;
  timeSlot?: string;
  // Issue 19: an admin's edit (JobUpdated).
  editVersion?: number;
  customerValue?: string;
  address?: string;
  suburb?: string;
  postcode?: string;
  notes?: string | null;
  tyreSize?: string | null;
  tyreQuantity?: number | null;
  tyreBrand?: string | null;
  vehicleMake?: string;
  vehicleModel?: string;
  vehicleYear?: number;
  vehicleColor?: string | null;
  vehicleRegistration?: string;
}

/** An event at `at` is as new as what set the field (or newer): it applies. Equal times apply (a replay is a no-op). */
export const isNewer = (at: Date, previous: Date | null): boolean =>
  !previous || at.getTime() >= previous.getTime();

function assignment(job: ProjectedJob, at: Date, technicianId: string | null): JobChange {
  return isNewer(at, job.assignmentAt) ? { assignedTechnicianId: technicianId, assignmentAt: at } : {};
}

/** JobStatusChanged: the new status (and completion time) unless older; the assignment it carries likewise. */
export function statusChange(
  job: ProjectedJob,
  event: { to: string; at: Date; assignedTechnicianId: string | null },
): { change: JobChange; applied?: { from: string; to: string } } {
  const change: JobChange = assignment(job, event.at, event.assignedTechnicianId);
  if (!isNewer(event.at, job.statusAt)) return { change };
  change.status = event.to;
  change.statusAt = event.at;
  if (event.to === 'completed' && !job.completedAt) change.completedAt = event.at;
  return { change, applied: { from: job.status, to: event.to } };
}

/** JobCompleted: the completion time always (it is a fact), the status and assignment unless older. */
export function completion(
  job: ProjectedJob,
  event: { at: Date; assignedTechnicianId: string | null },
): JobChange {
  return {
    completedAt: event.at,
    ...(isNewer(event.at, job.statusAt) ? { status: 'completed', statusAt: event.at } : {}),
    ...assignment(job, event.at, event.assignedTechnicianId),
  };
}

/** JobAssigned: the technician unless an assignment newer than this one is known. */
export function assignmentChange(
  job: ProjectedJob,
  event: { at: Date; technicianId: string | null },
): JobChange {
  return assignment(job, event.at, event.technicianId);
}

/** JobRescheduled: the new date and slot; the assignment it carries unless older. */
export function reschedule(
  job: ProjectedJob,
  event: { at: Date; scheduledDate: string; timeSlot: string; assignedTechnicianId: string | null },
): JobChange {
  return {
    scheduledDate: event.scheduledDate,
    timeSlot: event.timeSlot,
    ...assignment(job, event.at, event.assignedTechnicianId),
  };
}

/** What JobUpdated carries (every editable field's value after the edit). */
export interface JobEdit {
  version: number;
  customerValue: string;
  address: string;
  suburb: string;
  postcode: string;
  notes: string | null;
  tyreSize: string | null;
  tyreQuantity: number | null;
  tyreBrand: string | null;
  vehicle: { make: string; model: string; year: number; color?: string | null; registration: string };
}

/**
 * JobUpdated (issue 19): the edited values when this version is newer than the one applied (edit versions of a job
 * only grow, and each carries every editable field, so the newest alone is the truth and an older one delivered late
 * changes nothing). The next generated invoice uses the new price and tyre details.
 */
export function jobEdit(job: ProjectedJob, edit: JobEdit): JobChange {
  if (edit.version <= (job.editVersion ?? 0)) return {};
  return {
    editVersion: edit.version,
    customerValue: edit.customerValue,
    address: edit.address,
    suburb: edit.suburb,
    postcode: edit.postcode,
    notes: edit.notes,
    tyreSize: edit.tyreSize,
    tyreQuantity: edit.tyreQuantity,
    tyreBrand: edit.tyreBrand,
    vehicleMake: edit.vehicle.make,
    vehicleModel: edit.vehicle.model,
    vehicleYear: edit.vehicle.year,
    vehicleColor: edit.vehicle.color ?? null,
    vehicleRegistration: edit.vehicle.registration,
  };
}

/** The booking details an edited job keeps when BookingCreated is replayed (the edit is newer than the booking). */
export const EDITED_BOOKING_FIELDS = [
  'customerValue',
  'address',
  'suburb',
  'postcode',
  'notes',
  'tyreSize',
  'tyreQuantity',
  'tyreBrand',
  'vehicleMake',
  'vehicleModel',
  'vehicleYear',
  'vehicleColor',
  'vehicleRegistration',
] as const;
