/**
 * The customer booking form (spec section 5). Its rules and messages are the booking contract's (@tyres/kernel,
 * the same rules the booking service checks), applied to the dialog's flat fields: each field keeps what was
 * typed (trimmed), and the request body is built from it at submit (submit.ts). One schema for the whole dialog;
 * each step validates its own fields before Next.
 */
import {
  BOOKING_MESSAGES,
  customerEmailSchema,
  notesSchema,
  paymentMethodSchema,
  phoneSchema,
  postcodeSchema,
  registrationSchema,
  requiredText,
  serviceTypeSchema,
  tyreQuantitySchema,
  tyreSizeFromParts,
  vehicleYearInRange,
} from '@tyres/kernel';
import { z } from 'zod';

export { prepaidAllowed } from '@tyres/kernel';

/**
 * The dialog's messages: the contract's (so the dialog and the server say the same thing) and the dialog's own
 * toast titles and notices (spec section 8), which the server never sends.
 */
export const MESSAGES = {
  date: BOOKING_MESSAGES.selectDate,
  timeSlot: BOOKING_MESSAGES.selectSlot,
  dateAndSlot: BOOKING_MESSAGES.selectDateAndSlot,
  invalidDateOrSlot: BOOKING_MESSAGES.invalidDateOrSlot,
  slotGone: BOOKING_MESSAGES.slotNoLongerAvailable,
  slotTaken: BOOKING_MESSAGES.slotJustBooked,
  callForQuote: BOOKING_MESSAGES.callForQuote,
  customQuoteNeeded: BOOKING_MESSAGES.customQuoteNeeded,
  slotTakenTitle: 'Time Slot Unavailable',
  bookingFailedTitle: 'Booking Failed',
  bookingFailed: 'There was an error creating your booking. Please try again.',
  bookingErrorTitle: 'Booking Error',
  bookingError: 'There was an issue creating your booking. Please try again.',
  addressUnavailable: 'Address suggestions unavailable - please enter manually',
  slotsFailed: 'Failed to fetch time slots',
} as const;

/**
 * A text field checked by a contract rule. The field's value stays the trimmed text (not the rule's output, e.g. a
 * number or an upper-cased registration), so the form's values keep their shape; the message is the rule's first.
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

export function bookingSchema(maxYear: number) {
  return z.object({
    // The date and slot are picked from the calendar and the slot list; submit checks they are bookable.
    date: z.string().min(1, BOOKING_MESSAGES.selectDate),
    timeSlot: z.string().min(1, BOOKING_MESSAGES.selectSlot),
    serviceType: checkedBy(serviceTypeSchema),
    // The inputs take digits only (UI rules, spec section 5); the size is known once all three are complete.
    tyreWidth: z.string().regex(/^\d{0,3}$/, 'Width is up to 3 digits'),
    tyreProfile: z.string().regex(/^\d{0,2}$/, 'Profile is up to 2 digits'),
    tyreRim: z.string().regex(/^\d{0,2}$/, 'Rim is up to 2 digits'),
    quantity: z.number({ error: BOOKING_MESSAGES.quantity }).superRefine((value, ctx) => {
      if (!tyreQuantitySchema.safeParse(value).success) {
        ctx.addIssue({ code: 'custom', message: BOOKING_MESSAGES.quantity });
      }
    }),
    address: checkedBy(requiredText(BOOKING_MESSAGES.address, 1, 500)),
    suburb: checkedBy(requiredText(BOOKING_MESSAGES.suburb, 1, 100)),
    postcode: checkedBy(postcodeSchema),
    vehicleMake: checkedBy(requiredText(BOOKING_MESSAGES.make, 1, 100)),
    vehicleModel: checkedBy(requiredText(BOOKING_MESSAGES.model, 1, 100)),
    vehicleYear: checkedBy(vehicleYearInRange(maxYear)),
    registration: checkedBy(registrationSchema),
    customerName: checkedBy(requiredText(BOOKING_MESSAGES.name, 1, 200)),
    customerPhone: checkedBy(phoneSchema),
    customerEmail: checkedBy(customerEmailSchema),
    paymentMethod: paymentMethodSchema,
    notes: checkedBy(notesSchema),
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
  return tyreSizeFromParts(values.tyreWidth, values.tyreProfile, values.tyreRim) ?? null;
}

/** Tyre details apply to new tyres and emergency callouts (the services that go through step 3). */
export function usesTyreDetails(serviceType: string): boolean {
  return serviceType !== '' && !skipsTyreStep(serviceType);
}

export const digitsOnly = (value: string, max: number) => value.replace(/\D+/g, '').slice(0, max);
