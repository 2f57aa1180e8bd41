import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiJson } from '@tyres/platform';
import { invalidateJobs, invalidateSlots } from './jobs';
import { failureToast } from './mutation-toasts';
import type { AddressSuggestion } from './types';

/** Booking service calls used by the New Booking screen. */

export interface StaffBookingRequest {
  customer: { name: string; email: string; phone: string };
  vehicle: { make: string; model: string; year: number; color: string; registration: string };
  job: {
    serviceType: string;
    scheduledDate: string;
    timeSlot: string;
    address: string;
    suburb: string;
    postcode: string;
    tyreSize?: string;
    tyreQuantity: number;
    tyreBrand?: string;
    notes?: string;
    paymentMethod: string;
  };
}

/** POST /api/bookings (staff form); success refreshes the cached jobs-with-details and time-slot data. */
export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffBookingRequest) =>
      apiJson<{ jobId?: string; jobNumber: string }>('POST', '/api/bookings', body),
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
  return useQuery<{ price: string } | null>({
    queryKey: ['/api/tyre-pricing', tyreSize ?? '', preferred],
    queryFn: async () => {
      try {
        return await apiGet<{ price: string }>(`/api/tyre-pricing/${encodeURIComponent(tyreSize ?? '')}`, {
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
 * Address suggestions (booking service; 3+ characters, the first 5 shown). `sessionToken` groups one address
 * entry's lookups, as the public dialog does: the provider bills a typed-and-picked address as one session.
 */
export function fetchAddressSuggestions(
  q: string,
  signal?: AbortSignal,
  sessionToken?: string,
): Promise<AddressSuggestion[]> {
  return apiGet<AddressSuggestion[]>('/api/addresses/suggestions', { query: { q, sessionToken }, signal });
}
