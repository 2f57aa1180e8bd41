import { z } from 'zod';
import { defineContract } from '../envelope';
import { id, isoDateTime, userRole } from './common';

/** gateway (identity) -> jobs (technician directory), notify. Never carries the password hash. */
export const UserCreatedV1Data = z.object({
  userId: id,
  username: z.string().min(1).max(100),
  email: z.email().nullable(),
  role: userRole,
  isActive: z.boolean(),
  createdAt: isoDateTime,
});
export type UserCreatedV1Data = z.infer<typeof UserCreatedV1Data>;

export const UserCreatedV1 = defineContract({
  type: 'user.created.v1',
  name: 'UserCreated',
  version: 1,
  schema: UserCreatedV1Data,
});
