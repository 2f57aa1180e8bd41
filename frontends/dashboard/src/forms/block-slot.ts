import { z } from 'zod';

export const BLOCK_REASON_REQUIRED = 'Please enter a reason for blocking this time slot';

/** Blocking a slot needs a non-blank reason. */
export const blockSlotSchema = z.object({ reason: z.string().trim().min(1, BLOCK_REASON_REQUIRED) });
export type BlockSlotValues = z.infer<typeof blockSlotSchema>;
