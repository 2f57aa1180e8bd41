import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { addDays, addMonths, dayOfWeek, isWeekend } from '@tyres/kernel';
import { formatLongDate, monthName, weekdayName } from '../site/format';

/**
 * A month calendar for picking the service date: weeks start on Sunday (spec section 9), days before `min`
 * (today in Perth) and weekends (the business works Monday to Friday; the booking service refuses them too)
 * cannot be chosen. Keyboard: arrows move by day and week, Home/End to the start/end of the
 * week, Page Up/Down by month, Enter or Space picks. One day is in the tab order at a time (roving tabindex).
 */
interface CalendarProps {
  value: string;
  min: string;
  onChange: (date: string) => void;
  /** id of the element describing an error, if any. */
  errorId?: string;
  labelledBy?: string;
}

const toIso = (d: Date) => d.toISOString().slice(0, 10);
const parseIso = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
// Date arithmetic is the kernel calendar's (the one the booking service checks dates with, issue 13).
/** Saturday and Sunday: closed (spec section 1: hours Monday to Friday 8am-4pm). */
const isClosedDay = isWeekend;

function monthGrid(year: number, month: number): (string | null)[][] {
  const first = new Date(Date.UTC(year, month, 1));
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: first.getUTCDay() }, () => null);
  for (let day = 1; day <= days; day++) cells.push(toIso(new Date(Date.UTC(year, month, day))));
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

export function Calendar({ value, min, onChange, errorId, labelledBy }: CalendarProps) {
  const headingId = useId();
  const [focused, setFocused] = useState(value && value >= min ? value : min);
  const moved = useRef(false);
  const grid = useRef<HTMLTableElement>(null);
  const view = parseIso(focused);
  const year = view.getUTCFullYear();
  const month = view.getUTCMonth();
  const minMonth = min.slice(0, 7);
  const canGoBack = `${year}-${String(month + 1).padStart(2, '0')}` > minMonth;

  // A newly chosen (or restored) date brings its month into view: state adjusted while rendering, when the props
  // change (https://react.dev/learn/you-might-not-need-an-effect#adjusting-some-state-when-a-prop-changes).
  const [shownFor, setShownFor] = useState({ value, min });
  if (shownFor.value !== value || shownFor.min !== min) {
    setShownFor({ value, min });
    if (value && value >= min) setFocused(value);
  }

  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${focused}"]`)?.focus();
  }, [focused]);

  const move = (next: string) => {
    const clamped = next < min ? min : next;
    moved.current = true;
    setFocused(clamped);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, date: string) => {
    const weekday = dayOfWeek(date);
    const keys: Record<string, () => string> = {
      ArrowLeft: () => addDays(date, -1),
      ArrowRight: () => addDays(date, 1),
      ArrowUp: () => addDays(date, -7),
      ArrowDown: () => addDays(date, 7),
      Home: () => addDays(date, -weekday),
      End: () => addDays(date, 6 - weekday),
      PageUp: () => addMonths(date, -1),
      PageDown: () => addMonths(date, 1),
    };
    const target = keys[event.key];
    if (!target) return;
    event.preventDefault();
    move(target());
  };

  return (
    <div className="bk-cal">
      <div className="bk-cal__head">
        <button
          type="button"
          className="bk-cal__nav"
          aria-label="Previous month"
          disabled={!canGoBack}
          onClick={() =>
            setFocused((f) => {
              const prev = addMonths(f, -1);
              return prev < min ? min : prev;
            })
          }
        >
          ‹
        </button>
        <p id={headingId} className="bk-cal__month" aria-live="polite">
          {monthName(month)} {year}
        </p>
        <button
          type="button"
          className="bk-cal__nav"
          aria-label="Next month"
          onClick={() => setFocused((f) => addMonths(f, 1))}
        >
          ›
        </button>
      </div>
      <table
        ref={grid}
        className="bk-cal__grid"
        role="grid"
        aria-labelledby={labelledBy ? `${labelledBy} ${headingId}` : headingId}
        aria-describedby={errorId}
      >
        <thead>
          <tr>
            {[0, 1, 2, 3, 4, 5, 6].map((d) => (
              <th key={d} scope="col" abbr={weekdayName(d)}>
                {weekdayName(d).slice(0, 2)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(year, month).map((week, i) => (
            <tr key={i}>
              {week.map((date, j) =>
                date ? (
                  <td key={date}>
                    <button
                      type="button"
                      className="bk-cal__day"
                      data-date={date}
                      tabIndex={date === focused ? 0 : -1}
                      aria-label={
                        isClosedDay(date) ? `${formatLongDate(date)} (closed)` : formatLongDate(date)
                      }
                      aria-pressed={date === value}
                      aria-disabled={date < min || isClosedDay(date) || undefined}
                      aria-current={date === min ? 'date' : undefined}
                      onKeyDown={(event) => onKeyDown(event, date)}
                      onFocus={() => setFocused(date)}
                      onClick={() => {
                        if (date < min || isClosedDay(date)) return;
                        onChange(date);
                      }}
                    >
                      {Number(date.slice(8))}
                    </button>
                  </td>
                ) : (
                  <td key={`empty-${j}`} aria-hidden="true" />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
