import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@tyres/platform';
import { keys } from './keys';
import { failureToast } from './mutation-toasts';
import type { StaffUser } from './types';

/** Staff accounts (gateway: GET/POST /api/admin/users, PATCH /api/admin/users/{id}/status). Admins only. */

export function useStaffUsers() {
  return useQuery<StaffUser[]>({ queryKey: keys.users });
}

export interface NewUserInput {
  username: string;
  password: string;
  email: string;
  role: 'admin' | 'technician';
}

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
        apiJson<StaffUser>('POST', '/api/admin/users', { ...input, email: input.email.trim() || undefined }),
      meta: failureToast({ errorTitle: 'Registration Failed', errorFallback: 'Failed to register user.' }),
      onSettled: refresh,
    }),
    setActive: useMutation({
      mutationFn: (input: { id: string; isActive: boolean }) =>
        apiJson<StaffUser>('PATCH', `/api/admin/users/${input.id}/status`, { isActive: input.isActive }),
      meta: failureToast({ errorTitle: 'Update Failed', errorFallback: 'Failed to update user status.' }),
      onSettled: refresh,
    }),
  };
}
