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

const termsMoney = z
  .string({ error: 'expected.refund and expected.fee are amounts like 12.50' })
  .regex(/^\d{1,7}\.\d{2}$/, 'expected.refund and expected.fee are amounts like 12.50');
/** The cancellation terms a page showed: band, refund and fee (GET …'s `cancellation`). */
export const expectedTermsSchema = z.object(
  {
    band: z.enum(['full_refund', 'half_refund', 'no_refund'], {
      error: 'expected.band must be full_refund, half_refund or no_refund',
    }),
    refund: termsMoney,
    fee: termsMoney,
  },
  { error: 'expected must be the terms shown: { band, refund, fee }' },
);

/** POST /api/manage/{token}/cancel: an optional reason (the body may be empty). */
export const manageCancelSchema = z.object({
  reason: optionalText(500, 'The reason is too long (500 characters at most)'),
  /**
   * The terms the page showed when the customer confirmed (its `cancellation`): what they consented to. When the
   * terms at the moment of cancelling differ (a policy boundary passed meanwhile), nothing is cancelled: 409
   * terms_changed, and the page shows the new terms to confirm again. Absent: the terms at that moment apply.
   */
  expected: expectedTermsSchema.optional(),
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
  /** The terms the dashboard showed (as for the customer's cancel): 409 terms_changed when they no longer apply. */
  expected: expectedTermsSchema.optional(),
});

export const NO_SHOW_NOTE_TOO_LONG = 'The note is too long (500 characters at most)';

/** POST /api/dashboard/bookings/{jobId}/no-show: an optional note from staff (the body may be empty). */
export const noShowSchema = z.object({
  note: optionalText(500, NO_SHOW_NOTE_TOO_LONG),
});
