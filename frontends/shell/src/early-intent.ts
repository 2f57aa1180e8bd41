/**
 * Prerendered pages show their booking buttons before any script has run, and React attaches to them only
 * once the public remote is loaded. A press in between is remembered here (a capturing listener installed by
 * the shell's entry, before anything else loads) and handed to the public site, which opens the booking
 * dialog when it is live (public/src/site/early-intent.ts). Until then the page shows it is busy.
 *
 * Imported by the entry before sharing is initialised: must not import react or any other shared module.
 */
export function captureEarlyIntents(): void {
  if (typeof document === 'undefined') return;
  const onClick = (event: MouseEvent) => {
    if (window.__TYRES_LIVE__) return;
    if (!document.getElementById('root')?.hasAttribute('data-prerendered')) return;
    // The phone menu is a native <dialog>: it can be opened and closed before React is attached, and the
    // public site picks up its state when it hydrates (MobileMenu reads dialog.open on mount).
    const dialogButton =
      event.target instanceof Element ? event.target.closest('[data-early-open],[data-early-close]') : null;
    if (dialogButton) {
      const opens = dialogButton.getAttribute('data-early-open');
      const dialog = document.getElementById(opens ?? dialogButton.getAttribute('data-early-close') ?? '');
      if (dialog instanceof HTMLDialogElement) {
        if (opens && !dialog.open) dialog.showModal();
        if (!opens && dialog.open) dialog.close();
      }
      return;
    }
    const target = event.target instanceof Element ? event.target.closest('[data-intent="book"]') : null;
    if (!target) return;
    const serviceType = target.getAttribute('data-service') ?? undefined;
    window.__TYRES_EARLY_INTENT__ = { type: 'book', ...(serviceType ? { serviceType } : {}) };
    document.documentElement.setAttribute('data-tyres-pending', 'book');
  };
  document.addEventListener('click', onClick, true);
}

declare global {
  interface Window {
    __TYRES_EARLY_INTENT__?: { type: 'book'; serviceType?: string } | null;
    /** Set by the public site once it is hydrated: from then on React handles the buttons. */
    __TYRES_LIVE__?: boolean;
  }
}
