import { z } from 'zod';
import { defineContract } from '../envelope';
import { actorId, isoDate, isoDateTime, timeSlot } from './common';

/** booking -> notify, jobs. */
export const SlotUnblockedV1Data = z.object({
  date: isoDate,
  timeSlot,
  unblockedBy: actorId,
  unblockedAt: isoDateTime,
});
export type SlotUnblockedV1Data = z.infer<typeof SlotUnblockedV1Data>;

export const SlotUnblockedV1 = defineContract({
  type: 'slot.unblocked.v1',
  name: 'SlotUnblocked',
  version: 1,
  schema: SlotUnblockedV1Data,
});
