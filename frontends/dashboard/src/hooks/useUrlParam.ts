import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A piece of screen state kept in the query string (the tab, its filter, page, the open job), so a reload or a
 * shared link shows the same thing. Other parameters (e.g. domain=business) are kept. The default value is
 * left out of the URL.
 */
export function useUrlParam(
  name: string,
  defaultValue = '',
): [string, (value: string | null, extra?: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get(name) ?? defaultValue;
  const setValue = useCallback(
    (next: string | null, extra: Record<string, string | null> = {}) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const [key, v] of Object.entries({ [name]: next, ...extra })) {
            if (v === null || v === '' || (key === name && v === defaultValue)) updated.delete(key);
            else updated.set(key, v);
          }
          return updated;
        },
        { replace: false },
      );
    },
    [name, defaultValue, setParams],
  );
  return [value, setValue];
}

/** A positive page number from the URL (1 when absent or malformed). */
export function usePageParam(name = 'page'): [number, (page: number) => void] {
  const [raw, set] = useUrlParam(name, '1');
  const page = Math.max(1, Math.floor(Number(raw)) || 1);
  return [page, (p: number) => set(String(p))];
}
