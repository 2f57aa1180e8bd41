import { useQuery } from '@tanstack/react-query';
import { gatewayApi } from '../api/client';
import type { StaffUser } from '../api/types';

/** Session user as the gateway answers GET /api/user and POST /api/login (spec section 3). */
export type SessionUser = StaffUser;

export const USER_QUERY_KEY = ['/api/user'] as const;

/** The signed-in user, null when there is none (GET /api/user answering 401 means no session). */
export function useSessionUser() {
  return useQuery<SessionUser | null>({
    queryKey: USER_QUERY_KEY,
    queryFn: () => gatewayApi.getIfSignedIn('/api/user'),
  });
}
