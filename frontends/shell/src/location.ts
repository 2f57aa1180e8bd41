/**
 * The shell's view of the address bar. The shell no longer wraps everything in react-router (the public site
 * keeps its own small router so that the landing page does not pay for the shared one), so it watches the URL
 * itself: back/forward (popstate) and every pushState/replaceState made by any router in any remote, which are
 * wrapped once to announce themselves (the technique single-spa uses).
 *
 * Imported by the entry before sharing is initialised: must not import react or any other shared module.
 */
export interface ShellLocation {
  pathname: string;
  search: string;
}

const EVENT = 'tyres:locationchange';
let patched = false;

export function watchHistory(): void {
  if (patched || typeof window === 'undefined') return;
  patched = true;
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = window.history[method];
    window.history[method] = function patchedHistoryMethod(
      this: History,
      ...args: Parameters<History['pushState']>
    ) {
      const result = original.apply(this, args);
      window.dispatchEvent(new Event(EVENT));
      return result;
    };
  }
}

export function subscribeLocation(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(EVENT, onChange);
  };
}

/** A string snapshot (useSyncExternalStore compares snapshots with Object.is). */
export function locationKey(): string {
  return `${window.location.pathname}${window.location.search}`;
}

export function parseLocationKey(key: string): ShellLocation {
  const q = key.indexOf('?');
  return q === -1 ? { pathname: key, search: '' } : { pathname: key.slice(0, q), search: key.slice(q) };
}
