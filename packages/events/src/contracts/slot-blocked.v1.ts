import { z } from 'zod';
import { defineContract } from '../envelope';
import { actorId, isoDate, isoDateTime, timeSlot } from './common';

/** booking -> notify (dashboards refresh slot lists), jobs (schedule view). */
export const SlotBlockedV1Data = z.object({
  date: isoDate,
  timeSlot,
  reason: z.string().trim().min(1).max(500),
  blockedBy: actorId,
  blockedAt: isoDateTime,
});
export type SlotBlockedV1Data = z.infer<typeof SlotBlockedV1Data>;

export const SlotBlockedV1 = defineContract({
  type: 'slot.blocked.v1',
  name: 'SlotBlocked',
  version: 1,
  schema: SlotBlockedV1Data,
});
