import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
/**
 * The staff booking form (spec section 5 "Staff booking form"). Its rules and messages are the booking contract's
 * (@tyres/kernel, the rules the booking service checks), applied to the form's flat fields: the form refuses what the
 * service refuses (a 4-digit postcode, a vehicle year from 1900 to next year, a complete tyre size). Each field keeps
 * what was typed; the request body is built from it at submit (bookingRequest).
 */
import { z } from 'zod';
import {
  BOOKING_MESSAGES,
  DEFAULT_TYRE_QUANTITY,
  isPastDate,
  isServiceType,
  isTimeSlot,
  maxVehicleYear,
  notesSchema,
  phoneSchema,
  postcodeSchema,
  registrationSchema,
  requiredText,
  staffEmailSchema,
  staffPaymentMethodSchema,
  takesTyres,
  tyreBrandSchema,
  tyreQuantitySchema,
  tyreSizeFromParts,
  vehicleYearInRange,
} from '@tyres/kernel';
import { slotDateTime } from '../lib/dates';

/** The staff form's own message (the service would only call such a date invalid). */
export const PAST_DATE = 'Past dates are not allowed';

/**
 * A text field checked by a contract rule. The field keeps the trimmed text (not the rule's output, e.g. a number
 * or an upper-cased registration), so the form's values keep their shape; the message is the rule's first.
 */
function checkedBy(rule: z.ZodType) {
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const result = rule.safeParse(value);
      if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? '' });
    });
}

const digits = (max: number) => z.string().regex(new RegExp(`^\\d{0,${max}}$`), 'Digits only');

/** The form's schema; `maxYear` is the newest vehicle year accepted (next year on the Perth calendar). */
export function staffBookingSchemaFor(maxYear: number) {
  return z
    .object({
      scheduledDate: z
        .string()
        .nullable()
        .superRefine((v, ctx) => {
          if (!v) ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.selectDate });
          else if (isPastDate(v)) ctx.addIssue({ code: 'custom', message: PAST_DATE });
        }),
      timeSlot: z.string().superRefine((v, ctx) => {
        if (!v) ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.selectSlot });
        else if (!isTimeSlot(v)) ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.invalidSlot });
      }),
      // A plain boolean (not the type guard): the field stays a string while nothing is chosen.
      serviceType: z.string().refine((v): boolean => isServiceType(v), BOOKING_MESSAGES.selectService),
      tyreWidth: digits(3),
      tyreProfile: digits(2),
      tyreRim: digits(2),
      tyreQuantity: z.number({ error: BOOKING_MESSAGES.quantity }).superRefine((value, ctx) => {
        if (!tyreQuantitySchema.safeParse(value).success)
          ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.quantity });
      }),
      tyreBrand: checkedBy(tyreBrandSchema),
      customerName: checkedBy(requiredText(BOOKING_MESSAGES.staffName, 2, 200)),
      customerPhone: checkedBy(phoneSchema),
      customerEmail: checkedBy(staffEmailSchema),
      vehicleMake: checkedBy(requiredText(BOOKING_MESSAGES.make, 1, 100)),
      vehicleModel: checkedBy(requiredText(BOOKING_MESSAGES.model, 1, 100)),
      vehicleYear: checkedBy(vehicleYearInRange(maxYear)),
      vehicleColor: checkedBy(requiredText(BOOKING_MESSAGES.color, 1, 50)),
      registration: checkedBy(registrationSchema),
      address: checkedBy(requiredText(BOOKING_MESSAGES.staffAddress, 5, 500)),
      suburb: checkedBy(requiredText(BOOKING_MESSAGES.staffSuburb, 2, 100)),
      postcode: checkedBy(postcodeSchema),
      paymentMethod: staffPaymentMethodSchema,
      notes: checkedBy(notesSchema),
    })
    .refine(
      // New tyres: a size typed in part ("2/5R1") is no size; leaving all three empty asks for a quote.
      (v) =>
        !takesTyres(v.serviceType) ||
        !(v.tyreWidth || v.tyreProfile || v.tyreRim) ||
        tyreSizeFromParts(v.tyreWidth, v.tyreProfile, v.tyreRim) !== undefined,
      {
        path: ['tyreWidth'],
        message: BOOKING_MESSAGES.tyreSize,
        // Checked alongside the other fields' problems (not only once they are all fixed), when the parts are text.
        when: ({ value }) => {
          const v = value as Partial<
            Record<'tyreWidth' | 'tyreProfile' | 'tyreRim' | 'serviceType', unknown>
          >;
          return [v.tyreWidth, v.tyreProfile, v.tyreRim, v.serviceType].every(
            (part) => typeof part === 'string',
          );
        },
      },
    );
}

export const staffBookingSchema = staffBookingSchemaFor(maxVehicleYear());
export type StaffBookingValues = z.infer<typeof staffBookingSchema>;

/**
 * The form's resolver: the schema for the vehicle-year limit of the moment it validates (next year in Perth), so a
 * dashboard tab left open over New Year accepts the new model year as the server does.
 */
export const staffBookingResolver: Resolver<StaffBookingValues> = (values, context, options) =>
  zodResolver(staffBookingSchemaFor(maxVehicleYear()))(values, context, options);

export const bookingDefaults = (): StaffBookingValues => ({
  scheduledDate: null,
  timeSlot: '',
  serviceType: '',
  tyreWidth: '',
  tyreProfile: '',
  tyreRim: '',
  tyreQuantity: DEFAULT_TYRE_QUANTITY.staff,
  tyreBrand: '',
  customerName: '',
  customerPhone: '',
  customerEmail: '',
  vehicleMake: '',
  vehicleModel: '',
  vehicleYear: '',
  vehicleColor: '',
  registration: '',
  address: '',
  suburb: '',
  postcode: '',
  paymentMethod: 'onsite',
  notes: '',
});

/** "205/55R16" when width, profile and rim are all complete (3, 2 and 2 digits); otherwise no size. */
export function tyreSizeOf(
  v: Pick<StaffBookingValues, 'tyreWidth' | 'tyreProfile' | 'tyreRim'>,
): string | undefined {
  return tyreSizeFromParts(v.tyreWidth, v.tyreProfile, v.tyreRim);
}

/** POST /api/bookings body of the staff form (spec section 7). Throws "Invalid time slot" for an unknown slot. */
export function bookingRequest(v: StaffBookingValues) {
  // The form's rules accept only these; narrowing here is what lets the body type as booking documents it.
  const { timeSlot, serviceType } = v;
  if (!isTimeSlot(timeSlot)) throw new Error(BOOKING_MESSAGES.invalidSlot);
  if (!isServiceType(serviceType)) throw new Error(BOOKING_MESSAGES.selectService);
  const tyres = takesTyres(serviceType);
  const tyreSize = tyres ? tyreSizeOf(v) : undefined;
  return {
    customer: { name: v.customerName.trim(), email: v.customerEmail.trim(), phone: v.customerPhone.trim() },
    vehicle: {
      make: v.vehicleMake.trim(),
      model: v.vehicleModel.trim(),
      year: Number.parseInt(v.vehicleYear, 10),
      color: v.vehicleColor.trim(),
      registration: v.registration.trim().toUpperCase(),
    },
    job: {
      serviceType,
      scheduledDate: slotDateTime(v.scheduledDate!, timeSlot),
      timeSlot,
      address: v.address.trim(),
      suburb: v.suburb.trim(),
      postcode: v.postcode.trim(),
      ...(tyreSize ? { tyreSize } : {}),
      tyreQuantity: v.tyreQuantity || DEFAULT_TYRE_QUANTITY.staff,
      ...(tyres && v.tyreBrand.trim() ? { tyreBrand: v.tyreBrand.trim() } : {}),
      ...(v.notes.trim() ? { notes: v.notes.trim() } : {}),
      paymentMethod: v.paymentMethod,
    },
  };
}
