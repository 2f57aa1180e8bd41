/**
 * The booking contract (issue 13): what a booking and a quote look like on the wire, the rules each field obeys,
 * the messages a customer or staff member sees, and the service types with their labels. The booking service is
 * its truth; the public booking dialog (frontends/public) and the staff New Booking form
 * (frontends/dashboard/src/forms) use the same rules, so a form refuses exactly what the service refuses.
 *
 * zod and the kernel calendar only (no Node APIs): safe in the browser.
 *
 * - Request bodies: `customerBookingSchema`, `staffBookingSchema` (or `bookingRequestSchema(form)`),
 *   `priceQuoteSchema`, with their input/output types.
 * - Field rules for forms shaped differently: `postcodeSchema`, `phoneSchema`, `customerEmailSchema`,
 *   `registrationSchema`, `tyreQuantitySchema`, `vehicleYearInRange(maxVehicleYear())`, `bookingDateSchema`, ...
 * - Messages: `BOOKING_MESSAGES`, `vehicleYearMessage(maxYear)`.
 * - Services: `SERVICE_TYPES`, `SERVICE_LABELS`, `serviceLabel`, `SERVICE_OPTIONS`, `PAYMENT_METHODS` and labels,
 *   tyre quantities, `prepaidAllowed`.
 * - Tyre sizes: `normalizeTyreSize` (free text), `tyreSizeFromParts` (width, profile, rim fields).
 * - Photos: `PHOTO_MIME_TYPES`, the size and count limits (`maxPhotos`), and their messages.
 * Prices and the quote arithmetic are the kernel's `pricing.ts` (`PRICE_LIST`, `priceQuote`).
 */
export * from './services';
export * from './messages';
export * from './tyre-size';
export * from './fields';
export * from './requests';
export * from './photos';
