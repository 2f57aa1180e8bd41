/**
 * A booking button pressed on a prerendered page before React has attached to it would do nothing. The shell
 * (shell/src/early-intent.ts) records such a press in window.__TYRES_EARLY_INTENT__; the public site takes it
 * once it is live and opens the booking dialog.
 */
export interface EarlyIntent {
  type: 'book';
  serviceType?: string;
}

declare global {
  interface Window {
    __TYRES_EARLY_INTENT__?: EarlyIntent | null;
    __TYRES_LIVE__?: boolean;
  }
}

export function takeEarlyIntent(): EarlyIntent | null {
  if (typeof window === 'undefined') return null;
  const intent = window.__TYRES_EARLY_INTENT__ ?? null;
  window.__TYRES_EARLY_INTENT__ = null;
  window.__TYRES_LIVE__ = true;
  document.documentElement.removeAttribute('data-tyres-pending');
  return intent;
}
