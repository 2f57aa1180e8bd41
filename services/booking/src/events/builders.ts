/**
 * The events booking emits (all through the outbox, in the transaction of the change they describe).
 */
import { randomUUID } from 'node:crypto';
import {
  BookingCancelled,
  BookingCreated,
  BookingExpired,
  BookingRescheduled,
  BookingUpdated,
  BookingPhotoAdded,
  BookingQuoted,
  causedBy,
  createEvent,
  EmailRequested,
  SlotBlocked,
  SlotUnblocked,
  SmsRequested,
  toMoney,
  uuidv7,
  type EventEnvelope,
  type BookingCancelledV1Data,
  type BookingUpdatedV1Data,
  type EventMeta,
  type PaymentMethod,
  type PaymentStatus,
  type ServiceType,
  type TimeSlot,
} from '@tyres/events';
import { dateFromDb, formatAud, serviceLabel, toCents, weekdayName } from '@tyres/kernel';
import { currentCorrelationId } from '@tyres/service-kit';
import type { PhotoMimeType } from '../domain/constants';

export const SOURCE = 'booking';

/**
 * Metadata for an event caused by an HTTP request (its correlation id) or by another event. Each call gets a new
 * time-ordered id (see ids.ts), so call it once per event, in the order the events must be published.
 */
export function eventMeta(parent?: Pick<EventEnvelope, 'id' | 'correlationId'>): EventMeta {
  if (parent) return { ...causedBy(parent, SOURCE), id: uuidv7() };
  return { source: SOURCE, correlationId: currentCorrelationId() ?? randomUUID(), id: uuidv7() };
}

/** The columns of a booking row the events need. */
export interface BookingRow {
  id: string;
  jobId: string;
  jobNumber: string;
  channel: 'online' | 'staff';
  customerId: string;
  vehicleId: string;
  customerName: string;
  customerEmail: string;
  customerPhone: string;
  vehicleMake: string;
  vehicleModel: string;
  vehicleYear: number;
  vehicleColor: string | null;
  vehicleRegistration: string;
  serviceType: string;
  scheduledDate: Date;
  timeSlot: string;
  address: string;
  suburb: string;
  postcode: string;
  tyreSize: string | null;
  tyreQuantity: number | null;
  tyreBrand: string | null;
  notes: string | null;
  paymentMethod: string;
  paymentStatus: string;
  total: { toFixed(d: number): string };
  callbackRequired: boolean;
  stripePaymentIntentId: string | null;
  expiresAt: Date | null;
  confirmedAt: Date | null;
  createdAt: Date;
  /** A prepaid quote's card surcharge rate (percent, "1.70"); null/absent on onsite bookings. */
  cardSurchargeRate?: { toFixed(d: number): string } | null;
}

export const customerOf = (b: BookingRow) => ({
  name: b.customerName,
  email: b.customerEmail,
  phone: b.customerPhone,
});
export const vehicleOf = (b: BookingRow) => ({
  make: b.vehicleMake,
  model: b.vehicleModel,
  year: b.vehicleYear,
  color: b.vehicleColor,
  registration: b.vehicleRegistration,
});

/** The quote a booking was priced with, as stored on its row (items = the quote's lines). */
export interface PricedQuote {
  items: unknown;
  subtotal: { toFixed(d: number): string } | string;
  discount: { toFixed(d: number): string } | string;
  total: { toFixed(d: number): string } | string;
  callbackRequired: boolean;
}

/** A quote line's code from its kernel description (priceQuote's lines carry none). */
export function quoteLineCode(description: string): string {
  const d = description.toLowerCase();
  if (d.includes('callout')) return 'callout';
  if (d.startsWith('fitting')) return 'fitting';
  if (d.startsWith('balancing')) return 'balancing';
  if (d.startsWith('puncture')) return 'puncture-repair';
  if (d.startsWith('battery')) return 'battery';
  if (d.includes('tyres')) return 'tyre';
  return 'other';
}

/** BookingCreated's `quote` (issue 19): the lines as quoted; none for a callback quote (no price yet). */
export function bookingQuoteOf(q: PricedQuote | undefined) {
  if (!q || q.callbackRequired || !Array.isArray(q.items) || q.items.length === 0) return undefined;
  const lines = (q.items as Array<{ description: string; price: string }>).map((i) => ({
    code: quoteLineCode(i.description),
    description: i.description,
    amount: toMoney(i.price),
  }));
  return { lines, subtotal: toMoney(q.subtotal), discount: toMoney(q.discount), total: toMoney(q.total) };
}

export function bookingCreatedEvent(b: BookingRow, meta: EventMeta, quote?: PricedQuote) {
  const priced = bookingQuoteOf(quote);
  return createEvent(
    BookingCreated,
    {
      jobId: b.jobId,
      jobNumber: b.jobNumber,
      customerId: b.customerId,
      vehicleId: b.vehicleId,
      serviceType: b.serviceType as ServiceType,
      scheduledDate: dateFromDb(b.scheduledDate),
      timeSlot: b.timeSlot as TimeSlot,
      address: b.address,
      suburb: b.suburb,
      postcode: b.postcode,
      tyreSize: b.tyreSize,
      tyreQuantity: b.tyreQuantity,
      tyreBrand: b.tyreBrand,
      notes: b.notes,
      customerValue: toMoney(b.total),
      paymentMethod: b.paymentMethod as PaymentMethod,
      paymentStatus: b.paymentStatus as PaymentStatus,
      stripePaymentIntentId: b.stripePaymentIntentId,
      channel: b.channel,
      customer: customerOf(b),
      vehicle: vehicleOf(b),
      createdAt: (b.confirmedAt ?? b.createdAt).toISOString(),
      ...(priced ? { quote: priced } : {}),
      ...(b.paymentMethod === 'prepaid' && b.cardSurchargeRate
        ? { cardSurchargeRate: b.cardSurchargeRate.toFixed(2) }
        : {}),
    },
    meta,
  );
}

export function bookingQuotedEvent(b: BookingRow, bookingToken: string, meta: EventMeta) {
  return createEvent(
    BookingQuoted,
    {
      quoteId: b.id,
      jobId: b.jobId,
      jobNumber: b.jobNumber,
      bookingToken,
      serviceType: b.serviceType as ServiceType,
      scheduledDate: dateFromDb(b.scheduledDate),
      timeSlot: b.timeSlot as TimeSlot,
      suburb: b.suburb,
      postcode: b.postcode,
      amount: toMoney(b.total),
      currency: 'AUD',
      paymentMethod: 'prepaid',
      callbackRequired: b.callbackRequired,
      customer: customerOf(b),
      expiresAt: (b.expiresAt ?? b.createdAt).toISOString(),
      createdAt: b.createdAt.toISOString(),
    },
    meta,
  );
}

export function bookingExpiredEvent(
  data: { quoteId: string; scheduledDate: string; timeSlot: string; expiredAt: Date },
  meta: EventMeta,
) {
  return createEvent(
    BookingExpired,
    {
      quoteId: data.quoteId,
      scheduledDate: data.scheduledDate,
      timeSlot: data.timeSlot as TimeSlot,
      reason: 'payment-timeout',
      expiredAt: data.expiredAt.toISOString(),
    },
    meta,
  );
}

export interface PhotoRow {
  id: string;
  jobId: string;
  type: string;
  filename: string;
  originalName: string;
  mimeType: string;
  size: number;
  uploadedAt: Date;
}

export function bookingPhotoAddedEvent(p: PhotoRow, meta: EventMeta) {
  return createEvent(
    BookingPhotoAdded,
    {
      jobId: p.jobId,
      photoId: p.id,
      type: p.type,
      filename: p.filename,
      originalName: p.originalName,
      mimeType: p.mimeType as PhotoMimeType,
      size: p.size,
      uploadedAt: p.uploadedAt.toISOString(),
    },
    meta,
  );
}

export function slotBlockedEvent(
  data: { date: string; timeSlot: TimeSlot; reason: string; by: string | null; at: Date },
  meta: EventMeta,
) {
  return createEvent(
    SlotBlocked,
    {
      date: data.date,
      timeSlot: data.timeSlot,
      reason: data.reason,
      blockedBy: data.by,
      blockedAt: data.at.toISOString(),
    },
    meta,
  );
}

export function slotUnblockedEvent(
  data: { date: string; timeSlot: TimeSlot; by: string | null; at: Date },
  meta: EventMeta,
) {
  return createEvent(
    SlotUnblocked,
    { date: data.date, timeSlot: data.timeSlot, unblockedBy: data.by, unblockedAt: data.at.toISOString() },
    meta,
  );
}

/**
 * A prepaid customer whose payment arrived after their hold expired and someone else took the slot: the booking is
 * marked `conflict` (paid, no slot). The customer is told at once that staff will call to rebook or refund, and the
 * office (STAFF_ALERT_EMAIL) gets the details it needs to act. Sent by notify (EmailRequested).
 */
export function paymentConflictEmails(
  b: Pick<BookingRow, 'jobId' | 'jobNumber' | 'customerName' | 'customerEmail' | 'customerPhone'>,
  data: {
    date: string;
    slot: string;
    paidAt: Date;
    amountPaid: string;
    staffAlertEmail?: string | undefined;
  },
  meta: () => EventMeta,
) {
  // What the card was charged (PaymentSucceeded.amount: the booking price plus the card surcharge), the
  // figure on the customer's statement and the one to refund.
  const amount = formatAud(toCents(data.amountPaid));
  const when = `${data.date}, ${data.slot}`;
  const requestedAt = data.paidAt.toISOString();
  const events = [
    createEvent(
      EmailRequested,
      {
        requestId: randomUUID(),
        to: b.customerEmail,
        subject: `Your booking ${b.jobNumber}: we need to find you a new time`,
        text: [
          `Hi ${b.customerName},`,
          '',
          `Thank you for your payment of ${amount} for booking ${b.jobNumber}.`,
          `Unfortunately the time you chose (${when}) was booked by another customer while your payment was being`,
          'processed, so it is no longer held for you.',
          '',
          'Your payment is safe. We will call you within one business day to arrange a new time, or refund you in',
          'full if you prefer. You do not need to do anything in the meantime.',
          '',
          'Sorry for the inconvenience.',
        ].join('\n'),
        purpose: 'booking-payment-conflict',
        jobId: b.jobId,
        requestedAt,
      },
      meta(),
    ),
  ];
  if (data.staffAlertEmail)
    events.push(
      createEvent(
        EmailRequested,
        {
          requestId: randomUUID(),
          to: data.staffAlertEmail,
          subject: `Action needed: ${b.jobNumber} paid after its slot was taken`,
          text: [
            `${b.customerName} (${b.customerPhone}, ${b.customerEmail}) paid ${amount} for ${b.jobNumber},`,
            `but their hold on ${when} had expired and another booking took the slot before the payment arrived.`,
            '',
            'The booking is marked "conflict": it has no slot and is not on the jobs list. Call the customer to',
            "agree a new time (create it from the dashboard's New Booking form) or refund the payment in Stripe.",
          ].join('\n'),
          purpose: 'booking-payment-conflict-staff',
          jobId: b.jobId,
          requestedAt,
        },
        meta(),
      ),
    );
  return events;
}

// --------------------------------------------------------------------------------------- manage my booking (issue 18)

/**
 * The "manage my booking" link, to the customer only: an email and, to a mobile number, an SMS. The token is in
 * these two messages and nowhere else (not in BookingCreated, which every service receives). Sent with the booking's
 * confirmation (the same transaction as BookingCreated); notify delivers them like any other request.
 */
export function manageLinkMessages(
  b: {
    jobId: string;
    jobNumber: string;
    customerName: string;
    customerEmail: string;
    serviceType: string;
    scheduledDate: string;
    timeSlot: string;
  },
  link: { url: string; expiresAt: Date; smsTo: string | undefined; at: Date },
  meta: () => EventMeta,
) {
  const when = `${weekdayName(b.scheduledDate)} ${b.scheduledDate}, ${b.timeSlot}`;
  const requestedAt = link.at.toISOString();
  const events: EventEnvelope[] = [
    createEvent(
      EmailRequested,
      {
        requestId: randomUUID(),
        to: b.customerEmail,
        subject: `Manage your booking ${b.jobNumber}`,
        text: [
          `Hi ${b.customerName},`,
          '',
          `Your booking ${b.jobNumber} (${serviceLabel(b.serviceType)}) is on ${when}.`,
          '',
          'To see your booking, move it to another time, cancel it, correct your phone number, notes or vehicle',
          'details, or add photos of your tyres, use this private link:',
          '',
          link.url,
          '',
          'Cancellation policy: 24 hours or more before your booking, full refund; 12 to 24 hours before, 50%;',
          'less than 12 hours before, no refund. The page shows what applies before you confirm.',
          '',
          'Keep this link to yourself: anyone who has it can change your booking.',
        ].join('\n'),
        purpose: 'booking-manage-link',
        jobId: b.jobId,
        requestedAt,
      },
      meta(),
    ),
  ];
  if (link.smsTo)
    events.push(
      createEvent(
        SmsRequested,
        {
          requestId: randomUUID(),
          to: link.smsTo,
          body: `Booking ${b.jobNumber} confirmed for ${when}. View, reschedule or cancel: ${link.url}`,
          purpose: 'booking-manage-link',
          jobId: b.jobId,
          requestedAt,
        },
        meta(),
      ),
    );
  return events;
}

export function bookingRescheduledEvent(
  data: {
    jobId: string;
    jobNumber: string;
    from: { scheduledDate: string; timeSlot: string };
    to: { scheduledDate: string; timeSlot: string };
    at: Date;
  },
  meta: EventMeta,
) {
  return createEvent(
    BookingRescheduled,
    {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      from: { scheduledDate: data.from.scheduledDate, timeSlot: data.from.timeSlot as TimeSlot },
      to: { scheduledDate: data.to.scheduledDate, timeSlot: data.to.timeSlot as TimeSlot },
      rescheduledBy: 'customer',
      rescheduledAt: data.at.toISOString(),
    },
    meta,
  );
}

export function bookingCancelledEvent(data: BookingCancelledV1Data, meta: EventMeta) {
  return createEvent(BookingCancelled, data, meta);
}

export function bookingUpdatedEvent(data: BookingUpdatedV1Data, meta: EventMeta) {
  return createEvent(BookingUpdated, data, meta);
}
