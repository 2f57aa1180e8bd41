/**
 * One zod rule per booking field, with the spec's messages. The request schemas (requests.ts) are built from
 * these, and a form whose fields are shaped differently (flat, strings from inputs) composes the same rules, so
 * the form refuses exactly what the booking service refuses.
 */
import { z } from 'zod';
import { perthToday, TIME_SLOT_LABELS, toBusinessDate, type TimeSlot } from '../calendar';
import { BOOKING_MESSAGES as MSG, vehicleYearMessage } from './messages';
import {
  MAX_TYRE_QUANTITY,
  MIN_TYRE_QUANTITY,
  PAYMENT_METHODS,
  SERVICE_TYPES,
  type PaymentMethod,
  type ServiceType,
} from './services';
import { MAX_TYRE_SIZE_LENGTH, normalizeTyreSize } from './tyre-size';

/** Required text, trimmed, between `min` and `max` characters. */
export const requiredText = (message: string, min: number, max: number, tooLong = message) =>
  z.string({ error: message }).trim().min(min, message).max(max, tooLong);

/** Optional free text: absent, null or blank all mean null. */
export const optionalText = (max: number, message: string) =>
  z
    .union([z.string().trim().max(max, message), z.null()])
    .optional()
    .transform((v) => (v ? v : null));

/** Bookings are taken for years 2000-2999: anything else is a typo, not a date anybody means. */
const BOOKABLE_YEARS = { min: 2000, max: 2999 } as const;

/**
 * The Perth calendar date a booking request means (`YYYY-MM-DD`, or an ISO date-time such as the staff form's
 * slot start, converted to Perth), or undefined.
 */
export function toBookingDate(value: unknown): string | undefined {
  const date = toBusinessDate(value);
  if (!date) return undefined;
  const year = Number(date.slice(0, 4));
  return year >= BOOKABLE_YEARS.min && year <= BOOKABLE_YEARS.max ? date : undefined;
}

/** The chosen date: missing is "Please select a date", anything unreadable "Invalid date or time slot selected". */
export const bookingDateSchema = z
  .unknown()
  .transform((value, ctx) => {
    if (value === undefined || value === null || value === '') {
      ctx.addIssue({ code: 'custom', message: MSG.selectDate });
      return z.NEVER;
    }
    const date = toBookingDate(value);
    if (!date) {
      ctx.addIssue({ code: 'custom', message: MSG.invalidDateOrSlot });
      return z.NEVER;
    }
    return date;
  })
  // The parser takes any value so it can answer the spec's messages; what a caller should send is a date (the
  // OpenAPI documents render this, zod-openapi's `override`).
  .meta({
    override: { type: 'string', format: 'date', description: 'The booked Perth calendar date, YYYY-MM-DD.' },
  });

export const timeSlotSchema = z.enum(TIME_SLOT_LABELS as [TimeSlot, ...TimeSlot[]], {
  error: (issue) =>
    issue.input === undefined || issue.input === '' || issue.input === null
      ? MSG.selectSlot
      : MSG.invalidSlot,
});

export const serviceTypeSchema = z.enum(SERVICE_TYPES as unknown as [ServiceType, ...ServiceType[]], {
  error: MSG.selectService,
});

export const paymentMethodSchema = z.enum(PAYMENT_METHODS as unknown as [PaymentMethod, ...PaymentMethod[]], {
  error: MSG.paymentMethod,
});

/** The staff form must choose one (spec section 5). */
export const staffPaymentMethodSchema = z.enum(
  PAYMENT_METHODS as unknown as [PaymentMethod, ...PaymentMethod[]],
  { error: MSG.selectPaymentMethod },
);

/** An integer 1-4; numeric text ("3") is read as a number. */
export const tyreQuantitySchema = z.coerce
  .number({ error: MSG.quantity })
  .int(MSG.quantity)
  .min(MIN_TYRE_QUANTITY, MSG.quantity)
  .max(MAX_TYRE_QUANTITY, MSG.quantity);

/** Absent, null or '' mean "not given" (the form's default applies); anything else must be an integer 1-4. */
export const optionalTyreQuantitySchema = z
  .preprocess((v) => (v === '' || v === null ? undefined : v), tyreQuantitySchema.optional())
  .meta({ override: { type: ['integer', 'null'] } });

/**
 * Free text as typed ("205/55R16", "205 55 16") to "205/55R16"; absent, blank or a size we cannot read is null
 * (the quote then needs a callback). Only a value that is not text at all is refused.
 */
export const tyreSizeSchema = z
  .union([z.string(), z.null()], { error: MSG.tyreSize })
  .optional()
  .transform((v) =>
    typeof v === 'string' && v.length <= MAX_TYRE_SIZE_LENGTH ? (normalizeTyreSize(v) ?? null) : null,
  );

export const tyreBrandSchema = optionalText(100, MSG.tyreBrandTooLong);
export const notesSchema = optionalText(2000, MSG.notesTooLong);

/** 10-30 characters of digits, spaces, `+ ( ) . -`. */
export const phoneSchema = z
  .string({ error: MSG.phone })
  .trim()
  .min(10, MSG.phone)
  .max(30, MSG.phone)
  .regex(/^[0-9+()\s.-]+$/, MSG.phone);

/** An Australian postcode: exactly four digits. */
export const postcodeSchema = z
  .string({ error: MSG.postcode })
  .trim()
  .min(4, MSG.postcode)
  .max(10, MSG.postcode)
  .regex(/^\d{4}$/, MSG.postcode);

const email = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .pipe(z.email({ error: message }).max(254, message));
export const customerEmailSchema = email(MSG.email);
export const staffEmailSchema = email(MSG.staffEmail);

/** Spaces removed and upper-cased ("1abc 234" is "1ABC234"). */
export const registrationSchema = z
  .string({ error: MSG.registration })
  .transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .pipe(z.string().min(1, MSG.registration).max(20, MSG.registrationTooLong));

export const MIN_VEHICLE_YEAR = 1900;

/** The newest vehicle year accepted: next year on the Perth calendar (next year's models are sold this year). */
export function maxVehicleYear(now: Date = new Date()): number {
  return Number(perthToday(now).slice(0, 4)) + 1;
}

/** The year's range problem, if any (the service checks it after the date and slot, as the dialog's steps do). */
export function vehicleYearProblem(year: number, now: Date = new Date()): string | undefined {
  const max = maxVehicleYear(now);
  return Number.isInteger(year) && year >= MIN_VEHICLE_YEAR && year <= max
    ? undefined
    : vehicleYearMessage(max);
}

/** An integer year (numeric text is read as a number); its range is `vehicleYearProblem`'s. */
export const vehicleYearSchema = z.coerce.number({ error: MSG.year }).int(MSG.year);

/** A form's year field: an integer from 1900 to `maxYear`, one message for every problem. */
export const vehicleYearInRange = (maxYear: number) => {
  const message = vehicleYearMessage(maxYear);
  return z
    .union(
      [
        z.number(),
        z
          .string()
          .trim()
          .regex(/^\d{4}$/, message),
      ],
      { error: message },
    )
    .transform(Number)
    .pipe(z.number().int(message).min(MIN_VEHICLE_YEAR, message).max(maxYear, message));
};
