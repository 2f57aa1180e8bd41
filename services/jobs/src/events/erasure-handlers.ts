/**
 * Issue 18 (privacy): CustomerErased and BookingPhotosDeleted, each applied once (inbox names `jobs.onCustomerErased`,
 * `jobs.onBookingPhotosDeleted`: never rename them). The list of what jobs consumes stays ./subscriptions.ts.
 */
import type { BookingPhotosDeletedV1, CustomerErasedV1, EventOf, Inbox } from '@tyres/events';
import { applyCustomerErasure, applyPhotosDeleted } from '../app/erasure';
import type { Tx } from '../db/client';

export function erasureHandlers(deps: { inbox: Inbox<Tx> }) {
  return {
    customerErased: deps.inbox.handler<EventOf<typeof CustomerErasedV1>>(
      'jobs.onCustomerErased',
      (tx, event) => applyCustomerErasure(tx, event.data),
    ),
    photosDeleted: deps.inbox.handler<EventOf<typeof BookingPhotosDeletedV1>>(
      'jobs.onBookingPhotosDeleted',
      (tx, event) => applyPhotosDeleted(tx, event.data),
    ),
  };
}
export type ErasureHandlers = ReturnType<typeof erasureHandlers>;
