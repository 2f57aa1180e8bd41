import { z } from 'zod';
import { defineContract } from '../envelope';
import {
  actorId,
  customer,
  id,
  isoDate,
  isoDateTime,
  jobStatus,
  money,
  serviceType,
  timeSlot,
} from './common';

/**
 * jobs -> notify (tell the technician's dashboard), billing and booking (per-technician scoping of invoices and
 * photos). `technicianId` null means unassigned.
 */
export const JobAssignedV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  technicianId: id.nullable(),
  previousTechnicianId: id.nullable(),
  scheduledDate: isoDate,
  timeSlot,
  assignedBy: actorId,
  assignedAt: isoDateTime,
  // Added after the first release (optional, so events already in flight stay valid); the jobs service always
  // sends them.
  status: jobStatus.optional(),
  serviceType: serviceType.optional(),
  suburb: z.string().min(1).max(100).optional(),
  customerValue: money.optional(),
  customer: customer.optional(),
});
export type JobAssignedV1Data = z.infer<typeof JobAssignedV1Data>;

export const JobAssignedV1 = defineContract({
  type: 'job.assigned.v1',
  name: 'JobAssigned',
  version: 1,
  schema: JobAssignedV1Data,
});
