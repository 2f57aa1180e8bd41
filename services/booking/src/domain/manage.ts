/**
 * "Manage my booking" (issue 18): the rules of the customer's own page, pure. The link's token is a bearer
 * capability like the checkout's (domain/tokens.ts: 256 random bits, only its sha256 stored); what the customer may
 * still do depends on the booking's state, the job's progress as the jobs service reported it, and the clock.
 */
import {
  addDays,
  BOOKING_MESSAGES,
  CANCELLATION_BAND_LABEL,
  cancellationTerms,
  formatMoney,
  noShowTerms,
  perthInstant,
  slotStartsAt,
  TIME_SLOTS,
  toCents,
  type CancellationTerms,
  type TimeSlot,
} from '@tyres/kernel';

/** A manage link stays usable this long after the booked slot ends (to see the booking, e.g. for a dispute). */
export const MANAGE_LINK_DAYS_AFTER_SLOT = 7;

/** When a manage link for a booking in (date, slot) stops working: the slot's end plus seven days. */
export function manageLinkExpiry(date: string, slot: TimeSlot): Date {
  const end = TIME_SLOTS.find((s) => s.slot === slot)!.end;
  return perthInstant(addDays(date, MANAGE_LINK_DAYS_AFTER_SLOT), end);
}

/** The page's address for a token: `<site>/manage/<token>` (the site's origin from config, without a trailing /). */
export const manageUrl = (siteUrl: string, token: string) => `${siteUrl.replace(/\/+$/, '')}/manage/${token}`;

/** Job statuses (jobs service) at which the technician is under way or done: the booking is no longer movable. */
const UNDER_WAY = new Set(['in-progress', 'completed', 'invoiced', 'paid']);
/** Job statuses at which the work is done: nothing on the booking changes any more. */
const FINISHED = new Set(['completed', 'invoiced', 'paid']);

export interface ManagedState {
  /** booking.status: confirmed, cancelled (and quoted/expired/conflict, which have no manage link). */
  status: string;
  /** The job's latest status from the jobs service, if it changed since booking. */
  jobStatus: string | null;
  /** The reservation is released (cancelled by staff through jobs, or deleted). */
  released: boolean;
  scheduledDate: string;
  timeSlot: TimeSlot;
}

export const isCancelled = (b: ManagedState) =>
  b.status === 'cancelled' || b.jobStatus === 'cancelled' || b.released;

/** What the page shows as the booking's status. */
export function displayStatus(
  b: ManagedState,
  now: Date,
): 'confirmed' | 'cancelled' | 'in-progress' | 'completed' {
  if (isCancelled(b)) return 'cancelled';
  if (b.jobStatus && FINISHED.has(b.jobStatus)) return 'completed';
  if (b.jobStatus === 'in-progress' || slotStartsAt(b.scheduledDate, b.timeSlot) <= now) return 'in-progress';
  return 'confirmed';
}

export const MANAGE_MSG = {
  linkNotFound: 'This link is not valid or has expired. Please call us to manage your booking.',
  cancelled: 'This booking has been cancelled.',
  started: 'This booking has already started and can no longer be rescheduled. Please call us.',
  finished: 'This booking has been completed and can no longer be changed.',
  cannotCancel: 'This booking is already under way and can no longer be cancelled. Please call us.',
  sameSlot: 'Your booking is already at this time.',
  nothingToChange: 'Please change your phone number, notes or vehicle details.',
  noBooking: 'No booking for this job',
  noShowCancelled: 'This booking has been cancelled and cannot be marked as a no-show.',
  noShowFinished: 'This job has been completed and cannot be marked as a no-show.',
  noShowNotStarted: 'A booking can only be marked as a no-show once its time slot has started.',
  slotTaken: BOOKING_MESSAGES.slotNoLongerAvailable,
  termsChanged:
    'The cancellation terms changed while this page was open (the booking is now closer to its start). Please check the new terms and confirm again.',
} as const;

/** Why the booking cannot be moved now, or undefined. */
export function rescheduleProblem(b: ManagedState, now: Date): string | undefined {
  if (isCancelled(b)) return MANAGE_MSG.cancelled;
  if (b.jobStatus && FINISHED.has(b.jobStatus)) return MANAGE_MSG.finished;
  if ((b.jobStatus && UNDER_WAY.has(b.jobStatus)) || slotStartsAt(b.scheduledDate, b.timeSlot) <= now)
    return MANAGE_MSG.started;
  return undefined;
}

/**
 * Why the booking cannot be cancelled now, or undefined. A booking whose slot has begun may still be cancelled
 * while the technician is not under way (a late cancellation: the policy's "no refund" band applies).
 */
export function cancelProblem(b: ManagedState): string | undefined {
  if (isCancelled(b)) return MANAGE_MSG.cancelled;
  if (b.jobStatus && UNDER_WAY.has(b.jobStatus)) return MANAGE_MSG.cannotCancel;
  return undefined;
}

/** Why the customer's details (phone, notes, vehicle, photos) cannot be changed now, or undefined. */
export function changeProblem(b: ManagedState): string | undefined {
  if (isCancelled(b)) return MANAGE_MSG.cancelled;
  if (b.jobStatus && FINISHED.has(b.jobStatus)) return MANAGE_MSG.finished;
  return undefined;
}

/**
 * Why staff cannot mark the booking a no-show now, or undefined: only a live booking (not cancelled, the work not
 * done) whose slot has started (the customer was not there when the technician came).
 */
export function noShowProblem(b: ManagedState, now: Date): string | undefined {
  if (isCancelled(b)) return MANAGE_MSG.noShowCancelled;
  if (b.jobStatus && FINISHED.has(b.jobStatus)) return MANAGE_MSG.noShowFinished;
  if (slotStartsAt(b.scheduledDate, b.timeSlot) > now) return MANAGE_MSG.noShowNotStarted;
  return undefined;
}

/** The reason recorded for a no-show (the job's cancellation reason): "No-show", with the staff member's note. */
export const noShowReason = (note: string | null) => (note ? `No-show: ${note}` : 'No-show');

export interface PriceFacts {
  /** The booking's price (GST inclusive), a money string. */
  total: string;
  paymentStatus: string;
  /** What the card was charged, when paid online. */
  amountPaid: string | null;
}

/** What a no-show costs (the kernel's noShowTerms): the whole charge kept (paid online), else the whole price. */
export function noShowTermsOf(b: PriceFacts): CancellationTerms {
  const paid = b.paymentStatus === 'paid' && b.amountPaid ? toCents(b.amountPaid) : 0n;
  return noShowTerms({ price: toCents(b.total), paid });
}

/** The kernel's cancellation terms for cancelling at `at`: a share of what was paid online, else of the price. */
export function termsAt(b: ManagedState & PriceFacts, at: Date): CancellationTerms {
  const paid = b.paymentStatus === 'paid' && b.amountPaid ? toCents(b.amountPaid) : 0n;
  return cancellationTerms({
    scheduledDate: b.scheduledDate,
    timeSlot: b.timeSlot,
    at,
    price: toCents(b.total),
    paid,
  });
}

/** The terms as the page and the events carry them (money strings). */
export function termsView(t: CancellationTerms) {
  return {
    band: t.band,
    description: CANCELLATION_BAND_LABEL[t.band],
    hoursBefore: t.hoursBefore,
    refundPercent: t.refundPercent,
    refund: formatMoney(t.refund),
    fee: formatMoney(t.fee),
  };
}

/**
 * An Australian mobile number in the form the SmsRequested contract takes (digits, optional leading +, 8-20), or
 * undefined when the customer gave something an SMS cannot go to (a landline still gets the email).
 */
export function smsNumber(phone: string): string | undefined {
  const compact = phone.replace(/[\s().-]/g, '');
  if (!/^\+?\d{8,20}$/.test(compact)) return undefined;
  return /^(?:04|\+614|614)\d{8}$/.test(compact) ? compact : undefined;
}
