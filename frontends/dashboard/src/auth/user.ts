import { useQuery } from '@tanstack/react-query';
import { getQueryFn } from '@tyres/platform';

/** Session user as the gateway answers GET /api/user and POST /api/login (spec section 3). */
export interface SessionUser {
  id: string | number;
  username: string;
  email?: string | null;
  role: 'admin' | 'technician';
  isActive?: boolean;
}

export const USER_QUERY_KEY = ['/api/user'] as const;

/** The signed-in user, null when there is none (GET /api/user answering 401 means no session). */
export function useSessionUser() {
  return useQuery<SessionUser | null>({
    queryKey: USER_QUERY_KEY,
    queryFn: getQueryFn<SessionUser>({ on401: 'returnNull' }),
  });
}
