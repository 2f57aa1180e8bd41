import { z } from 'zod';
import {
  MAX_TYRE_QUANTITY,
  MIN_TYRE_QUANTITY,
  SERVICE_TYPES,
  STAFF_DEFAULT_TYRE_QUANTITY,
} from '../lib/constants';
import { isPastDate, slotDateTime } from '../lib/dates';

/** Staff booking form (spec section 5 "Staff booking form"; messages as the spec and the booking service). */
export const BOOKING_MESSAGES = {
  date: 'Please select a date',
  pastDate: 'Past dates are not allowed',
  slot: 'Please select a time slot',
  service: 'Please select a service',
  name: 'Customer name is required',
  phone: 'Valid phone number required',
  email: 'Valid email address required',
  make: 'Vehicle make is required',
  model: 'Vehicle model is required',
  year: 'Please enter a valid year (e.g. 2018)',
  color: 'Vehicle color is required',
  registration: 'Registration is required',
  address: 'Full address is required',
  suburb: 'Suburb is required',
  postcode: 'Please enter a valid postcode',
  paymentMethod: 'Please select a payment method',
  quantity: 'Quantity must be between 1 and 4',
} as const;

const serviceIds = SERVICE_TYPES.map((s) => s.id) as [string, ...string[]];
const digits = (max: number) => z.string().regex(new RegExp(`^\\d{0,${max}}$`), 'Digits only');

export const staffBookingSchema = z.object({
  scheduledDate: z
    .string()
    .nullable()
    .superRefine((v, ctx) => {
      if (!v) ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.date });
      else if (isPastDate(v)) ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.pastDate });
    }),
  timeSlot: z.string().min(1, BOOKING_MESSAGES.slot),
  serviceType: z.string().refine((v) => serviceIds.includes(v), BOOKING_MESSAGES.service),
  tyreWidth: digits(3),
  tyreProfile: digits(2),
  tyreRim: digits(2),
  tyreQuantity: z
    .number({ error: BOOKING_MESSAGES.quantity })
    .int(BOOKING_MESSAGES.quantity)
    .min(MIN_TYRE_QUANTITY, BOOKING_MESSAGES.quantity)
    .max(MAX_TYRE_QUANTITY, BOOKING_MESSAGES.quantity),
  tyreBrand: z.string(),
  customerName: z.string().trim().min(2, BOOKING_MESSAGES.name),
  customerPhone: z.string().trim().min(10, BOOKING_MESSAGES.phone),
  customerEmail: z.string().trim().pipe(z.email(BOOKING_MESSAGES.email)),
  vehicleMake: z.string().trim().min(1, BOOKING_MESSAGES.make),
  vehicleModel: z.string().trim().min(1, BOOKING_MESSAGES.model),
  vehicleYear: z
    .string()
    .trim()
    .min(4, BOOKING_MESSAGES.year)
    .regex(/^\d{4}$/, BOOKING_MESSAGES.year),
  vehicleColor: z.string().trim().min(1, BOOKING_MESSAGES.color),
  registration: z.string().trim().min(1, BOOKING_MESSAGES.registration),
  address: z.string().trim().min(5, BOOKING_MESSAGES.address),
  suburb: z.string().trim().min(2, BOOKING_MESSAGES.suburb),
  postcode: z.string().trim().min(4, BOOKING_MESSAGES.postcode),
  paymentMethod: z.enum(['onsite', 'prepaid'], { error: BOOKING_MESSAGES.paymentMethod }),
  notes: z.string(),
});
export type StaffBookingValues = z.infer<typeof staffBookingSchema>;

export const bookingDefaults = (): StaffBookingValues => ({
  scheduledDate: null,
  timeSlot: '',
  serviceType: '',
  tyreWidth: '',
  tyreProfile: '',
  tyreRim: '',
  tyreQuantity: STAFF_DEFAULT_TYRE_QUANTITY,
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

/** "205/55R16" when width, profile and rim are all given; otherwise no size. */
export function tyreSizeOf(
  v: Pick<StaffBookingValues, 'tyreWidth' | 'tyreProfile' | 'tyreRim'>,
): string | undefined {
  return v.tyreWidth && v.tyreProfile && v.tyreRim
    ? `${v.tyreWidth}/${v.tyreProfile}R${v.tyreRim}`
    : undefined;
}

/** POST /api/bookings body of the staff form (spec section 7). Throws "Invalid time slot" for an unknown slot. */
export function bookingRequest(v: StaffBookingValues) {
  const tyres = v.serviceType === 'new-tyres';
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
      serviceType: v.serviceType,
      scheduledDate: slotDateTime(v.scheduledDate!, v.timeSlot),
      timeSlot: v.timeSlot,
      address: v.address.trim(),
      suburb: v.suburb.trim(),
      postcode: v.postcode.trim(),
      ...(tyreSize ? { tyreSize } : {}),
      tyreQuantity: v.tyreQuantity || STAFF_DEFAULT_TYRE_QUANTITY,
      ...(tyres && v.tyreBrand.trim() ? { tyreBrand: v.tyreBrand.trim() } : {}),
      ...(v.notes.trim() ? { notes: v.notes.trim() } : {}),
      paymentMethod: v.paymentMethod,
    },
  };
}
