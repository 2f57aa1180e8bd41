import {
  JobAssigned,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  PaymentSucceeded,
  type EventBus,
} from '@tyres/events';
import type { BookingHandlers } from './handlers';

/**
 * Everything the booking service consumes (queue `booking`), in one place: contract → handler (./handlers.ts).
 * Malformed messages, unknown versions and invalid payloads are dead-lettered by the bus before reaching a handler.
 */
export function subscribeBooking(bus: EventBus, h: BookingHandlers): void {
  // billing: a prepaid quote was paid.
  bus.subscribe(PaymentSucceeded, h.onPaymentSucceeded);
  // jobs: slots freed or moved (normally already done by its synchronous calls), and who may see the photos.
  bus.subscribe(JobDeleted, h.onJobDeleted);
  bus.subscribe(JobStatusChanged, h.onJobStatusChanged);
  bus.subscribe(JobRescheduled, h.onJobRescheduled);
  bus.subscribe(JobAssigned, h.onJobAssigned);
}
