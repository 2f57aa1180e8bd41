import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestBodyOf } from '@tyres/platform';
import type { paths as GatewayPaths } from '@tyres/platform/api-types/gateway';
import { gatewayApi } from './client';
import { keys } from './keys';
import { failureToast } from './mutation-toasts';

/** Staff accounts (gateway: GET/POST /api/admin/users, PATCH /api/admin/users/{id}/status). Admins only. */

export function useStaffUsers() {
  return useQuery({ queryKey: keys.users, queryFn: () => gatewayApi.get('/api/admin/users') });
}

/** The Add User form; a blank email is sent as none. */
export type NewUserInput = Required<RequestBodyOf<GatewayPaths, '/api/admin/users', 'post'>> & {
  email: string;
};

export function useUserMutations() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.users }),
      queryClient.invalidateQueries({ queryKey: keys.technicians }),
    ]);
  return {
    create: useMutation({
      mutationFn: (input: NewUserInput) =>
        gatewayApi.post('/api/admin/users', { body: { ...input, email: input.email.trim() || undefined } }),
      meta: failureToast({ errorTitle: 'Registration Failed', errorFallback: 'Failed to register user.' }),
      onSettled: refresh,
    }),
    setActive: useMutation({
      mutationFn: (input: { id: string; isActive: boolean }) =>
        gatewayApi.patch('/api/admin/users/{userId}/status', {
          params: { userId: input.id },
          body: { isActive: input.isActive },
        }),
      meta: failureToast({ errorTitle: 'Update Failed', errorFallback: 'Failed to update user status.' }),
      onSettled: refresh,
    }),
  };
}
