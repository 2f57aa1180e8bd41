import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiJson } from '@tyres/platform';
import { invalidateSlots } from './jobs';
import { keys } from './keys';
import { failureToast } from './mutation-toasts';
import type { TimeSlot } from './types';

/** Booking service slot calls (spec section 7). Dates are `yyyy-MM-dd` Perth dates. */

/** The time slot management tab: every slot of a date with its state (GET /api/dashboard/timeslots/{date}). */
export function useAdminSlots(date: string | null) {
  return useQuery<TimeSlot[]>({ queryKey: keys.adminSlots(date ?? ''), enabled: Boolean(date) });
}

/** The staff booking form: GET /api/time-slots/availability?date= (entries with slot, isAvailable). */
export function useAvailability(date: string | null) {
  return useQuery<TimeSlot[]>({
    queryKey: keys.availability(date ?? ''),
    queryFn: () => apiGet<TimeSlot[]>('/api/time-slots/availability', { query: { date } }),
    enabled: Boolean(date),
  });
}

/** The reschedule dialog: free slots of a date (GET /api/time-slots/{isoDate}, an array of {slot}). */
export function useFreeSlots(date: string | null) {
  return useQuery<{ slot: string }[]>({ queryKey: keys.freeSlots(date ?? ''), enabled: Boolean(date) });
}

const slotPath = (date: string, slot: string) =>
  `/api/dashboard/timeslots/${encodeURIComponent(date)}/${encodeURIComponent(slot)}`;

export function useSlotMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateSlots(queryClient);
  return {
    block: useMutation({
      mutationFn: (input: { date: string; slot: string; reason: string }) =>
        apiJson<TimeSlot>('PATCH', `${slotPath(input.date, input.slot)}/block`, { reason: input.reason }),
      meta: failureToast({ errorTitle: 'Block Failed', errorFallback: 'Failed to block time slot.' }),
      onSettled: refresh,
    }),
    unblock: useMutation({
      mutationFn: (input: { date: string; slot: string }) =>
        apiJson<TimeSlot>('PATCH', `${slotPath(input.date, input.slot)}/unblock`, {}),
      meta: failureToast({ errorTitle: 'Unblock Failed', errorFallback: 'Failed to unblock time slot.' }),
      onSettled: refresh,
    }),
  };
}
