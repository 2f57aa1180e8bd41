import {
  BookingCancelledV1,
  BookingCreated,
  BookingPhotoAdded,
  BookingRescheduledV1,
  BookingUpdatedV1,
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

/**
 * Everything the jobs service consumes (queue `jobs`), in one place: contract → handler (./handlers.ts). Malformed
 * messages, unknown versions and invalid payloads are dead-lettered by the bus before reaching a handler.
 */
export function subscribeJobs(bus: EventBus, h: JobsHandlers): void {
  // booking: the job itself, its photos; billing: card payments.
  bus.subscribe(BookingCreated, h.bookingCreated);
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
}
