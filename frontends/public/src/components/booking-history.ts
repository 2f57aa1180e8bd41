/**
 * The booking dialog and the browser's history (phones: the Back button or gesture, a reload).
 *
 * - Opening the dialog adds one history entry for the same address (marked in history.state), so Back closes
 *   the dialog instead of leaving the page and losing what was entered; closing it another way (Esc, the close
 *   button, Done) goes back over that entry, so the history is as before.
 * - While it is open a flag in sessionStorage says so: a reload reopens it with the saved draft
 *   (booking/draft.ts), at the same step.
 */
const MARK = 'tyresBookingDialog';
const OPEN_FLAG = 'tyres.booking.open';
const DRAFT_KEY = 'tyres.booking.draft'; // booking/draft.ts (not imported: that module is in the dialog's chunk)

function session(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Whether the current history entry is the one the dialog added. */
export function dialogEntryOnTop(): boolean {
  if (typeof window === 'undefined') return false;
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[MARK] === true;
}

export function markDialogOpen(): void {
  try {
    session()?.setItem(OPEN_FLAG, '1');
  } catch {
    // storage full or disabled: no reopening after a reload, nothing else changes
  }
  if (!dialogEntryOnTop()) {
    const state: unknown = window.history.state;
    window.history.pushState({ ...(typeof state === 'object' && state ? state : {}), [MARK]: true }, '');
  }
}

/** navigating: a new page replaces the dialog's entry (the checkout), so there is nothing to go back over. */
export function markDialogClosed({ navigating = false }: { navigating?: boolean } = {}): void {
  try {
    session()?.removeItem(OPEN_FLAG);
  } catch {
    // ignore
  }
  if (!navigating && dialogEntryOnTop()) window.history.back();
}

/** The dialog was open, with something entered, when the page was reloaded. */
export function shouldReopenAfterReload(): boolean {
  try {
    const s = session();
    return s?.getItem(OPEN_FLAG) === '1' && s.getItem(DRAFT_KEY) !== null;
  } catch {
    return false;
  }
}
