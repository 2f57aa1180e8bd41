import { z } from 'zod';

export const RESCHEDULE_BOTH_REQUIRED = 'Please select both date and time slot';

/** Reschedule dialog: both a date and a slot (spec section 5). */
export const rescheduleSchema = z
  .object({ scheduledDate: z.string().nullable(), timeSlot: z.string().nullable() })
  .superRefine((v, ctx) => {
    if (!v.scheduledDate || !v.timeSlot)
      ctx.addIssue({ code: 'custom', message: RESCHEDULE_BOTH_REQUIRED, path: ['timeSlot'] });
  });
export type RescheduleValues = z.infer<typeof rescheduleSchema>;
