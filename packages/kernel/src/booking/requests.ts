/**
 * The booking service's request bodies: a booking (POST /api/bookings) and a quote (POST /api/bookings/quote, a
 * prepaid booking held for payment) share one body, checked with the customer dialog's or the staff form's rules;
 * a price quote (POST /api/pricing/quote) is the service and tyres only.
 */
import { z } from 'zod';
import {
  bookingDateSchema,
  customerEmailSchema,
  notesSchema,
  optionalText,
  optionalTyreQuantitySchema,
  paymentMethodSchema,
  phoneSchema,
  postcodeSchema,
  registrationSchema,
  requiredText,
  serviceTypeSchema,
  staffEmailSchema,
  staffPaymentMethodSchema,
  timeSlotSchema,
  tyreBrandSchema,
  tyreSizeSchema,
  vehicleYearSchema,
} from './fields';
import { BOOKING_MESSAGES as MSG } from './messages';

export type BookingForm = 'customer' | 'staff';

/** The body of a booking or a quote, checked with one form's rules. */
export function bookingRequestSchema(form: BookingForm) {
  const staff = form === 'staff';
  const job = z.object({
    scheduledDate: bookingDateSchema,
    timeSlot: timeSlotSchema,
    serviceType: serviceTypeSchema,
    tyreSize: tyreSizeSchema,
    tyreQuantity: optionalTyreQuantitySchema,
    tyreBrand: tyreBrandSchema,
    address: staff ? requiredText(MSG.staffAddress, 5, 500) : requiredText(MSG.address, 1, 500),
    suburb: staff ? requiredText(MSG.staffSuburb, 2, 100) : requiredText(MSG.suburb, 1, 100),
    postcode: postcodeSchema,
    notes: notesSchema,
    // Required on the staff form (spec section 5); the public dialog books onsite unless it asks for a quote.
    paymentMethod: staff ? staffPaymentMethodSchema : paymentMethodSchema.optional(),
  });
  const vehicle = z.object({
    make: requiredText(MSG.make, 1, 100),
    model: requiredText(MSG.model, 1, 100),
    year: vehicleYearSchema,
    color: staff ? requiredText(MSG.color, 1, 50) : optionalText(50, MSG.colorTooLong),
    registration: registrationSchema,
  });
  const customer = z.object({
    name: staff ? requiredText(MSG.staffName, 2, 200) : requiredText(MSG.name, 1, 200),
    phone: phoneSchema,
    email: staff ? staffEmailSchema : customerEmailSchema,
  });
  // Key order = order of the first reported problem: the dialog's step order (date and slot first).
  const orEmpty = (v: unknown) => (v === undefined || v === null ? {} : v);
  return z.object({
    job: z.preprocess(orEmpty, job),
    vehicle: z.preprocess(orEmpty, vehicle),
    customer: z.preprocess(orEmpty, customer),
  });
}

/** The public booking dialog (POST /api/bookings, POST /api/bookings/quote). */
export const customerBookingSchema = bookingRequestSchema('customer');
/** The dashboard's New Booking screen (same calls, made with a staff identity and a vehicle colour). */
export const staffBookingSchema = bookingRequestSchema('staff');

/** What a front end sends for a booking or a quote. */
export type BookingRequestBody = z.input<typeof customerBookingSchema>;
/** A booking request as the service reads it (dates in Perth, sizes normalised, blanks as null). */
export type BookingRequest = z.output<typeof customerBookingSchema>;
export type StaffBookingRequest = z.output<typeof staffBookingSchema>;

/** POST /api/pricing/quote: serviceType, tyre size, quantity (1-4, default 1) and the prepaid flag. */
export const priceQuoteSchema = z
  .object({
    serviceType: serviceTypeSchema,
    tyreSize: tyreSizeSchema,
    quantity: optionalTyreQuantitySchema,
    tyreQuantity: optionalTyreQuantitySchema,
    tyreBrand: tyreBrandSchema,
    prepaid: z.boolean({ error: MSG.prepaidFlag }).optional(),
    paymentMethod: paymentMethodSchema.optional(),
  })
  .transform((q) => ({
    serviceType: q.serviceType,
    tyreSize: q.tyreSize,
    quantity: q.quantity ?? q.tyreQuantity ?? 1,
    tyreBrand: q.tyreBrand,
    prepaid: q.prepaid ?? q.paymentMethod === 'prepaid',
  }));

export type PriceQuoteRequestBody = z.input<typeof priceQuoteSchema>;
export type PriceQuoteRequest = z.output<typeof priceQuoteSchema>;
