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
  paymentStatus,
  serviceType,
  timeSlot,
} from './common';

/**
 * jobs -> notify (dashboards), reporting (job revenue facts), booking (a cancelled job frees its slot).
 * Emitted for every status transition, including the one to `completed` (which also emits JobCompleted).
 */
export const JobStatusChangedV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  from: jobStatus,
  to: jobStatus,
  changedAt: isoDateTime,
  changedBy: actorId,
  assignedTechnicianId: id.nullable(),
  serviceType,
  scheduledDate: isoDate,
  timeSlot,
  customerValue: money,
  // Added after the first release (optional, so events already in flight stay valid); the jobs service always
  // sends them, so a consumer (billing, reporting) can keep a job projection from this event alone.
  customer: customer.optional(),
  suburb: z.string().min(1).max(100).optional(),
  paymentStatus: paymentStatus.optional(),
  /** Sum of purchase costs recorded against the job so far, null when none. */
  purchaseCost: money.nullable().optional(),
});
export type JobStatusChangedV1Data = z.infer<typeof JobStatusChangedV1Data>;

export const JobStatusChangedV1 = defineContract({
  type: 'job.status-changed.v1',
  name: 'JobStatusChanged',
  version: 1,
  schema: JobStatusChangedV1Data,
});
