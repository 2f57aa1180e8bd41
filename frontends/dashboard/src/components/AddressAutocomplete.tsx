import { useEffect, useRef, useState } from 'react';
import { AutoComplete, Input } from 'antd';
import { newIdempotencyKey } from '@tyres/platform';
import { fetchAddressSuggestions } from '../api/bookings';
import type { AddressSuggestion } from '../api/types';
import { ADDRESS_DEBOUNCE_MS, ADDRESS_MAX_SUGGESTIONS, ADDRESS_MIN_CHARS } from '../lib/constants';

const NO_SUGGESTIONS: AddressSuggestion[] = [];

export const SUGGESTIONS_UNAVAILABLE = 'Address suggestions unavailable - please enter manually';

/**
 * Street address with suggestions: asked for after 3+ characters and 300 ms without typing, first 5 shown;
 * choosing one hands the whole suggestion to onSelect (which fills address, suburb and postcode).
 */
export function AddressAutocomplete({
  id,
  value,
  onChange,
  onBlur,
  onSelect,
  status,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  onSelect: (suggestion: AddressSuggestion) => void;
  status?: 'error';
  describedBy?: string;
}) {
  const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([]);
  const [failed, setFailed] = useState(false);
  const skipNext = useRef(false);
  // One address-lookup session per address entered: made on the first lookup, ended by a pick.
  const sessionToken = useRef<string | null>(null);

  useEffect(() => {
    if (skipNext.current) {
      skipNext.current = false;
      return;
    }
    const q = value.trim();
    // Too short to ask: nothing is fetched, and what was found before is not shown (see `shown` below).
    if (q.length < ADDRESS_MIN_CHARS) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      sessionToken.current ??= newIdempotencyKey();
      fetchAddressSuggestions(q, controller.signal, sessionToken.current)
        .then((list) => {
          setFailed(false);
          setSuggestions(list.slice(0, ADDRESS_MAX_SUGGESTIONS));
        })
        .catch((error: unknown) => {
          if ((error as { name?: string })?.name === 'AbortError') return;
          setFailed(true);
          setSuggestions([]);
        });
    }, ADDRESS_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value]);

  const shown = value.trim().length >= ADDRESS_MIN_CHARS ? suggestions : NO_SUGGESTIONS;
  const describedByIds =
    [describedBy, failed ? `${id}-hint` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <>
      <AutoComplete
        value={value}
        options={shown.map((s) => ({ value: s.fullAddress, label: s.fullAddress }))}
        onChange={(text: string) => {
          // Typed below the minimum: forget the old suggestions, so they do not come back with the next letters.
          if (text.trim().length < ADDRESS_MIN_CHARS) setSuggestions(NO_SUGGESTIONS);
          onChange(text);
        }}
        onSelect={(fullAddress: string) => {
          const chosen = suggestions.find((s) => s.fullAddress === fullAddress);
          if (!chosen) return;
          skipNext.current = true;
          sessionToken.current = null;
          setSuggestions([]);
          onSelect(chosen);
        }}
        style={{ width: '100%' }}
      >
        <Input
          id={id}
          onBlur={onBlur}
          status={status}
          autoComplete="off"
          placeholder="Start typing the street address"
          aria-invalid={status === 'error' ? true : undefined}
          aria-describedby={describedByIds}
        />
      </AutoComplete>
      {failed && (
        <p id={`${id}-hint`} className="dash-hint" role="status">
          {SUGGESTIONS_UNAVAILABLE}
        </p>
      )}
    </>
  );
}
