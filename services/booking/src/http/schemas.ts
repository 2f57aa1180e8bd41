/**
 * The request schemas of booking's own routes. A booking's, a quote's and a price quote's bodies are the kernel's
 * booking contract (@tyres/kernel: customerBookingSchema, staffBookingSchema, priceQuoteSchema), shared with the
 * public dialog and the staff form.
 */
import { TIME_SLOT_LABELS, toBookingDate, type TimeSlot } from '@tyres/kernel';
import { z } from 'zod';
import { MSG } from '../domain/messages';

/** PUT /internal/reservations/:jobId. */
export const moveReservationSchema = z.object({
  scheduledDate: z.unknown().transform((value, ctx) => {
    const date = toBookingDate(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: MSG.invalidDateOrSlot });
      return z.NEVER;
    }
    return date;
  }),
  timeSlot: z.enum(TIME_SLOT_LABELS as [TimeSlot, ...TimeSlot[]], { error: MSG.invalidDateOrSlot }),
});

/** PATCH /api/dashboard/timeslots/:date/:slot/block. */
export const blockSlotSchema = z.object({
  reason: z
    .string({ error: MSG.blockReason })
    .trim()
    .min(1, MSG.blockReason)
    .max(500, 'The reason is too long (500 characters at most)'),
});
