/**
 * Quiet hours (issue 18): between 8 pm and 8 am Perth nothing reaches a customer but the "technician en route"
 * SMS (the technician is on the way now; holding it would defeat it). Any other SMS or email due then waits until
 * 8 am Perth. One rule, used wherever notify queues a message (app/delivery-requests.ts).
 */
import { addDays, perthClock, perthDate, perthInstant } from '@tyres/kernel';

export const QUIET_FROM = '20:00';
export const QUIET_UNTIL = '08:00';

/** The purpose of the SMS the jobs service requests when work starts (services/jobs/src/domain/sms.ts). */
export const EN_ROUTE_PURPOSE = 'technician-en-route';

/** Whether an instant falls in quiet hours: 20:00 inclusive to 08:00 exclusive, Perth wall clock. */
/** The quiet window, Perth wall-clock `HH:mm` from evening to morning; null: no quiet hours. */
export interface QuietWindow {
  from: string;
  until: string;
}
export const DEFAULT_QUIET_WINDOW: QuietWindow = { from: QUIET_FROM, until: QUIET_UNTIL };

/** `20:00-08:00` (config QUIET_HOURS) → the window; `off` → null. */
export function parseQuietWindow(value: string): QuietWindow | null {
  if (value === 'off') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!m)
    throw new RangeError(
      `QUIET_HOURS must be HH:mm-HH:mm (evening to morning) or off, not ${JSON.stringify(value)}`,
    );
  const from = `${m[1]}:${m[2]}`;
  const until = `${m[3]}:${m[4]}`;
  if (from <= until)
    throw new RangeError('QUIET_HOURS runs from an evening time to a morning time (20:00-08:00)');
  return { from, until };
}

export function inQuietHours(instant: Date, window: QuietWindow = DEFAULT_QUIET_WINDOW): boolean {
  const clock = perthClock(instant);
  return clock >= window.from || clock < window.until;
}

/**
 * When a message with this purpose, due at `due`, may go out: `due` itself outside quiet hours (or for the en route
 * SMS), else 8 am Perth on the morning that ends the quiet period.
 */
export function releaseAfterQuietHours(
  due: Date,
  purpose: string,
  window: QuietWindow | null = DEFAULT_QUIET_WINDOW,
): Date {
  if (!window || purpose === EN_ROUTE_PURPOSE || !inQuietHours(due, window)) return due;
  const today = perthDate(due);
  // Evening (20:00-23:59): tomorrow's 8 am; early morning (00:00-07:59): today's.
  const morning = perthClock(due) >= window.from ? addDays(today, 1) : today;
  return perthInstant(morning, window.until);
}
