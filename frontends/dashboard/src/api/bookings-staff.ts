import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bookingApi, jobsApi } from './client';
import { invalidateJobs, invalidateSlots } from './jobs';
import { failureToast } from './mutation-toasts';

/**
 * Booking's staff routes for a job's booking (issue 18): booking owns the slot and the cancellation policy's record,
 * so staff Cancel goes there; booking frees the slot at once and announces BookingCancelled, which the jobs service
 * applies to the job (the dashboard refetches the job once the call returns, and again when its status changed).
 */

/** GET /api/dashboard/bookings/{jobId}/cancellation: the booking's price, what was paid, and the terms now. */
export function useBookingCancellation(jobId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['/api/dashboard/bookings', jobId, 'cancellation'],
    queryFn: () => bookingApi.get('/api/dashboard/bookings/{jobId}/cancellation', { params: { jobId } }),
    enabled,
    // The terms depend on the moment: never show a stale answer when the dialog opens again.
    staleTime: 0,
    gcTime: 0,
  });
}

/**
 * Waits (briefly) until the jobs service shows the job cancelled: it applies booking's BookingCancelled a moment
 * after booking answers, and the lists refetched before that would still show the job as it was.
 */
async function jobCancelled(jobId: string, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const job = await jobsApi.get('/api/dashboard/jobs/{id}', { params: { id: jobId } });
      if (job.status === 'cancelled') return;
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

/** POST /api/dashboard/bookings/{jobId}/cancel { reason, waiveFee }; resolves once the job shows it. */
export function useStaffCancel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { jobId: string; reason: string; waiveFee: boolean }) => {
      const answer = await bookingApi.post('/api/dashboard/bookings/{jobId}/cancel', {
        params: { jobId: input.jobId },
        body: { reason: input.reason, waiveFee: input.waiveFee },
      });
      await jobCancelled(input.jobId);
      return answer;
    },
    meta: failureToast({ errorTitle: 'Cancel Failed', errorFallback: 'Failed to cancel the booking.' }),
    onSettled: () => Promise.all([invalidateJobs(queryClient), invalidateSlots(queryClient)]),
  });
}

/**
 * POST /api/dashboard/bookings/{jobId}/no-show: the customer was not there once the slot had started; charged in
 * full (booking records it as a cancellation of kind no_show). Resolves once the job shows it cancelled.
 */
export function useMarkNoShow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { jobId: string; note?: string }) => {
      const answer = await bookingApi.post('/api/dashboard/bookings/{jobId}/no-show', {
        params: { jobId: input.jobId },
        body: input.note ? { note: input.note } : {},
      });
      await jobCancelled(input.jobId);
      return answer;
    },
    meta: failureToast({ errorTitle: 'Mark No-Show Failed', errorFallback: 'Failed to mark the no-show.' }),
    onSettled: () => Promise.all([invalidateJobs(queryClient), invalidateSlots(queryClient)]),
  });
}
