import { BUSINESS_TIME_ZONE } from './constants';

/** Calendar dates are `YYYY-MM-DD` strings in business time (Australia/Perth); Postgres DATE columns hold them. */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const perthFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The Perth calendar date of an instant. */
export function perthDate(instant: Date = new Date()): IsoDate {
  return perthFormatter.format(instant);
}

/** Calendar dates billing stores: four-digit years (Postgres DATE and `YYYY-MM-DD` round-trip). */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

/** True for a real calendar date in `YYYY-MM-DD` form (no 2026-02-30), year 1000 to 9999. */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < MIN_YEAR || year > MAX_YEAR) return false;
  const d = new Date(0);
  d.setUTCFullYear(year, Number(m[2]) - 1, Number(m[3]));
  return d.toISOString().slice(0, 10) === value;
}

/** An ISO date-time's own calendar part (`2026-02-30T10:00:00Z`): V8 would roll it over to March. */
const ISO_DATE_TIME_PREFIX = /^(\d{4}-\d{2}-\d{2})[T ]\d/;

export function addDays(date: IsoDate, days: number): IsoDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A DATE column value (Prisma gives UTC midnight) as `YYYY-MM-DD`. */
export function fromDbDate(value: Date): IsoDate {
  return value.toISOString().slice(0, 10);
}

export function fromDbDateOrNull(value: Date | null | undefined): IsoDate | null {
  return value ? fromDbDate(value) : null;
}

/** `YYYY-MM-DD` as the Date Prisma writes to a DATE column. */
export function toDbDate(value: IsoDate): Date {
  return new Date(`${value}T00:00:00.000Z`);
}

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

/** "21 Nov 2026" for documents and emails. */
export function formatLongDate(value: IsoDate): string {
  const m = ISO_DATE.exec(value);
  if (!m) return value;
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${Number(m[3])} ${months[Number(m[2]) - 1]} ${m[1]}`;
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
    return isIsoDate(text) ? { ok: true, value: new Date(`${text}T00:00:00+08:00`) } : { ok: false };
  const prefix = ISO_DATE_TIME_PREFIX.exec(text);
  if (prefix && !isIsoDate(prefix[1] as string)) return { ok: false };
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return { ok: false };
  const value = new Date(ms);
  return isIsoDate(value.toISOString().slice(0, 10)) ? { ok: true, value } : { ok: false };
}
