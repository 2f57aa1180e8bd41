import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api';

/**
 * The QueryClient the shell owns and shares with every remote (spec section 7): the default query
 * function GETs the key joined by '/', nothing is retried, nothing refetches on focus or polls, and
 * cached data never goes stale unless a query says otherwise (e.g. the invoice list refetches every 30 s).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
