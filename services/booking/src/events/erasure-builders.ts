/**
 * Issue 18 (privacy): the events booking publishes about erasure (CustomerErased: ids only, no personal data) and photo
 * retention (BookingPhotosDeleted).
 */
import {
  BookingPhotosDeleted,
  createEvent,
  CustomerErased,
  type BookingPhotosDeletedV1Data,
  type CustomerErasedV1Data,
  type EventMeta,
} from '@tyres/events';

export { eventMeta } from './builders';

export function customerErasedEvent(data: CustomerErasedV1Data, meta: EventMeta) {
  return createEvent(CustomerErased, data, meta);
}

export function photosDeletedEvent(data: BookingPhotosDeletedV1Data, meta: EventMeta) {
  return createEvent(BookingPhotosDeleted, data, meta);
}
