import { MAX_TYRE_QUANTITY } from '@tyres/kernel';
import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, jobStatus, money, vehicle } from './common';

/** The job fields an admin may edit after booking (issue 19): what `changed` names. */
export const JOB_EDITABLE_FIELDS = [
  'customerValue',
  'address',
  'suburb',
  'postcode',
  'vehicle',
  'notes',
  'tyreSize',
  'tyreQuantity',
  'tyreBrand',
] as const;
export type JobEditableField = (typeof JOB_EDITABLE_FIELDS)[number];

/**
 * jobs -> billing, reporting. An admin edited the job after booking (issue 19: price, address, vehicle, notes, tyre
 * details, with a reason kept in the job's history at the jobs service, not here). `version` is the job's edit
 * number (1, 2, …; strictly increasing per job): a consumer keeps the highest version it applied and ignores older
 * ones delivered late. Every editable field carries its value after this edit (not only the `changed` ones), so
 * the newest version alone is the whole truth and out-of-order delivery loses nothing. The personal fields are
 * named as in the other contracts (`address`, `vehicle`, `notes`), so the erasure of a customer blanks them in
 * stored copies.
 */
export const JobUpdatedV1Data = z.object({
  jobId: id,
  jobNumber: z.string().min(1).max(50),
  version: z.int().min(1),
  changed: z.array(z.enum(JOB_EDITABLE_FIELDS)).min(1),
  status: jobStatus,
  /** GST-inclusive, like every price a customer sees. */
  customerValue: money,
  address: z.string().min(1).max(500),
  suburb: z.string().min(1).max(100),
  postcode: z.string().min(1).max(10),
  vehicle,
  notes: z.string().max(2000).nullable(),
  tyreSize: z.string().max(50).nullable(),
  tyreQuantity: z.int().min(1).max(MAX_TYRE_QUANTITY).nullable(),
  tyreBrand: z.string().max(100).nullable(),
  updatedBy: id,
  updatedAt: isoDateTime,
});
export type JobUpdatedV1Data = z.infer<typeof JobUpdatedV1Data>;

export const JobUpdatedV1 = defineContract({
  type: 'job.updated.v1',
  name: 'JobUpdated',
  version: 1,
  schema: JobUpdatedV1Data,
});
