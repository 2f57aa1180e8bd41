/**
 * The messages the jobs service answers with (the dashboard shows `message` in its toasts, spec section 8). Request
 * validation messages live with their schemas (src/http/schemas.ts).
 */

/** Unknown id, deleted job, or (for a technician) a job not assigned to them: the same 404, so ids are not confirmed. */
export const JOB_NOT_FOUND = 'Job not found';
export const LINE_ITEM_NOT_FOUND = 'Line item not found';
export const TECHNICIAN_NOT_FOUND = 'Technician not found';
/** A technician asking for an admin-only change to a job of their own. */
export const ADMIN_ONLY = 'Only an admin can do that';
export const TECHNICIAN_NOT_ASSIGNABLE = 'Jobs can only be assigned to an active technician.';
export const NOTIFY_ONLY_WHEN_STARTING = 'A customer SMS can only be sent when work starts.';
export const LINE_TOTAL_TOO_LARGE = 'Line total is too large';

// Reschedule, cancel, delete (slot reservations at booking).
export const PAST_DATE = 'Cannot reschedule to a past date';
export const SLOT_PASSED = 'That time slot has already passed today. Please select a later time slot.';
export const SLOT_TAKEN = 'This time slot is no longer available. Please select a different time slot.';
export const BOOKING_UNAVAILABLE =
  'The booking service is unavailable, so the time slot could not be updated. Nothing was changed; please try again in a moment.';
export const SAVE_FAILED_AFTER_BOOKING =
  'The job could not be saved, so the time slot change was undone. Nothing was changed; please try again.';

export const cancelledCannotBeAssigned = (jobNumber: string): string =>
  `Job ${jobNumber} is cancelled and cannot be assigned.`;
export const notReschedulable = (jobNumber: string, status: string): string =>
  `Job ${jobNumber} is ${status} and can no longer be rescheduled.`;
export const hasCustomerInvoice = (jobNumber: string, invoiceNumber: string): string =>
  `Job ${jobNumber} has a customer invoice (${invoiceNumber}) and cannot be deleted. Delete the invoice first.`;
