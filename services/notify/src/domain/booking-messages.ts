/**
 * The messages of a booking's later life (issue 18): the day-before reminder, the reschedule notice and the
 * cancellation notice, each as an SMS and an email. Pure functions over notify's booking record and the events;
 * the cancellation's refund or fee is the event's (the kernel's terms at the moment of cancelling), never
 * recomputed here.
 */
import type { BookingCancelledV1Data, Slot } from '@tyres/events';
import { SERVICE_LABELS, formatAud, toCents, type ServiceType } from '@tyres/kernel';
import type { BusinessDetails, EmailContent } from './messages';
import { formatLongDate } from './message-times';

/** What notify keeps of a booking (db/bookings.ts), as the messages need it. */
export interface BookingContact {
  jobNumber: string;
  customerName: string;
  serviceType: string;
  address: string;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] || name.trim();
}

const serviceLabel = (serviceType: string) =>
  SERVICE_LABELS[serviceType as ServiceType] ?? serviceType.replace(/-/g, ' ');

/** "Thursday 26 November 2026, 8-10 AM" */
export const slotWords = (slot: Slot) => `${formatLongDate(slot.scheduledDate)}, ${slot.timeSlot}`;

function contactLine(business: BusinessDetails, jobNumber: string): string {
  return business.phone
    ? `Questions or changes: call us on ${business.phone} or use the link in your confirmation, quoting job number ${jobNumber}.`
    : `Questions or changes: reply to this email or use the link in your confirmation, quoting job number ${jobNumber}.`;
}

function email(
  subject: string,
  greeting: string,
  paragraphs: string[],
  business: BusinessDetails,
): EmailContent {
  const signature = `${business.name}${business.phone ? ` - ${business.phone}` : ''}`;
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), signature, ''].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p>${escapeHtml(signature)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

// --- Day-before reminder -------------------------------------------------------------------------------------------

export function reminderSms(b: BookingContact, slot: Slot, business: BusinessDetails): string {
  const call = business.phone ? ` To change it call ${business.phone}.` : '';
  return (
    `${business.name}: reminder, your ${serviceLabel(b.serviceType)} is tomorrow, ${slotWords(slot)}, ` +
    `at ${b.address} (job ${b.jobNumber}).${call}`
  );
}

export function reminderEmail(b: BookingContact, slot: Slot, business: BusinessDetails): EmailContent {
  return email(
    `Reminder: ${serviceLabel(b.serviceType)} tomorrow, ${slot.timeSlot} (${b.jobNumber})`,
    `Hi ${firstName(b.customerName)},`,
    [
      `A reminder that your ${serviceLabel(b.serviceType)} is booked for tomorrow, ${slotWords(slot)}. ` +
        'Your technician arrives within this window.',
      `Address: ${b.address}`,
      'Cancelling now, less than 24 hours before the booking, is refunded at 50% until 12 hours before and not at ' +
        'all after that; no-shows are charged in full.',
      contactLine(business, b.jobNumber),
    ],
    business,
  );
}

// --- Reschedule notice ---------------------------------------------------------------------------------------------

export function rescheduledSms(b: BookingContact, to: Slot, business: BusinessDetails): string {
  return `${business.name}: your booking ${b.jobNumber} has moved to ${slotWords(to)}.`;
}

export function rescheduledEmail(
  b: BookingContact,
  from: Slot,
  to: Slot,
  business: BusinessDetails,
): EmailContent {
  return email(
    `Booking moved: ${serviceLabel(b.serviceType)} on ${formatLongDate(to.scheduledDate)}, ${to.timeSlot} (${b.jobNumber})`,
    `Hi ${firstName(b.customerName)},`,
    [
      `Your ${serviceLabel(b.serviceType)} (job ${b.jobNumber}) has moved.`,
      `New time: ${slotWords(to)} (your technician arrives within this window).`,
      `Previously: ${slotWords(from)}.`,
      `Address: ${b.address}`,
      contactLine(business, b.jobNumber),
    ],
    business,
  );
}

// --- Cancellation notice -------------------------------------------------------------------------------------------

type CancellationTerms = Pick<
  BookingCancelledV1Data,
  'band' | 'refundPercent' | 'refund' | 'fee' | 'feeWaived' | 'paymentMethod'
>;

/**
 * The money consequence of a cancellation in a customer's words, from the event's terms: what comes back to the card
 * (prepaid), or the fee owed (pay on site), or that a fee was waived.
 */
export function cancellationMoneyWords(t: CancellationTerms): string {
  const refund = toCents(t.refund);
  const fee = toCents(t.fee);
  if (t.paymentMethod === 'prepaid') {
    // A waived fee goes back with the refund (booking adds it to `refund`), so the customer gets everything back.
    if (refund > 0n && fee > 0n && t.feeWaived)
      return `The cancellation fee of ${formatAud(fee)} has been waived: you will receive a full refund of ${formatAud(refund)} to the card you paid with.`;
    if (refund > 0n) {
      const share = t.refundPercent === 100 ? 'a full refund' : `a ${t.refundPercent}% refund`;
      const kept = fee > 0n ? ` The remaining ${formatAud(fee)} is kept as the cancellation fee.` : '';
      return `You will receive ${share} of ${formatAud(refund)} to the card you paid with.${kept}`;
    }
    if (fee > 0n && t.feeWaived) return `The cancellation fee of ${formatAud(fee)} has been waived.`;
    return 'No refund applies, as the booking was cancelled less than 12 hours before its start.';
  }
  if (fee === 0n) return 'There is no cancellation fee.';
  if (t.feeWaived) return `The cancellation fee of ${formatAud(fee)} has been waived: you owe nothing.`;
  return `A cancellation fee of ${formatAud(fee)} applies; we will send you an invoice for it.`;
}

export function cancelledSms(
  b: BookingContact,
  c: Pick<BookingCancelledV1Data, 'slot'> & CancellationTerms,
  business: BusinessDetails,
): string {
  return `${business.name}: your booking ${b.jobNumber} for ${slotWords(c.slot)} is cancelled. ${cancellationMoneyWords(c)}`;
}

export function cancelledEmail(
  b: BookingContact,
  c: Pick<BookingCancelledV1Data, 'slot' | 'cancelledBy'> & CancellationTerms,
  business: BusinessDetails,
): EmailContent {
  const who = c.cancelledBy === 'customer' ? 'as you asked' : 'by our team';
  return email(
    `Booking cancelled: ${serviceLabel(b.serviceType)} on ${formatLongDate(c.slot.scheduledDate)} (${b.jobNumber})`,
    `Hi ${firstName(b.customerName)},`,
    [
      `Your ${serviceLabel(b.serviceType)} booked for ${slotWords(c.slot)} (job ${b.jobNumber}) has been cancelled ${who}.`,
      cancellationMoneyWords(c),
      business.phone
        ? `To book again, visit our website or call us on ${business.phone}.`
        : 'To book again, visit our website or reply to this email.',
    ],
    business,
  );
}

// --- No-show notice ------------------------------------------------------------------------------------------------

/**
 * Staff marked the customer a no-show (booking.cancelled.v1 with kind no_show, the kernel's noShowTerms): the terms
 * charge a missed booking in full. The customer is told once, plainly, what that means for their money and how to
 * dispute it (docs/decisions.md "A no-show's customer notice"): a prepaid charge is kept, a pay-on-site booking is
 * invoiced for its price. Never worded as a cancellation: the customer did not cancel, and no cancellation fee band
 * applies.
 */
export function noShowMoneyWords(t: Pick<CancellationTerms, 'fee' | 'feeWaived' | 'paymentMethod'>): string {
  const fee = toCents(t.fee);
  if (fee === 0n || t.feeWaived) return 'There is no charge for the missed booking.';
  return t.paymentMethod === 'prepaid'
    ? `As our terms say, a missed booking is charged in full: your payment of ${formatAud(fee)} is kept.`
    : `As our terms say, a missed booking is charged in full: we will send you an invoice for ${formatAud(fee)}.`;
}

function disputeLine(business: BusinessDetails): string {
  return business.phone
    ? `If you think this is a mistake, call us on ${business.phone}.`
    : 'If you think this is a mistake, reply to this email.';
}

export function noShowSms(
  b: BookingContact,
  c: Pick<BookingCancelledV1Data, 'slot'> & CancellationTerms,
  business: BusinessDetails,
): string {
  return `${business.name}: we missed you at your booking ${b.jobNumber} for ${slotWords(c.slot)}, so it is closed as a no-show. ${noShowMoneyWords(c)} ${disputeLine(business)}`;
}

export function noShowEmail(
  b: BookingContact,
  c: Pick<BookingCancelledV1Data, 'slot'> & CancellationTerms,
  business: BusinessDetails,
): EmailContent {
  return email(
    `Missed booking: ${serviceLabel(b.serviceType)} on ${formatLongDate(c.slot.scheduledDate)} (${b.jobNumber})`,
    `Hi ${firstName(b.customerName)},`,
    [
      `Our technician came for your ${serviceLabel(b.serviceType)} booked for ${slotWords(c.slot)} (job ${b.jobNumber}) but could not find you or the vehicle, so the booking is closed as a no-show.`,
      noShowMoneyWords(c),
      disputeLine(business),
      business.phone
        ? `To book again, visit our website or call us on ${business.phone}.`
        : 'To book again, visit our website or reply to this email.',
    ],
    business,
  );
}
