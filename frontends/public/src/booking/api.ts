/** The booking dialog's calls (spec section 7, "Public"), through the one API client of @tyres/platform. */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { isServiceType } from '@tyres/kernel';
import { ApiError, newIdempotencyKey } from '@tyres/platform/api';
import type { components, paths } from '@tyres/platform/api-types/booking';
import { typedApi, type RequestBodyOf } from '@tyres/platform/typed-api';
import { MESSAGES } from './schema';

/** The booking service's calls, typed by its OpenAPI document (`npm run api:types`). */
const booking = typedApi<paths>();
type Schemas = components['schemas'];

/** A slot of a date with its availability (GET /api/time-slots). */
export type TimeSlotState = Schemas['PublicSlot'];

export const timeSlotsKey = (date: string) => ['public', 'time-slots', date] as const;
export const TIME_SLOTS_ROOT = ['public', 'time-slots'] as const;

export function fetchTimeSlots(date: string): Promise<TimeSlotState[]> {
  return booking.get('/api/time-slots', { query: { date } });
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

/** A size's price (200), or what its 404 says: no price, call for a quote. */
export type TyrePrice =
  | (Schemas['TyrePrice'] & { callbackRequired?: false })
  | (Schemas['CustomQuoteNeeded'] & { price?: undefined });

/** GET /api/tyre-pricing/{size}: a price, or on 404 the error object; any other failure is "API Error". */
export async function fetchTyrePrice(size: string): Promise<TyrePrice> {
  try {
    return await booking.get('/api/tyre-pricing/{tyreSize}', { params: { tyreSize: size } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      try {
        const body = JSON.parse(error.body) as Partial<Schemas['CustomQuoteNeeded']>;
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

/** POST /api/pricing/quote: the server's price (spec section 8). */
export type PriceQuote = Schemas['PriceQuote'];

export interface QuoteInput {
  serviceType: string;
  tyreSize: string | null;
  quantity: number;
  prepaid: boolean;
}

/** A pricing failure is a price of 0 with the call-for-a-quote message (spec section 8). */
export const FAILED_QUOTE: PriceQuote = {
  items: [],
  subtotal: '0.00',
  discount: '0.00',
  gst: '0.00',
  total: '0.00',
  callbackRequired: true,
  message: MESSAGES.callForQuote,
};

export async function fetchQuote(input: QuoteInput): Promise<PriceQuote> {
  // Only a known service can be priced (booking refuses anything else with a 400: the same answer).
  const { serviceType } = input;
  if (!isServiceType(serviceType)) return FAILED_QUOTE;
  try {
    return await booking.post('/api/pricing/quote', {
      body: {
        serviceType,
        tyreSize: input.tyreSize,
        quantity: input.quantity,
        prepaid: input.prepaid,
      },
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

/** POST /api/bookings and POST /api/bookings/quote: the customer booking form, as booking documents it. */
export type BookingPayload = RequestBodyOf<paths, '/api/bookings', 'post'>;
/** A prepaid booking's quote: the token checkout pays with. */
export type QuoteAnswer = Schemas['PrepaidQuote'];
/** An on-site booking, made. */
export type BookingAnswer = Schemas['BookingConfirmation'];

export function createQuote(payload: BookingPayload, idempotencyKey: string): Promise<QuoteAnswer> {
  return booking.post('/api/bookings/quote', { body: payload, idempotencyKey });
}

export function createBooking(payload: BookingPayload, idempotencyKey: string): Promise<BookingAnswer> {
  return booking.post('/api/bookings', { body: payload, idempotencyKey });
}

export function uploadPhotos(jobId: string, files: readonly File[]) {
  const form = new FormData();
  form.append('type', 'tyre-condition');
  for (const file of files) form.append('photos', file, file.name);
  return booking.upload('/api/bookings/{jobId}/photos', form, { params: { jobId } });
}

// ----------------------------------------------------------------------------------------------- addresses

export type AddressSuggestion = Schemas['AddressSuggestion'];

export function fetchAddressSuggestions(
  query: string,
  sessionToken: string,
  signal?: AbortSignal,
): Promise<AddressSuggestion[]> {
  return booking.get('/api/addresses/suggestions', {
    query: { q: query, sessionToken },
    signal,
  });
}

export const newKey = newIdempotencyKey;
