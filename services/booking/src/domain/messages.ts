/**
 * User-facing messages. Those quoted in the product spec (sections 5 and 8) are verbatim. The booking forms'
 * messages are the kernel's booking contract (shared with the public dialog and the staff form); the rest are
 * booking's own.
 */
import { BOOKING_MESSAGES, PHOTO_MESSAGES } from '@tyres/kernel';

export const MSG = {
  ...BOOKING_MESSAGES,
  // Time slot management
  blockReason: 'Please enter a reason for blocking this time slot',
  // Booking token / photos
  bookingNotFound: 'Booking Not Found',
  prepaidNotAvailable:
    'Online payment is not available for this booking (battery service or a tyre size that needs a custom quote). Please choose to pay on site.',
  // Prepaid holds per client (issue 14)
  tooManyOpenHolds:
    'You already have bookings waiting for payment. Please complete or wait for one to expire before starting another.',
  // The photo rules' messages are the kernel's, so the dialog and this service refuse a file in the same words.
  photoType: PHOTO_MESSAGES.type.description,
  photoTypeTitle: PHOTO_MESSAGES.type.title,
  photoSize: PHOTO_MESSAGES.size.description,
  photoSizeTitle: PHOTO_MESSAGES.size.title,
  photoCount: (n: number) => PHOTO_MESSAGES.count(n).description,
  photoCountTitle: PHOTO_MESSAGES.count(0).title,
  photoNone: 'Please choose at least one photo to upload.',
  photoWindow: 'Photos can only be added within an hour of making the booking.',
  photoKind: 'Unknown photo type',
  photoNotFound: 'Photo not found',
  // Suburbs
  serviceAreaNotFound: 'Service Area Not Found',
} as const;
