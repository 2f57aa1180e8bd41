import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime } from './common';

/**
 * any service -> notify (BullMQ `sms` queue, job id derived from `requestId`, so duplicates collapse).
 * E.g. "technician en route, ETA 30 minutes" when work starts.
 */
export const SmsRequestedV1Data = z.object({
  /** Idempotency key of the message (use a deterministic id where a retry could request it twice). */
  requestId: id,
  to: z.string().min(8).max(20),
  body: z.string().min(1).max(1600),
  /** What the message is for, e.g. "technician-en-route"; shown in the delivery log. */
  purpose: z.string().min(1).max(100),
  jobId: id.nullable(),
  requestedAt: isoDateTime,
  /**
   * The staff member (user id) whose action asked for the message; notify tells their dashboard how the delivery
   * ended (sent / recorded / failed). Added to v1 as an optional field: additive and backward compatible, so events
   * without it (older producers, messages not asked for by a person) still parse, and consumers that do not know it
   * ignore it.
   */
  requestedBy: id.nullable().optional(),
});
export type SmsRequestedV1Data = z.infer<typeof SmsRequestedV1Data>;

export const SmsRequestedV1 = defineContract({
  type: 'sms.requested.v1',
  name: 'SmsRequested',
  version: 1,
  schema: SmsRequestedV1Data,
});
