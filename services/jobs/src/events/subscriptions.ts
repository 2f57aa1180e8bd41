import {
  BookingCancelledV1,
  BookingCreated,
  BookingPhotoAdded,
  BookingPhotosDeleted,
  BookingRescheduledV1,
  BookingUpdatedV1,
  CustomerErased,
  CustomerInvoiceDeleted,
  CustomerInvoiceIssuedV1,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV1,
  CustomerInvoiceUpdatedV2,
  PaymentSucceeded,
  PurchaseInvoiceDeleted,
  PurchaseInvoiceRecorded,
  PurchaseInvoiceUpdated,
  UserCreated,
  UserStatusChanged,
  type EventBus,
} from '@tyres/events';
import type { JobsHandlers } from './handlers';
import type { ErasureHandlers } from './erasure-handlers';

/**
 * Everything the jobs service consumes (queue `jobs`), in one place: contract → handler (./handlers.ts). Malformed
 * messages, unknown versions and invalid payloads are dead-lettered by the bus before reaching a handler.
 */
export function subscribeJobs(bus: EventBus, h: JobsHandlers, erasure?: ErasureHandlers): void {
  // booking: the job itself (in batches: one transaction per batch, see JOBS_BATCH), its photos; billing: card
  // payments.
  bus.subscribeBatch([BookingCreated], h.bookingsCreated, JOBS_BATCH);
  bus.subscribe(BookingPhotoAdded, h.bookingPhotoAdded);
  bus.subscribe(PaymentSucceeded, h.paymentSucceeded);
  // booking's changes after booking (issue 18: manage my booking, staff cancels): the job follows.
  bus.subscribe(BookingRescheduledV1, h.bookingRescheduled);
  bus.subscribe(BookingCancelledV1, h.bookingCancelled);
  bus.subscribe(BookingUpdatedV1, h.bookingUpdated);
  // billing's customer invoices: the delete guard, and the job follows them once its work is done. Billing emits
  // v2; v1 events may still be queued: both versions, same handlers.
  bus.subscribe(CustomerInvoiceIssuedV1, h.customerInvoiceIssued);
  bus.subscribe(CustomerInvoiceIssuedV2, h.customerInvoiceIssued);
  bus.subscribe(CustomerInvoiceUpdatedV1, h.customerInvoiceUpdated);
  bus.subscribe(CustomerInvoiceUpdatedV2, h.customerInvoiceUpdated);
  bus.subscribe(CustomerInvoiceDeleted, h.customerInvoiceDeleted);
  // billing's purchase invoices: the job's purchase cost.
  bus.subscribe(PurchaseInvoiceRecorded, h.purchaseInvoiceRecorded);
  bus.subscribe(PurchaseInvoiceUpdated, h.purchaseInvoiceUpdated);
  bus.subscribe(PurchaseInvoiceDeleted, h.purchaseInvoiceDeleted);
  // gateway: the staff directory.
  bus.subscribe(UserCreated, h.userCreated);
  bus.subscribe(UserStatusChanged, h.userStatusChanged);
  // booking: a customer erased on request (issue 18, privacy).
  if (erasure) bus.subscribe(CustomerErased, erasure.customerErased);
  // booking: photos deleted after their retention period (issue 18, privacy).
  if (erasure) bus.subscribe(BookingPhotosDeleted, erasure.photosDeleted);
}

/**
 * BookingCreated batches: up to 100 events per transaction when they queue up (a burst, a backlog after an outage);
 * a lone event waits at most 10 ms for company. Once anything is consumed in batches the bus takes the queue batch by
 * batch: the other events (payments, invoices, the staff directory) are handled one by one within a batch, and two
 * batches run at once (adoption does not depend on order between batches: the job id lock serialises what touches
 * one job).
 */
export const JOBS_BATCH = { maxMessages: 100, lingerMs: 10, concurrency: 2 } as const;
