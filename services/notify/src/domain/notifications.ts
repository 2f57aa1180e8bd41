/**
 * The dashboard notification protocol (spec sections 3, 7 and 9): what the server sends, what clients may send,
 * and who gets what. No I/O here.
 *
 * Server -> client (JSON text frames):
 *   { type: 'connected',      data: { userId, role, heartbeatMs } }                once, after the upgrade
 *   { type: 'new_booking',    data: { id, jobNumber, serviceType, suburb, timeSlot, createdAt } }
 *   { type: 'job_assigned',   data: { jobId, jobNumber, scheduledDate, timeSlot, serviceType?, suburb?, assignedAt } }
 *   { type: 'job_unassigned', data: { jobId, jobNumber, assignedAt } }
 *   { type: 'sms_delivery',   data: { jobId, purpose, status: 'sent'|'recorded'|'failed', message } }
 *                                                                                  to the user who asked for the SMS
 *   { type: 'booking_rescheduled', data: { jobId, jobNumber, from: { scheduledDate, timeSlot }, to, rescheduledBy,
 *                                          rescheduledAt } }                     admins + the assigned technician
 *   { type: 'booking_cancelled',   data: { jobId, jobNumber, scheduledDate, timeSlot, cancelledAt, cancelledBy,
 *                                          band, refund, fee, feeWaived, kind: 'cancellation'|'no_show' } }
 *                                                                                  admins + the assigned technician
 *   { type: 'booking_updated',     data: { jobId, jobNumber, changed: ('phone'|'notes'|'vehicle')[], updatedAt } }
 *                                                                                  admins + the assigned technician
 *   { type: 'subscribed',     data: { suburbs } }                                  answer to subscribe_suburbs
 *   { type: 'pong',           data: { ts } }                                       answer to ping
 *   { type: 'error',          data: { code, message } }                            bad client message
 *
 * Client -> server:
 *   { type: 'subscribe_suburbs', suburbs: string[] }   (or data: { suburbs }); [] = every suburb
 *   { type: 'ping' }
 */
import { z } from 'zod';
import type {
  BookingCancelledV1Data,
  BookingCreatedV1Data,
  BookingRescheduledV1Data,
  BookingUpdatedV1Data,
  JobAssignedV1Data,
  ServiceType,
  Slot,
  UserRole,
} from '@tyres/events';
import type { TimeSlot } from '@tyres/kernel';

export interface NewBookingData {
  id: string;
  jobNumber: string;
  serviceType: ServiceType;
  suburb: string;
  timeSlot: TimeSlot;
  createdAt: string;
}

export interface JobAssignedNotice {
  jobId: string;
  jobNumber: string;
  scheduledDate: string;
  timeSlot: TimeSlot;
  serviceType?: ServiceType;
  suburb?: string;
  assignedAt: string;
}

/**
 * How an SMS someone asked for ended. 'sent': a real provider (Twilio) accepted it; 'recorded': no provider is
 * configured, the local transport only recorded it in the delivery log (nobody received it); 'failed': notify gave
 * up (a permanent error, or the attempts ran out).
 */
export interface SmsDeliveryData {
  jobId: string | null;
  purpose: string;
  status: 'sent' | 'recorded' | 'failed';
  /** What the dashboard shows. */
  message: string;
}

/** The customer moved their booking (manage my booking): the dashboard moves it on the schedule. */
export interface BookingRescheduledNotice {
  jobId: string;
  jobNumber: string;
  from: Slot;
  to: Slot;
  rescheduledBy: 'customer';
  rescheduledAt: string;
}

/** A booking was cancelled, with the terms that were applied (the event's, never recomputed). */
export interface BookingCancelledNotice {
  jobId: string;
  jobNumber: string;
  scheduledDate: string;
  timeSlot: TimeSlot;
  cancelledAt: string;
  cancelledBy: 'customer' | 'staff';
  band: BookingCancelledV1Data['band'];
  refund: string;
  fee: string;
  feeWaived: boolean;
  /** A cancellation under the policy, or staff marked the customer a no-show (charged in full). */
  kind: 'cancellation' | 'no_show';
}

/**
 * The customer corrected details: which ones (the dashboard refetches the job; no contact details on the socket
 * beyond what the job view shows anyway).
 */
export interface BookingUpdatedNotice {
  jobId: string;
  jobNumber: string;
  changed: ('phone' | 'notes' | 'vehicle')[];
  updatedAt: string;
}

export type ServerMessage =
  | { type: 'connected'; data: { userId: string; role: UserRole; heartbeatMs: number } }
  | { type: 'sms_delivery'; data: SmsDeliveryData }
  | { type: 'new_booking'; data: NewBookingData }
  | { type: 'job_assigned'; data: JobAssignedNotice }
  | { type: 'job_unassigned'; data: { jobId: string; jobNumber: string; assignedAt: string } }
  | { type: 'booking_rescheduled'; data: BookingRescheduledNotice }
  | { type: 'booking_cancelled'; data: BookingCancelledNotice }
  | { type: 'booking_updated'; data: BookingUpdatedNotice }
  | { type: 'subscribed'; data: { suburbs: string[] } }
  | { type: 'pong'; data: { ts: string } }
  | { type: 'error'; data: { code: ClientErrorCode; message: string } };

export type ClientErrorCode =
  'malformed_json' | 'invalid_message' | 'unknown_type' | 'binary_not_supported' | 'rate_limited';

/** Spec: 350+ suburbs served; a generous cap that still bounds per-connection memory. */
export const MAX_SUBSCRIBED_SUBURBS = 500;

const suburbName = z
  .string({ error: 'suburbs must be a list of suburb names' })
  .trim()
  .min(1, 'suburb names cannot be empty')
  .max(100, 'suburb names are at most 100 characters');
const suburbList = z
  .array(suburbName, { error: 'suburbs must be a list of suburb names' })
  .max(MAX_SUBSCRIBED_SUBURBS, `at most ${MAX_SUBSCRIBED_SUBURBS} suburbs`);

const subscribeSuburbs = z
  .object({
    type: z.literal('subscribe_suburbs'),
    suburbs: suburbList.optional(),
    data: z.object({ suburbs: suburbList }).optional(),
  })
  .refine((m) => m.suburbs !== undefined || m.data !== undefined, {
    message: 'subscribe_suburbs needs suburbs: [...]',
  })
  .transform((m) => ({
    type: 'subscribe_suburbs' as const,
    suburbs: (m.suburbs ?? m.data?.suburbs ?? []) as string[],
  }));

const ping = z.object({ type: z.literal('ping') }).transform(() => ({ type: 'ping' as const }));

export type ClientMessage = { type: 'subscribe_suburbs'; suburbs: string[] } | { type: 'ping' };

export type ParseResult =
  { ok: true; message: ClientMessage } | { ok: false; code: ClientErrorCode; message: string };

/** Parses one client text frame. Never throws. */
export function parseClientMessage(text: string): ParseResult {
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    return { ok: false, code: 'malformed_json', message: 'Message is not valid JSON' };
  }
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded))
    return { ok: false, code: 'invalid_message', message: 'Message must be a JSON object with a type' };
  const type = (decoded as { type?: unknown }).type;
  if (type === 'ping') {
    const r = ping.safeParse(decoded);
    return r.success
      ? { ok: true, message: r.data }
      : { ok: false, code: 'invalid_message', message: 'Invalid ping' };
  }
  if (type === 'subscribe_suburbs') {
    const r = subscribeSuburbs.safeParse(decoded);
    if (r.success) return { ok: true, message: r.data };
    return {
      ok: false,
      code: 'invalid_message',
      message: r.error.issues[0]?.message ?? 'Invalid subscribe_suburbs',
    };
  }
  if (typeof type !== 'string')
    return { ok: false, code: 'invalid_message', message: 'Message must have a string type' };
  return {
    ok: false,
    code: 'unknown_type',
    message: `Unknown message type "${type.slice(0, 50)}" (expected subscribe_suburbs or ping)`,
  };
}

/** Suburb names compare case-insensitively, ignoring extra spaces and hyphens ("Mount-Lawley" = "mount lawley"). */
export function normalizeSuburb(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, ' ');
}

/** The filter a subscribe_suburbs sets: null = every suburb. */
export function suburbFilter(suburbs: readonly string[]): Set<string> | null {
  if (suburbs.length === 0) return null;
  return new Set(suburbs.map(normalizeSuburb));
}

export function matchesSuburb(filter: Set<string> | null, suburb: string | undefined): boolean {
  if (filter === null) return true;
  return suburb !== undefined && filter.has(normalizeSuburb(suburb));
}

/** The popup payload of spec section 3 for a new booking. */
export function newBookingFromBooking(b: BookingCreatedV1Data): NewBookingData {
  return {
    id: b.jobId,
    jobNumber: b.jobNumber,
    serviceType: b.serviceType,
    suburb: b.suburb,
    timeSlot: b.timeSlot,
    createdAt: b.createdAt,
  };
}

/**
 * A booking newly assigned to a technician is their "new booking". JobAssigned does not carry the booking's
 * creation time, so `createdAt` is the assignment time (when it became new to this technician). Older events
 * without serviceType/suburb give no popup, only the job_assigned notice.
 */
export function newBookingFromAssignment(a: JobAssignedV1Data): NewBookingData | undefined {
  if (!a.technicianId || !a.serviceType || !a.suburb) return undefined;
  return {
    id: a.jobId,
    jobNumber: a.jobNumber,
    serviceType: a.serviceType,
    suburb: a.suburb,
    timeSlot: a.timeSlot,
    createdAt: a.assignedAt,
  };
}

export function assignmentNotice(a: JobAssignedV1Data): JobAssignedNotice {
  return {
    jobId: a.jobId,
    jobNumber: a.jobNumber,
    scheduledDate: a.scheduledDate,
    timeSlot: a.timeSlot,
    ...(a.serviceType ? { serviceType: a.serviceType } : {}),
    ...(a.suburb ? { suburb: a.suburb } : {}),
    assignedAt: a.assignedAt,
  };
}

/**
 * Who receives what:
 * - BookingCreated: every admin (suburb filter applies); technicians nothing (a new booking is unassigned).
 * - JobAssigned to T: T gets new_booking (suburb filter applies) and job_assigned; the previous technician, if
 *   another one, gets job_unassigned. Admins assigned the job themselves and get nothing.
 */
export type Delivery =
  | { to: 'admins'; message: ServerMessage; suburb?: string }
  | { to: 'user'; userId: string; message: ServerMessage; suburb?: string };

export function deliveriesForBooking(b: BookingCreatedV1Data): Delivery[] {
  return [
    { to: 'admins', message: { type: 'new_booking', data: newBookingFromBooking(b) }, suburb: b.suburb },
  ];
}

/** What notify knows of the booking beyond the event: its suburb and technician (db/bookings.ts); null if unknown. */
export interface BookingAudience {
  suburb: string;
  assignedTechnicianId: string | null;
}

type BookingChange = Extract<
  ServerMessage,
  { type: 'booking_rescheduled' | 'booking_cancelled' | 'booking_updated' }
>;

/** A booking change goes to every admin (suburb filter applies when known) and to the job's technician, if any. */
export function deliveriesForBookingChange(
  message: BookingChange,
  audience: BookingAudience | null,
): Delivery[] {
  const suburb = audience ? { suburb: audience.suburb } : {};
  const out: Delivery[] = [{ to: 'admins', message, ...suburb }];
  if (audience?.assignedTechnicianId)
    out.push({ to: 'user', userId: audience.assignedTechnicianId, message, ...suburb });
  return out;
}

export const bookingRescheduledMessage = (d: BookingRescheduledV1Data): BookingChange => ({
  type: 'booking_rescheduled',
  data: {
    jobId: d.jobId,
    jobNumber: d.jobNumber,
    from: d.from,
    to: d.to,
    rescheduledBy: d.rescheduledBy,
    rescheduledAt: d.rescheduledAt,
  },
});

export const bookingCancelledMessage = (d: BookingCancelledV1Data): BookingChange => ({
  type: 'booking_cancelled',
  data: {
    jobId: d.jobId,
    jobNumber: d.jobNumber,
    scheduledDate: d.slot.scheduledDate,
    timeSlot: d.slot.timeSlot,
    cancelledAt: d.cancelledAt,
    cancelledBy: d.cancelledBy,
    band: d.band,
    refund: d.refund,
    fee: d.fee,
    feeWaived: d.feeWaived,
    kind: d.kind ?? 'cancellation',
  },
});

export const bookingUpdatedMessage = (d: BookingUpdatedV1Data): BookingChange => ({
  type: 'booking_updated',
  data: {
    jobId: d.jobId,
    jobNumber: d.jobNumber,
    changed: (['phone', 'notes', 'vehicle'] as const).filter((f) => d[f] !== undefined),
    updatedAt: d.updatedAt,
  },
});

export function deliveriesForAssignment(a: JobAssignedV1Data): Delivery[] {
  const out: Delivery[] = [];
  if (a.technicianId) {
    const booking = newBookingFromAssignment(a);
    if (booking)
      out.push({
        to: 'user',
        userId: a.technicianId,
        message: { type: 'new_booking', data: booking },
        suburb: booking.suburb,
      });
    out.push({
      to: 'user',
      userId: a.technicianId,
      message: { type: 'job_assigned', data: assignmentNotice(a) },
    });
  }
  if (a.previousTechnicianId && a.previousTechnicianId !== a.technicianId) {
    out.push({
      to: 'user',
      userId: a.previousTechnicianId,
      message: {
        type: 'job_unassigned',
        data: { jobId: a.jobId, jobNumber: a.jobNumber, assignedAt: a.assignedAt },
      },
    });
  }
  return out;
}

/** How a delivery ended, as the worker saw it: handed to a transport (which one), or given up. */
export type DeliveryOutcome = { outcome: 'sent'; transport: string } | { outcome: 'failed'; error: string };

export const SMS_DELIVERY_MESSAGES = {
  sent: 'SMS sent',
  recorded: 'SMS recorded (no provider configured)',
  failed: 'SMS not sent',
} as const;

/** The longest failure reason passed on to a dashboard (the delivery log keeps the whole error). */
const MAX_REASON = 300;

/**
 * The sms_delivery message for the staff member who asked for an SMS, once its delivery has ended; nothing for an
 * email, or for an SMS nobody asked for in person (no requestedBy). Only that user is told: a technician sees only
 * their own jobs, so other staff never get another user's SMS outcome.
 */
export function smsDeliveryNotice(
  delivery: { channel: string; requestedBy: string | null; jobId: string | null; purpose: string },
  result: DeliveryOutcome,
): Delivery | undefined {
  if (delivery.channel !== 'sms' || !delivery.requestedBy) return undefined;
  let data: SmsDeliveryData;
  const base = { jobId: delivery.jobId, purpose: delivery.purpose };
  if (result.outcome === 'failed') {
    const reason = result.error.trim().slice(0, MAX_REASON);
    data = {
      ...base,
      status: 'failed',
      message: reason ? `${SMS_DELIVERY_MESSAGES.failed}: ${reason}` : SMS_DELIVERY_MESSAGES.failed,
    };
  } else {
    // 'sent' only when a real provider accepted it: the local transport delivers to nobody.
    const status = result.transport === 'local' ? 'recorded' : 'sent';
    data = { ...base, status, message: SMS_DELIVERY_MESSAGES[status] };
  }
  return { to: 'user', userId: delivery.requestedBy, message: { type: 'sms_delivery', data } };
}
