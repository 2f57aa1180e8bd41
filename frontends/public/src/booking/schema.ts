/**
 * The customer booking form (spec section 5) with the spec's messages, verbatim. One schema for the whole
 * dialog; each step validates its own fields before Next.
 */
import { z } from 'zod';

export const MESSAGES = {
  date: 'Please select a date',
  timeSlot: 'Please select a time slot',
  dateAndSlot: 'Please select both a date and time slot',
  invalidDateOrSlot: 'Invalid date or time slot selected',
  serviceType: 'Please select a service',
  quantity: 'Quantity must be between 1 and 4',
  address: 'Please enter your address',
  suburb: 'Suburb is required',
  postcode: 'Please enter a valid postcode',
  vehicleMake: 'Vehicle make is required',
  vehicleModel: 'Vehicle model is required',
  registration: 'Registration is required',
  customerName: 'Name is required',
  customerPhone: 'Valid phone number required',
  customerEmail: 'Valid email required',
  slotGone: 'This time slot is no longer available. Please select a different time slot.',
  slotTakenTitle: 'Time Slot Unavailable',
  slotTaken: 'This time slot was just booked by someone else. Please select a different time slot.',
  bookingFailedTitle: 'Booking Failed',
  bookingFailed: 'There was an error creating your booking. Please try again.',
  bookingErrorTitle: 'Booking Error',
  bookingError: 'There was an issue creating your booking. Please try again.',
  callForQuote: 'Please call for a quote on this tyre size',
  addressUnavailable: 'Address suggestions unavailable - please enter manually',
  slotsFailed: 'Failed to fetch time slots',
} as const;

export const vehicleYearMessage = (maxYear: number) => `Vehicle year must be between 1900 and ${maxYear}`;

export const SERVICE_TYPES = [
  'new-tyres',
  'puncture-repair',
  'battery-service',
  'emergency-callout',
] as const;

export function bookingSchema(maxYear: number) {
  const yearMessage = vehicleYearMessage(maxYear);
  return z.object({
    date: z.string().min(1, MESSAGES.date),
    timeSlot: z.string().min(1, MESSAGES.timeSlot),
    serviceType: z
      .union([z.enum(SERVICE_TYPES), z.literal('')])
      .refine((v) => v !== '', MESSAGES.serviceType),
    tyreWidth: z.string().regex(/^\d{0,3}$/, 'Width is up to 3 digits'),
    tyreProfile: z.string().regex(/^\d{0,2}$/, 'Profile is up to 2 digits'),
    tyreRim: z.string().regex(/^\d{0,2}$/, 'Rim is up to 2 digits'),
    quantity: z
      .number({ error: MESSAGES.quantity })
      .int(MESSAGES.quantity)
      .min(1, MESSAGES.quantity)
      .max(4, MESSAGES.quantity),
    address: z.string().trim().min(1, MESSAGES.address),
    suburb: z.string().trim().min(1, MESSAGES.suburb),
    postcode: z
      .string()
      .trim()
      .min(4, MESSAGES.postcode)
      .regex(/^\d{4}$/, MESSAGES.postcode),
    vehicleMake: z.string().trim().min(1, MESSAGES.vehicleMake),
    vehicleModel: z.string().trim().min(1, MESSAGES.vehicleModel),
    vehicleYear: z
      .string()
      .trim()
      .regex(/^\d{4}$/, yearMessage)
      .refine((v) => Number(v) >= 1900 && Number(v) <= maxYear, yearMessage),
    registration: z.string().trim().min(1, MESSAGES.registration),
    customerName: z.string().trim().min(1, MESSAGES.customerName),
    customerPhone: z.string().trim().min(10, MESSAGES.customerPhone),
    customerEmail: z.string().trim().pipe(z.email(MESSAGES.customerEmail)),
    paymentMethod: z.enum(['prepaid', 'onsite']),
    notes: z.string().max(2000, 'Notes are too long (2000 characters at most)'),
  });
}

export type BookingValues = z.input<ReturnType<typeof bookingSchema>>;

export function defaultValues(): BookingValues {
  return {
    date: '',
    timeSlot: '',
    serviceType: '',
    tyreWidth: '',
    tyreProfile: '',
    tyreRim: '',
    quantity: 1,
    address: '',
    suburb: '',
    postcode: '',
    vehicleMake: '',
    vehicleModel: '',
    vehicleYear: '',
    registration: '',
    customerName: '',
    customerPhone: '',
    customerEmail: '',
    paymentMethod: 'prepaid',
    notes: '',
  };
}

/** Steps of spec section 2, "Booking dialog". */
export const STEPS = [
  { n: 1, title: 'Date & time' },
  { n: 2, title: 'Service' },
  { n: 3, title: 'Tyre details' },
  { n: 4, title: 'Location & vehicle' },
  { n: 5, title: 'Photos' },
  { n: 6, title: 'Contact & payment' },
  { n: 7, title: 'Confirmation' },
] as const;
export const TOTAL_STEPS = STEPS.length;

export type Step = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export const STEP_FIELDS: Record<Step, (keyof BookingValues)[]> = {
  1: ['date', 'timeSlot'],
  2: ['serviceType'],
  3: ['tyreWidth', 'tyreProfile', 'tyreRim', 'quantity'],
  4: ['address', 'suburb', 'postcode', 'vehicleMake', 'vehicleModel', 'vehicleYear', 'registration'],
  5: [],
  6: ['customerName', 'customerPhone', 'customerEmail', 'paymentMethod', 'notes'],
  7: [],
};

/** Puncture repair and battery service have no tyre details: step 2 goes to 4, and back from 4 to 2. */
export function skipsTyreStep(serviceType: string): boolean {
  return serviceType === 'puncture-repair' || serviceType === 'battery-service';
}

export function nextStep(step: Step, serviceType: string): Step {
  if (step === 2 && skipsTyreStep(serviceType)) return 4;
  return Math.min(step + 1, TOTAL_STEPS) as Step;
}

export function previousStep(step: Step, serviceType: string): Step {
  if (step === 4 && skipsTyreStep(serviceType)) return 2;
  return Math.max(step - 1, 1) as Step;
}

export function stepPercent(step: Step): number {
  return Math.round((step / TOTAL_STEPS) * 100);
}

/** "205/55R16" when width, profile and rim are all complete; null means the size is unknown. */
export function tyreSizeOf(
  values: Pick<BookingValues, 'tyreWidth' | 'tyreProfile' | 'tyreRim'>,
): string | null {
  const { tyreWidth: w, tyreProfile: p, tyreRim: r } = values;
  return /^\d{3}$/.test(w) && /^\d{2}$/.test(p) && /^\d{2}$/.test(r) ? `${w}/${p}R${r}` : null;
}

/** Tyre details apply to new tyres and emergency callouts (the services that go through step 3). */
export function usesTyreDetails(serviceType: string): boolean {
  return serviceType !== '' && !skipsTyreStep(serviceType);
}

/** Prepaid is forced to onsite for battery service and whenever pricing needs a callback (spec section 4). */
export function prepaidAllowed(serviceType: string, callbackRequired: boolean): boolean {
  return serviceType !== 'battery-service' && !callbackRequired;
}

export const digitsOnly = (value: string, max: number) => value.replace(/\D+/g, '').slice(0, max);
