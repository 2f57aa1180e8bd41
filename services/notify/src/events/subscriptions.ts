import {
  BookingCancelled,
  BookingCreated,
  BookingRescheduled,
  BookingUpdated,
  CustomerErased,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV2,
  EmailRequested,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  JobUpdated,
  SmsRequested,
  UserStatusChanged,
  type EventBus,
} from '@tyres/events';
import type { NotifyHandlers } from './handlers';
import type { ErasureHandlers } from './erasure-handlers';
import type { LiveFeed } from './live-feed';

/**
 * Everything notify consumes, in one place: contract → handler (./handlers.ts), on two routes.
 *
 * - The durable `notify` queue (competing consumers: once per event across replicas). Malformed messages, unknown
 *   versions and invalid payloads are dead-lettered by the bus before reaching a handler.
 * - The live feed (./live-feed.ts: an exclusive queue per replica, every event, at most once), for the dashboards
 *   connected to this replica.
 */
export function subscribeNotify(
  bus: EventBus,
  liveFeed: LiveFeed,
  h: NotifyHandlers & { erasure?: ErasureHandlers },
): void {
  // booking: a customer erased on request (issue 18, privacy): records, messages and reminders.
  if (h.erasure) bus.subscribe(CustomerErased, h.erasure.customerErased);
  // booking: the confirmation email, notify's booking record and the day-before reminder; the reschedule and
  // cancellation notices; a corrected phone number.
  bus.subscribe(BookingCreated, h.durable.bookingCreated);
  bus.subscribe(BookingRescheduled, h.durable.bookingRescheduled);
  bus.subscribe(BookingCancelled, h.durable.bookingCancelled);
  bus.subscribe(BookingUpdated, h.durable.bookingUpdated);
  // jobs: the reminder follows staff reschedules and disappears with a cancelled or deleted job; the technician is
  // remembered for the live booking_* messages; an admin's edit of the address is what later messages print.
  bus.subscribe(JobAssigned, h.durable.jobAssigned);
  bus.subscribe(JobRescheduled, h.durable.jobRescheduled);
  bus.subscribe(JobStatusChanged, h.durable.jobStatusChanged);
  bus.subscribe(JobDeleted, h.durable.jobDeleted);
  bus.subscribe(JobUpdated, h.durable.jobUpdated);
  // jobs (and anyone else): SMS and email requests.
  bus.subscribe(SmsRequested, h.durable.smsRequested);
  bus.subscribe(EmailRequested, h.durable.emailRequested);
  // the review request: a completed job whose invoice is paid (prepaid: issued paid; on site: updated to paid).
  bus.subscribe(JobCompleted, h.durable.jobCompleted);
  bus.subscribe(CustomerInvoiceIssuedV2, h.durable.invoicePaid);
  bus.subscribe(CustomerInvoiceUpdatedV2, h.durable.invoicePaid);

  // Live: new_booking and booking changes to admins (and the job's technician); assignment notices to technicians;
  // a deactivated user's sockets closed.
  liveFeed.on(BookingCreated, h.live.bookingCreated);
  liveFeed.on(BookingRescheduled, h.live.bookingRescheduled);
  liveFeed.on(BookingCancelled, h.live.bookingCancelled);
  liveFeed.on(BookingUpdated, h.live.bookingUpdated);
  liveFeed.on(JobAssigned, h.live.jobAssigned);
  liveFeed.on(UserStatusChanged, h.live.userStatusChanged);
}
