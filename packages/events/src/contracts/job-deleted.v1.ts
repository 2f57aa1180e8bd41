import { z } from 'zod';
import { defineContract } from '../envelope';
import { actorId, id, isoDate, isoDateTime, jobStatus, timeSlot } from './common';

/** jobs -> booking (release the reservation if still held), billing, reporting (drop job facts), notify. */
export const JobDeletedV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  scheduledDate: isoDate,
  timeSlot,
  deletedBy: actorId,
  deletedAt: isoDateTime,
  // Added after the first release (optional, so events already in flight stay valid); the jobs service always
  // sends them.
  /** Status at deletion (`cancelled` means the slot was already free). */
  status: jobStatus.optional(),
  assignedTechnicianId: id.nullable().optional(),
});
export type JobDeletedV1Data = z.infer<typeof JobDeletedV1Data>;

export const JobDeletedV1 = defineContract({
  type: 'job.deleted.v1',
  name: 'JobDeleted',
  version: 1,
  schema: JobDeletedV1Data,
});
