/**
 * What "Confirm Booking" / "Confirm & Pay" does (spec sections 4, 7 and 8), as a function of the form's values,
 * the photos and the calls it may make. No React and no toasts here: the dialog passes the calls in and acts on
 * the answer (a toast, a step, the confirmation), so every branch is tested directly (submit.test.ts).
 *
 * The order of the calls is the spec's: re-check the chosen slot, price exactly what is booked, then
 * - prepaid: hold the slot with a quote (POST /api/bookings/quote), upload the photos, and offer the payment;
 * - onsite: create the booking (POST /api/bookings), upload the photos, and confirm.
 */
import {
  BOOKING_MESSAGES,
  isCalendarDate,
  isServiceType,
  isEmergencySlot,
  isSlotPast,
  isTimeSlot,
  perthToday,
} from '@tyres/kernel';
import { ApiError } from '@tyres/platform/api';
import type {
  BookingAnswer,
  BookingPayload,
  PriceQuote,
  QuoteAnswer,
  QuoteInput,
  TimeSlotState,
} from './api';
import { MESSAGES, prepaidAllowed, tyreSizeOf, usesTyreDetails, type BookingValues } from './schema';

/** The booking made, as the confirmation step shows it. */
export type BookingOutcome =
  | {
      kind: 'onsite';
      jobNumber: string;
      values: BookingValues;
      /** The price to pay on site; null when it is quoted on site (a callback quote). */
      total: string | number | null;
      photosFailed: boolean;
    }
  | {
      kind: 'prepaid';
      bookingToken: string;
      amount: string;
      currency: string;
      expiresAt?: string;
      /** The card surcharge rate the quote stores and checkout charges ("1.70", percent), when booking says. */
      cardSurchargeRate?: string;
      values: BookingValues;
      photosFailed: boolean;
    };

/** The calls a submit may make (the dialog passes the real ones; tests pass stand-ins). */
export interface SubmitCalls {
  /** A fresh slot list for the date (not the cached one). */
  recheckTimeSlots: (date: string) => Promise<TimeSlotState[]>;
  /** The price of exactly this input (never throws: a pricing failure is a callback quote). */
  quoteFor: (input: QuoteInput) => Promise<PriceQuote>;
  createQuote: (payload: BookingPayload, idempotencyKey: string) => Promise<QuoteAnswer>;
  createBooking: (payload: BookingPayload, idempotencyKey: string) => Promise<BookingAnswer>;
  uploadPhotos: (jobId: string, photos: readonly File[]) => Promise<unknown>;
  /** The idempotency key for this payload: the same key while the same payload is retried. */
  keyFor: (payload: BookingPayload) => string;
}

export interface SubmitInput {
  values: BookingValues;
  photos: readonly File[];
  /** The clock (Perth "today" and passed slots). */
  now?: Date;
}

export interface SubmitMessage {
  title: string;
  description?: string;
}

export type SubmitResult =
  /** The date or slot is missing or not bookable: say so and go back to step 1. */
  | { kind: 'invalid'; message: SubmitMessage }
  /** The slot is gone (re-check or 409): say so, clear the slot, refresh the slot lists, go back to step 1. */
  | { kind: 'slot-unavailable'; message: SubmitMessage }
  /** The booking could not be made: say so and stay on step 6 (the customer may try again). */
  | { kind: 'failed'; message: SubmitMessage }
  /** The booking exists: show the confirmation. */
  | { kind: 'booked'; outcome: BookingOutcome };

const slotTaken: SubmitResult = {
  kind: 'slot-unavailable',
  message: { title: MESSAGES.slotTakenTitle, description: MESSAGES.slotTaken },
};

const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;

/**
 * The wire payload of the form's values (trimmed; registration upper-cased; no tyres for other services), as booking
 * documents POST /api/bookings. The form has checked the service and the slot; anything else cannot be sent.
 */
export function bookingPayload(
  values: BookingValues,
  tyreSize: string | null,
  paymentMethod: 'onsite' | 'prepaid',
): BookingPayload {
  const { serviceType, timeSlot } = values;
  if (!isServiceType(serviceType)) throw new Error(BOOKING_MESSAGES.selectService);
  if (!isTimeSlot(timeSlot)) throw new Error(BOOKING_MESSAGES.invalidSlot);
  return {
    customer: {
      name: values.customerName.trim(),
      email: values.customerEmail.trim(),
      phone: values.customerPhone.trim(),
    },
    vehicle: {
      make: values.vehicleMake.trim(),
      model: values.vehicleModel.trim(),
      year: Number(values.vehicleYear),
      registration: values.registration.trim().toUpperCase(),
    },
    job: {
      serviceType,
      scheduledDate: values.date,
      timeSlot,
      address: values.address.trim(),
      suburb: values.suburb.trim(),
      postcode: values.postcode.trim(),
      tyreSize,
      // Left out for services without tyres (booking reads a missing quantity as none).
      ...(usesTyreDetails(serviceType) ? { tyreQuantity: values.quantity } : {}),
      notes: values.notes.trim() || null,
      paymentMethod,
    },
  };
}

/** Uploads the photos, if any; a failure does not undo the booking (the confirmation says so). */
async function photosFailed(calls: SubmitCalls, jobId: string, photos: readonly File[]) {
  if (photos.length === 0) return false;
  return calls.uploadPhotos(jobId, photos).then(
    () => false,
    () => true,
  );
}

export async function submitBooking(input: SubmitInput, calls: SubmitCalls): Promise<SubmitResult> {
  const { values, photos, now = new Date() } = input;
  if (!values.date || !values.timeSlot) {
    return { kind: 'invalid', message: { title: MESSAGES.dateAndSlot } };
  }
  const slot = values.timeSlot;
  if (!isCalendarDate(values.date) || values.date < perthToday(now) || !isTimeSlot(slot)) {
    return { kind: 'invalid', message: { title: MESSAGES.invalidDateOrSlot } };
  }

  // Re-check the chosen slot: someone may have taken it while this form was being filled in.
  // A started slot only as today's emergency callout (the kernel's rule; issue 19).
  let stillFree = !isSlotPast(values.date, slot, now) || isEmergencySlot(values.date, slot, now);
  if (stillFree) {
    try {
      const fresh = await calls.recheckTimeSlots(values.date);
      stillFree = fresh.some((s) => s.slot === slot && s.isAvailable);
    } catch {
      // The server checks again when the booking is made (409 below).
    }
  }
  if (!stillFree) {
    return {
      kind: 'slot-unavailable',
      message: { title: MESSAGES.slotTakenTitle, description: MESSAGES.slotGone },
    };
  }

  const tyreSize = usesTyreDetails(values.serviceType) ? tyreSizeOf(values) : null;
  const quoteInput = {
    serviceType: values.serviceType,
    tyreSize,
    quantity: usesTyreDetails(values.serviceType) ? values.quantity : 1,
  };
  // The price of exactly what is being booked (the one on screen may still be the previous choice's, e.g. the
  // prepaid price a moment after switching to pay on site).
  let priced = await calls.quoteFor({ ...quoteInput, prepaid: values.paymentMethod === 'prepaid' });
  const method = prepaidAllowed(values.serviceType, priced.callbackRequired)
    ? values.paymentMethod
    : 'onsite';
  if (method === 'onsite' && values.paymentMethod === 'prepaid') {
    priced = await calls.quoteFor({ ...quoteInput, prepaid: false });
  }
  const onsiteTotal = priced.callbackRequired ? null : priced.total;
  const payload = bookingPayload(values, tyreSize, method);

  if (method === 'prepaid') {
    let answer: QuoteAnswer;
    try {
      answer = await calls.createQuote(payload, calls.keyFor(payload));
    } catch (error) {
      if (isConflict(error)) return slotTaken;
      const serverMessage = error instanceof ApiError ? error.serverMessage : undefined;
      return {
        kind: 'failed',
        message: { title: MESSAGES.bookingFailedTitle, description: serverMessage ?? MESSAGES.bookingFailed },
      };
    }
    return {
      kind: 'booked',
      outcome: {
        kind: 'prepaid',
        bookingToken: answer.bookingToken,
        amount: answer.amount,
        currency: answer.currency,
        expiresAt: answer.expiresAt,
        cardSurchargeRate: answer.cardSurchargeRate,
        values,
        photosFailed: await photosFailed(calls, answer.jobId, photos),
      },
    };
  }

  // Booking prices the job itself (the same quote): the total shown is not sent.
  const onsitePayload: BookingPayload = { ...payload, job: { ...payload.job, paymentMethod: 'onsite' } };
  let answer: BookingAnswer;
  try {
    answer = await calls.createBooking(onsitePayload, calls.keyFor(onsitePayload));
  } catch (error) {
    if (isConflict(error)) return slotTaken;
    return {
      kind: 'failed',
      message: { title: MESSAGES.bookingErrorTitle, description: MESSAGES.bookingError },
    };
  }
  // Onsite: create, then upload the photos, then confirm.
  return {
    kind: 'booked',
    outcome: {
      kind: 'onsite',
      jobNumber: answer.jobNumber,
      values,
      total: onsiteTotal,
      photosFailed: await photosFailed(calls, answer.jobId, photos),
    },
  };
}
