/** The booking dialog's calls (spec section 7, "Public"), through the one API client of @tyres/platform. */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiJson, apiUpload, newIdempotencyKey } from '@tyres/platform/api';
import { MESSAGES } from './schema';

export interface TimeSlotState {
  slot: string;
  isAvailable: boolean;
  blockedReason: string | null;
}

export const timeSlotsKey = (date: string) => ['public', 'time-slots', date] as const;
export const TIME_SLOTS_ROOT = ['public', 'time-slots'] as const;

export function fetchTimeSlots(date: string): Promise<TimeSlotState[]> {
  return apiGet<TimeSlotState[]>('/api/time-slots', { query: { date } });
}

export function useTimeSlots(date: string) {
  return useQuery({
    queryKey: timeSlotsKey(date),
    queryFn: () => fetchTimeSlots(date),
    enabled: date !== '',
    // Never stale (spec section 7): the chosen slot is re-checked at submit, and a 409 refreshes the lists.
  });
}

/** Fresh slot list at submit time (the chosen slot is re-checked, spec section 7). */
export function recheckTimeSlots(queryClient: QueryClient, date: string): Promise<TimeSlotState[]> {
  return queryClient.fetchQuery({
    queryKey: timeSlotsKey(date),
    queryFn: () => fetchTimeSlots(date),
    staleTime: 0,
  });
}

// ------------------------------------------------------------------------------------------------- pricing

export type TyrePrice =
  | { price: string | number; callbackRequired?: false }
  | { error: string; message: string; callbackRequired: true; price?: undefined };

/** GET /api/tyre-pricing/{size}: a price, or on 404 the error object; any other failure is "API Error". */
export async function fetchTyrePrice(size: string): Promise<TyrePrice> {
  try {
    return await apiGet<TyrePrice>(`/api/tyre-pricing/${encodeURIComponent(size)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      try {
        const body = JSON.parse(error.body) as { error?: string; message?: string };
        return {
          error: body.error ?? MESSAGES.customQuoteNeeded,
          message: body.message ?? MESSAGES.callForQuote,
          callbackRequired: true,
        };
      } catch {
        // fall through
      }
    }
    return { error: 'API Error', message: MESSAGES.callForQuote, callbackRequired: true };
  }
}

export function useTyrePrice(size: string | null) {
  return useQuery({
    queryKey: ['public', 'tyre-price', size],
    queryFn: () => fetchTyrePrice(size ?? ''),
    enabled: size !== null,
  });
}

export interface PriceQuote {
  items: { description: string; price: string | number }[];
  subtotal: string | number;
  discount: string | number;
  gst: string | number;
  total: string | number;
  callbackRequired: boolean;
  message?: string;
}

export interface QuoteInput {
  serviceType: string;
  tyreSize: string | null;
  quantity: number;
  prepaid: boolean;
}

/** A pricing failure is a price of 0 with the call-for-a-quote message (spec section 8). */
export const FAILED_QUOTE: PriceQuote = {
  items: [],
  subtotal: 0,
  discount: 0,
  gst: 0,
  total: 0,
  callbackRequired: true,
  message: MESSAGES.callForQuote,
};

export async function fetchQuote(input: QuoteInput): Promise<PriceQuote> {
  try {
    return await apiJson<PriceQuote>('POST', '/api/pricing/quote', {
      serviceType: input.serviceType,
      tyreSize: input.tyreSize,
      quantity: input.quantity,
      prepaid: input.prepaid,
    });
  } catch {
    return FAILED_QUOTE;
  }
}

export const quoteKey = (input: QuoteInput) => ['public', 'quote', input] as const;

export function useQuote(input: QuoteInput) {
  return useQuery({
    queryKey: quoteKey(input),
    queryFn: () => fetchQuote(input),
    enabled: input.serviceType !== '',
    // While a new price loads the previous one stays on screen; it is never used for the booking itself
    // (see quoteFor).
    placeholderData: (previous) => previous,
  });
}

/**
 * The quote for exactly this input, from the cache or the server: what the booking is made with. The quote on
 * screen may still be the previous input's (e.g. the prepaid price just after switching to pay on site).
 */
export function quoteFor(queryClient: QueryClient, input: QuoteInput): Promise<PriceQuote> {
  return queryClient.fetchQuery({ queryKey: quoteKey(input), queryFn: () => fetchQuote(input) });
}

// ------------------------------------------------------------------------------------------------ bookings

export interface BookingPayload {
  customer: { name: string; email: string; phone: string };
  vehicle: { make: string; model: string; year: number; registration: string };
  job: {
    serviceType: string;
    scheduledDate: string;
    timeSlot: string;
    address: string;
    suburb: string;
    postcode: string;
    tyreSize: string | null;
    tyreQuantity: number | null;
    notes: string | null;
    paymentMethod: 'onsite' | 'prepaid';
    customerValue?: string;
    status?: 'new';
  };
}

export interface QuoteAnswer {
  bookingToken: string;
  amount: string;
  currency: string;
  scheduledDate: string;
  timeSlot?: string;
  expiresAt?: string;
  jobId?: string;
  jobNumber?: string;
}

export interface BookingAnswer {
  jobId: string;
  jobNumber: string;
}

export function createQuote(payload: BookingPayload, idempotencyKey: string): Promise<QuoteAnswer> {
  return apiJson<QuoteAnswer>('POST', '/api/bookings/quote', payload, { idempotencyKey });
}

export function createBooking(payload: BookingPayload, idempotencyKey: string): Promise<BookingAnswer> {
  return apiJson<BookingAnswer>('POST', '/api/bookings', payload, { idempotencyKey });
}

export function uploadPhotos(jobId: string, files: readonly File[]): Promise<unknown> {
  const form = new FormData();
  form.append('type', 'tyre-condition');
  for (const file of files) form.append('photos', file, file.name);
  return apiUpload(`/api/bookings/${encodeURIComponent(jobId)}/photos`, form);
}

// ----------------------------------------------------------------------------------------------- addresses

export interface AddressSuggestion {
  streetAddress: string;
  fullAddress: string;
  suburb: string;
  postcode: string;
}

export function fetchAddressSuggestions(
  query: string,
  sessionToken: string,
  signal?: AbortSignal,
): Promise<AddressSuggestion[]> {
  return apiGet<AddressSuggestion[]>('/api/addresses/suggestions', {
    query: { q: query, sessionToken },
    signal,
  });
}

export const newKey = newIdempotencyKey;
