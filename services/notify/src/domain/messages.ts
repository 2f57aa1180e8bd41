/**
 * Customer-facing message text: the booking confirmation email (BookingCreated) and the technician-en-route SMS
 * wording. Pure functions, unit-tested; the workers only send what these return.
 */
import type { BookingCreatedV1Data } from '@tyres/events';
import {
  DEFAULT_CARD_SURCHARGE_BP,
  formatSurchargeRate,
  parseSurchargeRate,
  SERVICE_LABELS,
  formatAud,
  gstInInclusive,
  slotStartsAt,
  toCents,
  withCardSurcharge,
} from '@tyres/kernel';
import { formatEta, formatLongDate, formatShortDateTime } from './message-times';

export interface BusinessDetails {
  name: string;
  /** May be empty: the email then only offers replying to it. */
  phone: string;
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** Cancellation terms of spec section 1, with the deadlines worked out for this booking (Perth time). */
export function cancellationDeadlines(scheduledDate: string, timeSlot: BookingCreatedV1Data['timeSlot']) {
  const start = slotStartsAt(scheduledDate, timeSlot);
  return {
    slotStart: start,
    fullRefundBefore: new Date(start.getTime() - 24 * 3_600_000),
    halfRefundBefore: new Date(start.getTime() - 12 * 3_600_000),
  };
}

/**
 * The booking's price as the customer was quoted it: GST-inclusive, with its GST (total ÷ 11, half-up; issue 12).
 * A booking paid online was charged the price plus the card surcharge at its quote's rate (BookingCreated
 * cardSurchargeRate; 1.70% on older events): the email states that total and its GST, the figures of the paid
 * invoice billing issues for it (kernel withCardSurcharge, the rule billing charges by).
 */
function amountLine(b: BookingCreatedV1Data): string {
  if (b.serviceType === 'battery-service' && b.customerValue === '0.00') return 'Quote on site';
  const price = toCents(b.customerValue);
  const incGst = (cents: bigint) => `(inc. GST ${formatAud(gstInInclusive(cents))})`;
  if (b.paymentStatus === 'paid' && b.paymentMethod === 'prepaid') {
    const rate = parseSurchargeRate(b.cardSurchargeRate ?? '') ?? DEFAULT_CARD_SURCHARGE_BP;
    const card = withCardSurcharge(price, rate);
    return (
      `${formatAud(price)} + card surcharge ${formatSurchargeRate(rate)} ${formatAud(card.surcharge)} = ` +
      `${formatAud(card.total)}, paid online ${incGst(card.total)}`
    );
  }
  const amount = `${formatAud(price)} ${incGst(price)}`;
  if (b.paymentStatus === 'paid') return `${amount}, paid`;
  if (b.paymentMethod === 'prepaid') return `${amount}, prepaid online`;
  return `${amount}, payable on site (Cash on Delivery; card, EFTPOS and PayID also accepted)`;
}

function serviceLine(b: BookingCreatedV1Data): string {
  const label = SERVICE_LABELS[b.serviceType];
  if (b.serviceType !== 'new-tyres') return label;
  const details = [b.tyreQuantity ? `${b.tyreQuantity} x` : '', b.tyreSize ?? '', b.tyreBrand ?? '']
    .filter(Boolean)
    .join(' ');
  return details ? `${label} (${details})` : label;
}

function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] || name.trim();
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/**
 * The booking confirmation email: service, date, slot, address, amount and how to cancel under the terms. With the
 * booking's manage link (issue 18) it offers "Manage your booking" (a button and the plain URL) as the way to
 * reschedule or cancel; without one (a booking that never got a link) the phone and a reply.
 */
export function bookingConfirmationEmail(
  b: BookingCreatedV1Data,
  business: BusinessDetails,
  manageUrl: string | null = null,
): EmailContent {
  const date = formatLongDate(b.scheduledDate);
  const { fullRefundBefore, halfRefundBefore } = cancellationDeadlines(b.scheduledDate, b.timeSlot);
  const address = `${b.address}, ${b.suburb} ${b.postcode}`;
  const vehicle = `${b.vehicle.year} ${b.vehicle.make} ${b.vehicle.model} (${b.vehicle.registration})`;
  const callUs = business.phone
    ? `Or call us on ${business.phone}, quoting job number ${b.jobNumber}.`
    : `Or reply to this email, quoting job number ${b.jobNumber}.`;
  const howToCancel = business.phone
    ? `To cancel or reschedule, call us on ${business.phone} or reply to this email, quoting job number ${b.jobNumber}.`
    : `To cancel or reschedule, reply to this email, quoting job number ${b.jobNumber}.`;

  const rows: [string, string][] = [
    ['Job number', b.jobNumber],
    ['Service', serviceLine(b)],
    ['Date', date],
    ['Time slot', `${b.timeSlot} (your technician arrives within this window)`],
    ['Address', address],
    ['Vehicle', vehicle],
    ['Amount', amountLine(b)],
  ];
  const terms = [
    `Cancel 24 hours or more before your booking (before ${formatShortDateTime(fullRefundBefore)}): full refund.`,
    `Cancel 12 to 24 hours before (before ${formatShortDateTime(halfRefundBefore)}): 50% refund.`,
    'Cancel less than 12 hours before: no refund. No-shows are charged in full.',
  ];
  if (b.paymentMethod === 'prepaid')
    terms.push('Prepaid bookings are non-refundable once the work is completed.');

  const subject = `Booking confirmed: ${SERVICE_LABELS[b.serviceType]} on ${date}, ${b.timeSlot} (${b.jobNumber})`;
  const text = [
    `Hi ${firstName(b.customer.name)},`,
    '',
    `Thanks for booking with ${business.name}. Your booking is confirmed.`,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    'Cancellation policy',
    ...terms.map((t) => `- ${t}`),
    '',
    ...(manageUrl
      ? [
          'Manage your booking',
          'See your booking, move it to another time, cancel it, correct your phone number, notes or vehicle',
          'details, or add photos of your tyres, with this private link (keep it to yourself):',
          manageUrl,
          callUs,
        ]
      : [howToCancel]),
    '',
    `${business.name}${business.phone ? ` - ${business.phone}` : ''}`,
    'Mobile tyre fitting, puncture repair and battery service across Perth and Peel. Prices include GST.',
    '',
  ].join('\n');

  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">',
    `<p>Hi ${escapeHtml(firstName(b.customer.name))},</p>`,
    `<p>Thanks for booking with ${escapeHtml(business.name)}. <strong>Your booking is confirmed.</strong></p>`,
    '<table cellpadding="4" style="border-collapse:collapse">',
    ...rows.map(
      ([k, v]) => `<tr><th align="left" valign="top">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
    ),
    '</table>',
    '<h3 style="margin-bottom:4px">Cancellation policy</h3>',
    '<ul>',
    ...terms.map((t) => `<li>${escapeHtml(t)}</li>`),
    '</ul>',
    ...(manageUrl
      ? [
          '<h3 style="margin-bottom:4px">Manage your booking</h3>',
          '<p>See your booking, move it to another time, cancel it, correct your phone number, notes or vehicle ' +
            'details, or add photos of your tyres:</p>',
          `<p><a href="${escapeHtml(manageUrl)}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;` +
            'color:#fff;text-decoration:none;border-radius:6px;font-weight:bold">Manage your booking</a></p>',
          `<p style="font-size:13px">Or open this private link (keep it to yourself): ` +
            `<a href="${escapeHtml(manageUrl)}">${escapeHtml(manageUrl)}</a></p>`,
          `<p>${escapeHtml(callUs)}</p>`,
        ]
      : [`<p>${escapeHtml(howToCancel)}</p>`]),
    `<p>${escapeHtml(business.name)}${business.phone ? ` - ${escapeHtml(business.phone)}` : ''}<br>`,
    'Mobile tyre fitting, puncture repair and battery service across Perth and Peel. Prices include GST.</p>',
    '</body></html>',
  ].join('\n');

  return { subject, text, html };
}

/** The confirmation SMS (to a mobile), with the manage link when the booking has one. */
export function bookingConfirmationSms(
  b: Pick<BookingCreatedV1Data, 'jobNumber' | 'scheduledDate' | 'timeSlot'>,
  business: Pick<BusinessDetails, 'name' | 'phone'>,
  manageUrl: string | null,
): string {
  const when = `${formatLongDate(b.scheduledDate)}, ${b.timeSlot}`;
  const head = `${business.name}: booking ${b.jobNumber} confirmed for ${when}.`;
  if (manageUrl) return `${head} View, reschedule or cancel: ${manageUrl}`;
  return business.phone ? `${head} To change it call ${business.phone}.` : head;
}

/**
 * The manage link in booking's manage-link message (purpose `booking-manage-link`; the only `/manage/<token>` URL
 * in its text), or null when there is none.
 */
export function manageUrlIn(text: string): string | null {
  return /https?:\/\/[^\s<>"']+\/manage\/[A-Za-z0-9_-]{20,}/.exec(text)?.[0] ?? null;
}

/** The purpose booking gives the messages carrying a booking's manage link (services/booking events/builders.ts). */
export const MANAGE_LINK_PURPOSE = 'booking-manage-link';

/**
 * The SMS sent when work starts (spec section 4: "Start Work (En Route)" offers an SMS whose ETA is 30 minutes
 * from now). The jobs service composes SmsRequested.body; this is the wording notify's tests and the docs use.
 */
export function technicianEnRouteSms(
  now: Date,
  business: Pick<BusinessDetails, 'name'>,
  minutes = 30,
): string {
  return `${business.name}: your technician is en route, ETA ${formatEta(now, minutes)}.`;
}
