import { useSyncExternalStore } from 'react';

/** Below this width the dashboard shows cards instead of tables (antd's md breakpoint). */
export const DESKTOP_QUERY = '(min-width: 768px)';

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
  const list = window.matchMedia(DESKTOP_QUERY);
  list.addEventListener?.('change', onChange);
  return () => list.removeEventListener?.('change', onChange);
}

function isMobileNow(): boolean {
  if (typeof window === 'undefined' || !window.matchMedia) return false;
  return !window.matchMedia(DESKTOP_QUERY).matches;
}

/**
 * True on phones. Read synchronously from matchMedia (not after an effect), so a phone never renders the desktop
 * table first and then swaps it for cards.
 */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, isMobileNow, () => false);
}
