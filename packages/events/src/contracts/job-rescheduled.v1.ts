import { z } from 'zod';
import { defineContract } from '../envelope';
import { actorId, id, isoDateTime, jobStatus, slot } from './common';

/**
 * jobs -> notify, reporting. Informational: the slot reservation itself is moved synchronously with booking
 * before this is emitted, so slot lists are already right when the reschedule call returns.
 */
export const JobRescheduledV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  from: slot,
  to: slot,
  assignedTechnicianId: id.nullable(),
  rescheduledBy: actorId,
  rescheduledAt: isoDateTime,
  // Added after the first release (optional, so events already in flight stay valid); the jobs service always
  // sends it.
  status: jobStatus.optional(),
});
export type JobRescheduledV1Data = z.infer<typeof JobRescheduledV1Data>;

export const JobRescheduledV1 = defineContract({
  type: 'job.rescheduled.v1',
  name: 'JobRescheduled',
  version: 1,
  schema: JobRescheduledV1Data,
});
