import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, type RequestBodyOf } from '@tyres/platform';
import type { paths as BookingPaths } from '@tyres/platform/api-types/booking';
import { bookingApi } from './client';
import { invalidateJobs, invalidateSlots } from './jobs';
import { failureToast } from './mutation-toasts';

/** Booking service calls used by the New Booking screen. */

/** POST /api/bookings as booking documents it (the public dialog's form or the staff form). */
export type StaffBookingRequest = RequestBodyOf<BookingPaths, '/api/bookings', 'post'>;

/** POST /api/bookings (staff form); success refreshes the cached jobs-with-details and time-slot data. */
export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffBookingRequest) => bookingApi.post('/api/bookings', { body }),
    meta: failureToast({
      errorTitle: 'Booking Failed',
      errorFallback: 'Failed to create booking. Please try again.',
    }),
    onSuccess: () => Promise.all([invalidateJobs(queryClient), invalidateSlots(queryClient)]),
  });
}

/**
 * GET /api/tyre-pricing/{size}?brand=: the price of one tyre (the preferred brand's when it stocks the size, as the
 * booking is priced), or null when the size needs a call-back quote (404 with `{ error, message, callbackRequired }`).
 */
export function useTyrePrice(tyreSize: string | null, brand = '') {
  const preferred = brand.trim();
  return useQuery({
    queryKey: ['/api/tyre-pricing', tyreSize ?? '', preferred],
    queryFn: async () => {
      try {
        return await bookingApi.get('/api/tyre-pricing/{tyreSize}', {
          params: { tyreSize: tyreSize ?? '' },
          query: { brand: preferred || undefined },
        });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    enabled: Boolean(tyreSize),
  });
}

/**
 * GET /api/pricing: the price list in force (issue 19: admins change it), for the staff form's estimate. Kept a
 * minute; until it answers (or if it fails) the estimate uses the code's list.
 */
export function usePriceList() {
  return useQuery({
    queryKey: ['/api/pricing'],
    queryFn: () => bookingApi.get('/api/pricing', {}),
    staleTime: 60_000,
  });
}

/**
 * Address suggestions (booking service; 3+ characters, the first 5 shown). `sessionToken` groups one address
 * entry's lookups, as the public dialog does: the provider bills a typed-and-picked address as one session.
 */
export function fetchAddressSuggestions(q: string, signal?: AbortSignal, sessionToken?: string) {
  return bookingApi.get('/api/addresses/suggestions', { query: { q, sessionToken }, signal });
}
