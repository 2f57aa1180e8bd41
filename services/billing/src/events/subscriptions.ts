import {
  BookingCancelled,
  BookingCreated,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  type EventBus,
} from '@tyres/events';
import type { BillingHandlers } from './handlers';

/**
 * Everything billing consumes, in one place (queue `billing`; invalid messages are dead-lettered by the bus to
 * `billing.dlq`): BookingCreated and the jobs service's Job* events feed the job projection; BookingCancelled
 * applies the cancellation's final terms (refund, invoices).
 */
export function subscribeBilling(bus: EventBus, handlers: BillingHandlers): void {
  bus.subscribe(BookingCreated, handlers.bookingCreated);
  bus.subscribe(JobAssigned, handlers.jobAssigned);
  bus.subscribe(JobCompleted, handlers.jobCompleted);
  bus.subscribe(JobRescheduled, handlers.jobRescheduled);
  bus.subscribe(JobDeleted, handlers.jobDeleted);
  bus.subscribe(JobStatusChanged, handlers.jobStatusChanged);
  bus.subscribe(BookingCancelled, handlers.bookingCancelled);
}
