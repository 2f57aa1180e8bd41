/**
 * Request schemas. The messages are the spec's (section 5: customer booking form and staff booking form; section 8:
 * error catalogue), so the front ends can show `message` as is.
 */
import { z } from 'zod';
import type { PaymentMethod, ServiceType, TimeSlot } from '@tyres/events';
import { MAX_TYRE_QUANTITY, MIN_TYRE_QUANTITY, SERVICE_TYPES, TIME_SLOT_LABELS } from './constants';
import { toBusinessDate } from './dates';
import { MSG } from './messages';
import { normalizeTyreSize } from './pricing';

const trimmed = (message: string, min: number, max: number, tooLong = message) =>
  z.string({ error: message }).trim().min(min, message).max(max, tooLong);

/** Optional free text: absent, null or blank all mean null. */
const optionalText = (max: number, message: string) =>
  z
    .union([z.string().trim().max(max, message), z.null()])
    .optional()
    .transform((v) => (v ? v : null));

export const serviceTypeSchema = z.enum(SERVICE_TYPES as [ServiceType, ...ServiceType[]], {
  error: MSG.selectService,
});

export const timeSlotSchema = z.enum(TIME_SLOT_LABELS as [TimeSlot, ...TimeSlot[]], {
  error: (issue) =>
    issue.input === undefined || issue.input === '' || issue.input === null
      ? MSG.selectSlot
      : MSG.invalidSlot,
});

/** YYYY-MM-DD, or an ISO date-time converted to its Perth date. */
export const businessDateSchema = z.unknown().transform((value, ctx) => {
  if (value === undefined || value === null || value === '') {
    ctx.addIssue({ code: 'custom', message: MSG.selectDate });
    return z.NEVER;
  }
  const date = toBusinessDate(value);
  if (!date) {
    ctx.addIssue({ code: 'custom', message: MSG.invalidDateOrSlot });
    return z.NEVER;
  }
  return date;
});

const quantitySchema = z.coerce
  .number({ error: MSG.quantity })
  .int(MSG.quantity)
  .min(MIN_TYRE_QUANTITY, MSG.quantity)
  .max(MAX_TYRE_QUANTITY, MSG.quantity);

/** Absent, null or '' mean "not given" (the form's default applies); anything else must be an integer 1-4. */
const optionalQuantity = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  quantitySchema.optional(),
);

/**
 * Free text as typed ("205/55R16", "205 55 16"); absent, blank or a size we cannot read is null (the quote then
 * needs a callback). Only a value that is not text at all is refused.
 */
const tyreSizeSchema = z
  .union([z.string(), z.null()], { error: MSG.tyreSize })
  .optional()
  .transform((v) => (typeof v === 'string' && v.length <= 50 ? (normalizeTyreSize(v) ?? null) : null));

const paymentMethodSchema = z.enum(['onsite', 'prepaid'], {
  error: 'Payment method must be onsite or prepaid',
});

const yearSchema = z.coerce
  .number({ error: 'Please enter the vehicle year' })
  .int('Please enter the vehicle year');

const phone = z
  .string({ error: MSG.phone })
  .trim()
  .min(10, MSG.phone)
  .max(30, MSG.phone)
  .regex(/^[0-9+()\s.-]+$/, MSG.phone);

const postcode = z
  .string({ error: MSG.postcode })
  .trim()
  .min(4, MSG.postcode)
  .max(10, MSG.postcode)
  .regex(/^\d{4}$/, MSG.postcode);

const registration = z
  .string({ error: MSG.registration })
  .transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .pipe(z.string().min(1, MSG.registration).max(20, 'Registration is too long'));

function bookingSchema(staff: boolean) {
  const job = z.object({
    scheduledDate: businessDateSchema,
    timeSlot: timeSlotSchema,
    serviceType: serviceTypeSchema,
    tyreSize: tyreSizeSchema,
    tyreQuantity: optionalQuantity,
    tyreBrand: optionalText(100, 'Tyre brand is too long'),
    address: staff ? trimmed(MSG.staffAddress, 5, 500) : trimmed(MSG.address, 1, 500),
    suburb: staff ? trimmed(MSG.staffSuburb, 2, 100) : trimmed(MSG.suburb, 1, 100),
    postcode,
    notes: optionalText(2000, 'Notes are too long (2000 characters at most)'),
    // Required on the staff form (spec section 5); the public dialog books onsite unless it asks for a quote.
    paymentMethod: staff
      ? z.enum(['onsite', 'prepaid'], { error: 'Please select a payment method' })
      : paymentMethodSchema.optional(),
  });
  const vehicle = z.object({
    make: trimmed(MSG.make, 1, 100),
    model: trimmed(MSG.model, 1, 100),
    year: yearSchema,
    color: staff ? trimmed(MSG.color, 1, 50) : optionalText(50, 'Vehicle color is too long'),
    registration,
  });
  const customer = z.object({
    name: staff ? trimmed(MSG.staffName, 2, 200) : trimmed(MSG.name, 1, 200),
    phone,
    email: z
      .string({ error: staff ? MSG.staffEmail : MSG.email })
      .trim()
      .pipe(
        z.email({ error: staff ? MSG.staffEmail : MSG.email }).max(254, staff ? MSG.staffEmail : MSG.email),
      ),
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
export const customerBookingSchema = bookingSchema(false);
/** The dashboard's New Booking screen (same calls, made with a staff identity). */
export const staffBookingSchema = bookingSchema(true);

export type BookingRequest = z.output<typeof customerBookingSchema>;

export interface NormalizedBooking {
  channel: 'online' | 'staff';
  customer: { name: string; email: string; phone: string };
  vehicle: { make: string; model: string; year: number; color: string | null; registration: string };
  job: {
    serviceType: ServiceType;
    scheduledDate: string;
    timeSlot: TimeSlot;
    address: string;
    suburb: string;
    postcode: string;
    tyreSize: string | null;
    tyreQuantity: number | null;
    tyreBrand: string | null;
    notes: string | null;
    paymentMethod: PaymentMethod;
  };
}

/**
 * Applies the defaults of each form: quantity only for new tyres (customer form default 1, staff form 4), brand
 * only for new tyres.
 */
export function normalizeBooking(
  req: BookingRequest,
  channel: 'online' | 'staff',
  paymentMethod: PaymentMethod,
): NormalizedBooking {
  const tyres = req.job.serviceType === 'new-tyres';
  return {
    channel,
    customer: req.customer,
    vehicle: { ...req.vehicle, color: req.vehicle.color ?? null },
    job: {
      serviceType: req.job.serviceType,
      scheduledDate: req.job.scheduledDate,
      timeSlot: req.job.timeSlot,
      address: req.job.address,
      suburb: req.job.suburb,
      postcode: req.job.postcode,
      tyreSize: tyres ? req.job.tyreSize : null,
      tyreQuantity: tyres ? (req.job.tyreQuantity ?? (channel === 'staff' ? 4 : 1)) : null,
      tyreBrand: tyres ? req.job.tyreBrand : null,
      notes: req.job.notes,
      paymentMethod,
    },
  };
}

/** POST /api/pricing/quote: serviceType, tyre size, quantity (1-4) and the prepaid flag. */
export const priceQuoteSchema = z
  .object({
    serviceType: serviceTypeSchema,
    tyreSize: tyreSizeSchema,
    quantity: optionalQuantity,
    tyreQuantity: optionalQuantity,
    tyreBrand: optionalText(100, 'Tyre brand is too long'),
    prepaid: z.boolean({ error: 'prepaid must be true or false' }).optional(),
    paymentMethod: paymentMethodSchema.optional(),
  })
  .transform((q) => ({
    serviceType: q.serviceType,
    tyreSize: q.tyreSize,
    quantity: q.quantity ?? q.tyreQuantity ?? 1,
    tyreBrand: q.tyreBrand,
    prepaid: q.prepaid ?? q.paymentMethod === 'prepaid',
  }));

/** PUT /internal/reservations/:jobId. */
export const moveReservationSchema = z.object({
  scheduledDate: z.unknown().transform((value, ctx) => {
    const date = toBusinessDate(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: MSG.invalidDateOrSlot });
      return z.NEVER;
    }
    return date;
  }),
  timeSlot: z.enum(TIME_SLOT_LABELS as [TimeSlot, ...TimeSlot[]], { error: MSG.invalidDateOrSlot }),
});

/** PATCH /api/dashboard/timeslots/:date/:slot/block. */
export const blockSlotSchema = z.object({
  reason: z
    .string({ error: MSG.blockReason })
    .trim()
    .min(1, MSG.blockReason)
    .max(500, 'The reason is too long (500 characters at most)'),
});

export const uuidParam = (message: string) => z.uuid({ error: message });
