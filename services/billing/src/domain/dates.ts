import { isCalendarDate, perthDate, perthInstant } from '@tyres/kernel';

/**
 * Billing's date input rules, on the business calendar of @tyres/kernel (Perth dates, `YYYY-MM-DD`, Postgres DATE
 * round trip). What is billing's own: which inputs a form may send, and the four-digit years a stored date keeps.
 */

/** Calendar dates are `YYYY-MM-DD` strings in business time (Australia/Perth); Postgres DATE columns hold them. */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Calendar dates billing stores: four-digit years (Postgres DATE and `YYYY-MM-DD` round-trip). */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

/** True for a real calendar date in `YYYY-MM-DD` form (no 2026-02-30), year 1000 to 9999. */
export function isIsoDate(value: string): boolean {
  if (!isCalendarDate(value)) return false;
  const year = Number(value.slice(0, 4));
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** An ISO date-time's own calendar part (`2026-02-30T10:00:00Z`): V8 would roll it over to March. */
const ISO_DATE_TIME_PREFIX = /^(\d{4}-\d{2}-\d{2})[T ]\d/;

export type DateParseResult = { ok: true; value: IsoDate | null } | { ok: false };

/**
 * Date input of the stored-data rules (spec section 5): a date (`YYYY-MM-DD`), an ISO date-time or any string
 * Date can parse; instants become their Perth calendar date. Empty (null, undefined, '') is null: the caller decides
 * whether that is allowed.
 */
export function parseDateInput(input: unknown): DateParseResult {
  if (input === null || input === undefined) return { ok: true, value: null };
  if (typeof input !== 'string') return { ok: false };
  const text = input.trim();
  if (text === '') return { ok: true, value: null };
  if (ISO_DATE.test(text)) return isIsoDate(text) ? { ok: true, value: text } : { ok: false };
  const prefix = ISO_DATE_TIME_PREFIX.exec(text);
  if (prefix && !isIsoDate(prefix[1] as string)) return { ok: false };
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return { ok: false };
  const value = perthDate(new Date(ms));
  // Parseable but outside what a DATE column and `YYYY-MM-DD` hold (e.g. "+010000-01-01T00:00:00Z").
  return isIsoDate(value) ? { ok: true, value } : { ok: false };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "21 Nov 2026" for documents, emails and messages. */
export function formatLongDate(value: IsoDate): string {
  const m = ISO_DATE.exec(value);
  if (!m) return value;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
}

export type InstantParseResult = { ok: true; value: Date | null } | { ok: false };

/**
 * An instant (paidAt): an ISO date-time, a date (midnight in Perth) or any string Date can parse, with the same
 * checks as calendar dates (no 30 February, four-digit years). Empty (null, undefined, '') is null.
 */
export function parseInstantInput(input: unknown): InstantParseResult {
  if (input === null || input === undefined) return { ok: true, value: null };
  if (typeof input !== 'string') return { ok: false };
  const text = input.trim();
  if (text === '') return { ok: true, value: null };
  if (ISO_DATE.test(text))
    return isIsoDate(text) ? { ok: true, value: perthInstant(text, '00:00') } : { ok: false };
  const prefix = ISO_DATE_TIME_PREFIX.exec(text);
  if (prefix && !isIsoDate(prefix[1] as string)) return { ok: false };
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return { ok: false };
  const value = new Date(ms);
  return isIsoDate(value.toISOString().slice(0, 10)) ? { ok: true, value } : { ok: false };
}
