import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, userRole } from './common';

/** gateway (identity) -> jobs (technician directory: active technicians), notify (drop sessions). */
export const UserStatusChangedV1Data = z.object({
  userId: id,
  username: z.string().min(1).max(100),
  role: userRole,
  isActive: z.boolean(),
  changedAt: isoDateTime,
});
export type UserStatusChangedV1Data = z.infer<typeof UserStatusChangedV1Data>;

export const UserStatusChangedV1 = defineContract({
  type: 'user.status-changed.v1',
  name: 'UserStatusChanged',
  version: 1,
  schema: UserStatusChangedV1Data,
});
