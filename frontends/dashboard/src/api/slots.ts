import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bookingApi } from './client';
import { invalidateSlots } from './jobs';
import { keys } from './keys';
import { failureToast } from './mutation-toasts';

/** Booking service slot calls (spec section 7). Dates are `yyyy-MM-dd` Perth dates. */

/** The time slot management tab: every slot of a date with its state (GET /api/dashboard/timeslots/{date}). */
export function useAdminSlots(date: string | null) {
  return useQuery({
    queryKey: keys.adminSlots(date ?? ''),
    queryFn: () => bookingApi.get('/api/dashboard/timeslots/{date}', { params: { date: date ?? '' } }),
    enabled: Boolean(date),
  });
}

/** The staff booking form: GET /api/time-slots/availability?date= (entries with slot, isAvailable). */
export function useAvailability(date: string | null) {
  return useQuery({
    queryKey: keys.availability(date ?? ''),
    queryFn: () => bookingApi.get('/api/time-slots/availability', { query: { date: date ?? '' } }),
    enabled: Boolean(date),
  });
}

/** The reschedule dialog: free slots of a date (GET /api/time-slots/{isoDate}, an array of {slot}). */
export function useFreeSlots(date: string | null) {
  return useQuery({
    queryKey: keys.freeSlots(date ?? ''),
    queryFn: () => bookingApi.get('/api/time-slots/{date}', { params: { date: date ?? '' } }),
    enabled: Boolean(date),
  });
}

export function useSlotMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateSlots(queryClient);
  return {
    block: useMutation({
      mutationFn: (input: { date: string; slot: string; reason: string }) =>
        bookingApi.patch('/api/dashboard/timeslots/{date}/{slot}/block', {
          params: { date: input.date, slot: input.slot },
          body: { reason: input.reason },
        }),
      meta: failureToast({ errorTitle: 'Block Failed', errorFallback: 'Failed to block time slot.' }),
      onSettled: refresh,
    }),
    unblock: useMutation({
      mutationFn: (input: { date: string; slot: string }) =>
        bookingApi.patch('/api/dashboard/timeslots/{date}/{slot}/unblock', {
          params: { date: input.date, slot: input.slot },
        }),
      meta: failureToast({ errorTitle: 'Unblock Failed', errorFallback: 'Failed to unblock time slot.' }),
      onSettled: refresh,
    }),
  };
}
