import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * false while rendering on the server and while hydrating, true afterwards. For what depends on the browser
 * only (the query string, today's date): rendering it during hydration would not match the prerendered HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
