import { formatInTimeZone } from 'date-fns-tz';

/** The business time zone (architecture section 2): report periods, "today" and days until due. */
export const BUSINESS_TIME_ZONE = 'Australia/Perth';

/** A calendar date `YYYY-MM-DD` in business time. */
export type IsoDate = string;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (no 2026-02-30, no 2026-2-3, no time part). */
export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < 1) return false;
  const d = new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === year && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3])
  );
}

/** The Perth calendar date of an instant (a Date or an ISO-8601 string with an offset). */
export function perthDate(instant: Date | string): IsoDate {
  return formatInTimeZone(
    typeof instant === 'string' ? new Date(instant) : instant,
    BUSINESS_TIME_ZONE,
    'yyyy-MM-dd',
  );
}

/** Whole calendar days from `from` to `to`; negative when `to` is earlier. */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A Postgres DATE read through Prisma (UTC midnight) → `YYYY-MM-DD`. */
export const fromDbDate = (value: Date): IsoDate => value.toISOString().slice(0, 10);

/** `YYYY-MM-DD` → the Date Prisma writes to a DATE column. */
export const toDbDate = (value: IsoDate): Date => new Date(`${value}T00:00:00.000Z`);
