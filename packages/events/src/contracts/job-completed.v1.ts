import { z } from 'zod';
import { defineContract } from '../envelope';
import {
  customer,
  id,
  isoDate,
  isoDateTime,
  money,
  paymentMethod,
  paymentStatus,
  serviceType,
  timeSlot,
  vehicle,
} from './common';

/** jobs -> billing (invoice can be generated), reporting (job revenue and cost facts), notify. */
export const JobCompletedV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  serviceType,
  scheduledDate: isoDate,
  timeSlot,
  suburb: z.string().min(1).max(100),
  customerValue: money,
  /** Sum of purchase costs recorded against the job so far, null when none. */
  purchaseCost: money.nullable(),
  assignedTechnicianId: id.nullable(),
  customer,
  completedAt: isoDateTime,
  // Added after the first release (optional, so events already in flight stay valid); the jobs service always
  // sends them, so billing can draft the customer invoice from this event alone.
  address: z.string().min(1).max(500).optional(),
  postcode: z.string().min(3).max(10).optional(),
  tyreSize: z.string().max(50).nullable().optional(),
  tyreQuantity: z.int().min(1).max(4).nullable().optional(),
  vehicle: vehicle.optional(),
  paymentMethod: paymentMethod.optional(),
  paymentStatus: paymentStatus.optional(),
});
export type JobCompletedV1Data = z.infer<typeof JobCompletedV1Data>;

export const JobCompletedV1 = defineContract({
  type: 'job.completed.v1',
  name: 'JobCompleted',
  version: 1,
  schema: JobCompletedV1Data,
});
