import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { billingApi } from './client';
import { failureToast } from './mutation-toasts';

/**
 * Billing's refunds of cancelled prepaid bookings (issue 18): one per cancellation, requested from Stripe by billing's
 * refund worker and settled by its webhooks. A failed one shows its last error and can be asked for again.
 */
const REFUNDS_KEY = ['/api/dashboard/refunds'] as const;
/** Refunds settle in the background (worker, webhooks): the list follows them. */
const REFUNDS_REFRESH_MS = 15_000;

export function useRefunds(limit = 20, enabled = true) {
  return useQuery({
    queryKey: [...REFUNDS_KEY, limit],
    queryFn: () => billingApi.page('/api/dashboard/refunds', { query: { limit, offset: 0 } }),
    refetchInterval: REFUNDS_REFRESH_MS,
    enabled,
  });
}

export function useRetryRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => billingApi.post('/api/dashboard/refunds/{id}/retry', { params: { id } }),
    meta: failureToast({ errorTitle: 'Retry Failed', errorFallback: 'The refund could not be retried.' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: REFUNDS_KEY }),
  });
}
