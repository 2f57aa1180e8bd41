import {
  JobAssigned,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  JobUpdated,
  PaymentSucceeded,
  UserCreated,
  UserStatusChanged,
  type EventBus,
} from '@tyres/events';
import type { BookingHandlers } from './handlers';
import type { RetentionHandlers } from './retention-handlers';
import type { RosterHandlers } from './roster-handlers';

/**
 * Everything the booking service consumes (queue `booking`), in one place: contract → handler (./handlers.ts).
 * Malformed messages, unknown versions and invalid payloads are dead-lettered by the bus before reaching a handler.
 */
export function subscribeBooking(
  bus: EventBus,
  h: BookingHandlers,
  r?: RetentionHandlers,
  roster?: RosterHandlers,
): void {
  // billing: a prepaid quote was paid.
  bus.subscribe(PaymentSucceeded, h.onPaymentSucceeded);
  // jobs: slots freed or moved (normally already done by its synchronous calls), and who may see the photos.
  bus.subscribe(JobDeleted, h.onJobDeleted);
  bus.subscribe(JobStatusChanged, h.onJobStatusChanged);
  bus.subscribe(JobRescheduled, h.onJobRescheduled);
  bus.subscribe(JobAssigned, h.onJobAssigned);
  // jobs: an admin edited the job; the edited price drives the cancellation/no-show terms (issue 19).
  bus.subscribe(JobUpdated, h.onJobUpdated);
  // Issue 18 (privacy): when the job was paid, cancelled or deleted starts its photos' retention period.
  if (r) {
    bus.subscribe(JobStatusChanged, r.onJobPaid);
    bus.subscribe(JobDeleted, r.onJobDeleted);
  }
  // Issue 19 (capacity): gateway's users, the technicians the roster counts.
  if (roster) {
    bus.subscribe(UserCreated, roster.onUserCreated);
    bus.subscribe(UserStatusChanged, roster.onUserStatusChanged);
  }
}
