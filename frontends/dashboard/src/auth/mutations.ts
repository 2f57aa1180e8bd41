import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RequestBodyOf } from '@tyres/platform';
import type { paths as GatewayPaths } from '@tyres/platform/api-types/gateway';
import { gatewayApi } from '../api/client';
import { USER_QUERY_KEY, type SessionUser } from './user';
import { failureToast } from '../api/mutation-toasts';

export type LoginInput = RequestBodyOf<GatewayPaths, '/api/login', 'post'>;

interface Callbacks<T> {
  onSuccess?: (data: T) => void;
  onError?: (error: Error) => void;
}

// Callbacks are mutation-level (not per mutate() call) so they still run when a successful login
// unmounts the page that started it.

export function useLogin(callbacks: Callbacks<SessionUser> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => gatewayApi.post('/api/login', { body: input }),
    onSuccess: (user) => {
      callbacks.onSuccess?.(user);
      queryClient.setQueryData(USER_QUERY_KEY, user);
    },
    onError: callbacks.onError,
  });
}

export function useLogout(callbacks: Callbacks<void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await gatewayApi.post('/api/logout');
    },
    meta: failureToast({
      errorTitle: 'Logout failed',
      errorFallback: 'Failed to log out. Please try again.',
    }),
    onSuccess: () => {
      // Nothing cached for the previous user may leak into the next session.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== USER_QUERY_KEY[0] });
      queryClient.setQueryData(USER_QUERY_KEY, null);
      callbacks.onSuccess?.();
    },
    onError: callbacks.onError,
  });
}
