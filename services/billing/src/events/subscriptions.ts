import {
  BookingCancelled,
  BookingCreated,
  CustomerErased,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  JobUpdated,
  type EventBus,
} from '@tyres/events';
import type { BillingHandlers } from './handlers';
import type { ErasureHandlers } from './erasure-handlers';

/**
 * Everything billing consumes, in one place (queue `billing`; invalid messages are dead-lettered by the bus to
 * `billing.dlq`): BookingCreated and the jobs service's Job* events feed the job projection; BookingCancelled
 * applies the cancellation's final terms (refund, invoices).
 */
export function subscribeBilling(bus: EventBus, handlers: BillingHandlers, erasure?: ErasureHandlers): void {
  bus.subscribe(BookingCreated, handlers.bookingCreated);
  bus.subscribe(JobAssigned, handlers.jobAssigned);
  bus.subscribe(JobCompleted, handlers.jobCompleted);
  bus.subscribe(JobRescheduled, handlers.jobRescheduled);
  bus.subscribe(JobDeleted, handlers.jobDeleted);
  bus.subscribe(JobStatusChanged, handlers.jobStatusChanged);
  // Issue 19: an admin's edit of the job (the next generated invoice uses the new price and details).
  bus.subscribe(JobUpdated, handlers.jobUpdated);
  bus.subscribe(BookingCancelled, handlers.bookingCancelled);
  // booking: a customer erased on request (issue 18, privacy).
  if (erasure) bus.subscribe(CustomerErased, erasure.customerErased);
}
