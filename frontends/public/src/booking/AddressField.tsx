import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { fetchAddressSuggestions, newKey, type AddressSuggestion } from './api';
import { FieldError } from './fields';
import { MESSAGES } from './schema';

export const ADDRESS_MIN_CHARS = 3;
export const ADDRESS_DEBOUNCE_MS = 300;
export const ADDRESS_MAX_SHOWN = 5;

interface AddressFieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  onSelect: (suggestion: AddressSuggestion) => void;
  error?: string;
  inputRef?: (el: HTMLInputElement | null) => void;
  name: string;
}

/**
 * Street address with suggestions (spec sections 5, 7, 9): asked for after 3 characters and 300 ms without
 * typing, at most 5 shown; picking one fills address, suburb and postcode. If suggestions fail the customer is
 * told to type the address. ARIA 1.2 combobox with a listbox popup.
 */
export function AddressField({
  value,
  onChange,
  onBlur,
  onSelect,
  error,
  inputRef,
  name,
}: AddressFieldProps) {
  const id = useId();
  const listId = `${id}-list`;
  const errorId = `${id}-error`;
  const statusId = `${id}-status`;
  const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [unavailable, setUnavailable] = useState(false);
  const session = useRef(newKey());
  const skipNext = useRef(false);
  const query = value.trim();
  const searching = query.length >= ADDRESS_MIN_CHARS;
  // Under 3 characters nothing is suggested (the list from a longer query is not shown either).
  const shown = searching ? suggestions : [];
  const listOpen = open && shown.length > 0;

  useEffect(() => {
    if (skipNext.current) {
      // The value was just set by choosing a suggestion: do not search for it again.
      skipNext.current = false;
      return;
    }
    if (!searching) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchAddressSuggestions(query, session.current, controller.signal)
        .then((list) => {
          const shown = Array.isArray(list) ? list.slice(0, ADDRESS_MAX_SHOWN) : [];
          setUnavailable(false);
          setSuggestions(shown);
          setActive(-1);
          setOpen(shown.length > 0);
        })
        .catch((err: unknown) => {
          if (controller.signal.aborted || (err instanceof DOMException && err.name === 'AbortError')) return;
          setSuggestions([]);
          setOpen(false);
          setUnavailable(true);
        });
    }, ADDRESS_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, searching]);

  const choose = (suggestion: AddressSuggestion) => {
    skipNext.current = true;
    setOpen(false);
    setActive(-1);
    setSuggestions([]);
    session.current = newKey();
    onSelect(suggestion);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' && shown.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i + 1) % shown.length);
    } else if (event.key === 'ArrowUp' && shown.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((i) => (i <= 0 ? shown.length - 1 : i - 1));
    } else if (event.key === 'Enter' && listOpen && active >= 0 && shown[active]) {
      event.preventDefault();
      choose(shown[active]);
    } else if (event.key === 'Escape' && listOpen) {
      // Close the list, not the dialog.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  const describedBy = [statusId, error ? errorId : undefined].filter(Boolean).join(' ');
  return (
    <div className="bk-field bk-combo">
      <label htmlFor={id} className="bk-label">
        Street address
      </label>
      <input
        ref={inputRef}
        id={id}
        name={name}
        className={`bk-input${error ? ' bk-input--invalid' : ''}`}
        type="text"
        autoComplete="street-address"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={listOpen}
        aria-controls={listId}
        aria-activedescendant={listOpen && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        value={value}
        placeholder="Start typing your address"
        onChange={(event) => {
          if (event.target.value.trim().length < ADDRESS_MIN_CHARS) {
            // Too short to search: the old list goes (a longer query later starts from an empty list).
            setSuggestions([]);
            setOpen(false);
            setActive(-1);
          }
          onChange(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => {
          onBlur();
          // Let a click on a suggestion land before the list closes.
          setTimeout(() => setOpen(false), 150);
        }}
        onFocus={() => shown.length > 0 && setOpen(true)}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Address suggestions"
        className="bk-combo__list"
        hidden={!listOpen}
      >
        {shown.map((s, i) => (
          // The keyboard chooses on the combobox input (arrow keys and Enter, aria-activedescendant); options
          // never take focus (WAI-ARIA combobox pattern), so a key handler here could never run.
          // eslint-disable-next-line jsx-a11y-x/click-events-have-key-events
          <li
            key={`${s.fullAddress}-${i}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={`bk-combo__option${i === active ? ' bk-combo__option--active' : ''}`}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(s)}
          >
            <span className="bk-combo__street">{s.streetAddress}</span>
            <span className="bk-combo__rest">
              {s.suburb} {s.postcode}
            </span>
          </li>
        ))}
      </ul>
      <p id={statusId} className={unavailable ? 'bk-hint bk-hint--warn' : 'bk-sr-only'} role="status">
        {unavailable
          ? MESSAGES.addressUnavailable
          : listOpen
            ? `${shown.length} address suggestion${shown.length === 1 ? '' : 's'}, use the arrow keys to choose`
            : ''}
      </p>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
