import type { EventEnvelope, EventHandler, Inbox } from '@tyres/events';
import type { BookingChangeFacts } from '../app/booking-changes';
import type { BookingFacts } from '../app/bookings';
import type { InvoiceFacts } from '../app/invoices';
import type { TechnicianUseCases } from '../app/technicians';
import type { Tx } from '../db/client';

export interface HandlerDeps {
  /** The jobs schema's inbox: each handler's effect commits with its (eventId, handler) row. */
  inbox: Inbox<Tx>;
  /** Nudges the outbox relay once a handler's transaction committed. */
  wake: () => void;
  bookings: BookingFacts;
  bookingChanges: BookingChangeFacts;
  invoices: InvoiceFacts;
  technicians: TechnicianUseCases;
}

/**
 * The event handlers, thin: each opens the inbox transaction (a redelivered event changes nothing), runs one use
 * case in it, and wakes the relay after the commit. The inbox names (`jobs.on…`) are the idempotency keys of the
 * events already handled: never rename them. What each handler consumes: ./subscriptions.ts.
 */
export function jobsHandlers(deps: HandlerDeps) {
  const { bookings, bookingChanges, invoices, technicians } = deps;
  const once = <E extends EventEnvelope>(
    name: string,
    useCase: (tx: Tx, event: E) => Promise<void>,
  ): EventHandler<E> => {
    const handler = deps.inbox.handler<E>(`jobs.${name}`, useCase);
    return async (event, ctx) => {
      const outcome = await handler(event, ctx);
      deps.wake();
      return outcome;
    };
  };
  return {
    bookingCreated: once('onBookingCreated', bookings.bookingCreated.bind(bookings)),
    bookingPhotoAdded: once('onBookingPhotoAdded', bookings.photoAdded.bind(bookings)),
    bookingRescheduled: once('onBookingRescheduled', bookingChanges.rescheduled.bind(bookingChanges)),
    bookingCancelled: once('onBookingCancelled', bookingChanges.cancelled.bind(bookingChanges)),
    bookingUpdated: once('onBookingUpdated', bookingChanges.updated.bind(bookingChanges)),
    paymentSucceeded: once('onPaymentSucceeded', bookings.paymentSucceeded.bind(bookings)),
    // One inbox name for v1 and v2: an event id is one version.
    customerInvoiceIssued: once('onCustomerInvoiceIssued', invoices.issued.bind(invoices)),
    customerInvoiceUpdated: once('onCustomerInvoiceUpdated', invoices.updated.bind(invoices)),
    customerInvoiceDeleted: once('onCustomerInvoiceDeleted', invoices.deleted.bind(invoices)),
    purchaseInvoiceRecorded: once('onPurchaseInvoiceRecorded', invoices.purchaseChanged.bind(invoices)),
    purchaseInvoiceUpdated: once('onPurchaseInvoiceUpdated', invoices.purchaseChanged.bind(invoices)),
    purchaseInvoiceDeleted: once('onPurchaseInvoiceDeleted', invoices.purchaseDeleted.bind(invoices)),
    userCreated: once('onUserCreated', technicians.userCreated.bind(technicians)),
    userStatusChanged: once('onUserStatusChanged', technicians.userStatusChanged.bind(technicians)),
  };
}

export type JobsHandlers = ReturnType<typeof jobsHandlers>;
