/**
 * Request bodies of the "manage my booking" routes (manage.ts), built from the kernel's booking field rules so the
 * page refuses a phone number, note or vehicle exactly as the booking dialog does, with the same messages.
 */
import {
  BOOKING_MESSAGES as MSG,
  bookingDateSchema,
  notesSchema,
  optionalText,
  phoneSchema,
  registrationSchema,
  requiredText,
  timeSlotSchema,
  vehicleYearSchema,
} from '@tyres/kernel';
import { z } from 'zod';

export const STAFF_CANCEL_REASON = 'Please enter a reason for cancelling this booking';

/** POST /api/manage/{token}/reschedule: the new date and slot (the booking dialog's rules). */
export const manageRescheduleSchema = z.object({
  scheduledDate: bookingDateSchema,
  timeSlot: timeSlotSchema,
});

/** POST /api/manage/{token}/cancel: an optional reason (the body may be empty). */
export const manageCancelSchema = z.object({
  reason: optionalText(500, 'The reason is too long (500 characters at most)'),
});

/** The public booking dialog's vehicle (colour optional). */
const vehicleSchema = z.object({
  make: requiredText(MSG.make, 1, 100),
  model: requiredText(MSG.model, 1, 100),
  year: vehicleYearSchema,
  color: optionalText(50, MSG.colorTooLong),
  registration: registrationSchema,
});

/**
 * PATCH /api/manage/{token}: any of phone, notes, vehicle (the whole vehicle). An absent field is left as it is;
 * `notes: null` or blank clears the notes.
 */
export const manageUpdateSchema = z.object({
  phone: phoneSchema.optional(),
  notes: notesSchema.optional(),
  vehicle: vehicleSchema.optional(),
});

/** POST /api/dashboard/bookings/{jobId}/cancel: staff give a reason and may waive the policy's fee. */
export const staffCancelSchema = z.object({
  reason: requiredText(STAFF_CANCEL_REASON, 1, 500, 'The reason is too long (500 characters at most)'),
  waiveFee: z.boolean({ error: 'waiveFee must be true or false' }).optional().default(false),
});
