/**
 * Western Australia's public holidays, computed by rule (Public and Bank Holidays Act 1972 (WA), Schedule 2, as
 * amended by the Public and Bank Holidays Amendment Act 2023). The business is closed on them unless an admin opens
 * the day (booking's business calendar). The rules, once:
 *
 *  - New Year's Day, 1 January; when it falls on a Saturday or Sunday, the following Monday as well.
 *  - Australia Day, 26 January; when it falls on a Saturday or Sunday, the following Monday instead.
 *  - Labour Day, the first Monday in March.
 *  - Good Friday, Easter Sunday (a public holiday since 2022) and Easter Monday (Western/Gregorian Easter).
 *  - ANZAC Day, 25 April; when it falls on a Saturday or Sunday, the following Monday as well (the 2023 amendment
 *    added the Saturday case: 2026 has Saturday 25 April and Monday 27 April).
 *  - Western Australia Day, the first Monday in June.
 *  - King's Birthday, the last Monday in September. The Governor may appoint another day by proclamation (the Act's
 *    s 8): it happened for CHOGM in 2011 (28 October) and some regional areas (e.g. Albany) have historically had the
 *    holiday on another day. Such a year is handled by an admin blocking/opening the days, not by this rule.
 *  - Christmas Day, 25 December, and Boxing Day, 26 December. Christmas on a Saturday: Monday 27 December as well;
 *    on a Sunday: Tuesday 27 December as well (Monday 26 is Boxing Day). Boxing Day on a Saturday: Monday 28
 *    December as well; on a Sunday: Tuesday 28 December as well.
 *
 * The weekend day itself stays listed (it is still the holiday; the business is closed on weekends anyway) beside
 * its substitute weekday, except Australia Day, which the Act moves to the Monday.
 */
import { addDays, dayOfWeek, isCalendarDate } from './calendar';

export interface PublicHoliday {
  /** YYYY-MM-DD. */
  date: string;
  /** "ANZAC Day", "ANZAC Day (additional day)". */
  name: string;
  /** True for the weekday added because the holiday itself falls on a weekend. */
  substitute: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`;

/** Easter Sunday of `year` (Gregorian calendar; anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return ymd(year, month, day);
}

/** The first Monday of a month. */
function firstMonday(year: number, month: number): string {
  const first = ymd(year, month, 1);
  return addDays(first, (8 - dayOfWeek(first)) % 7);
}

/** The last Monday of a month. */
function lastMonday(year: number, month: number): string {
  const last = addDays(month === 12 ? ymd(year + 1, 1, 1) : ymd(year, month + 1, 1), -1);
  return addDays(last, -((dayOfWeek(last) + 6) % 7));
}

/** The Monday after a Saturday or Sunday. */
const followingMonday = (date: string) => addDays(date, dayOfWeek(date) === 6 ? 2 : 1);

const cache = new Map<number, readonly PublicHoliday[]>();

/** WA public holidays of a year, in date order. */
export function waPublicHolidays(year: number): readonly PublicHoliday[] {
  if (!Number.isInteger(year) || year < 1 || year > 9999) throw new RangeError(`Not a year: ${year}`);
  const hit = cache.get(year);
  if (hit) return hit;
  const out: PublicHoliday[] = [];
  const add = (date: string, name: string, substitute = false) => out.push({ date, name, substitute });
  const weekend = (date: string) => dayOfWeek(date) === 0 || dayOfWeek(date) === 6;

  const newYear = ymd(year, 1, 1);
  add(newYear, "New Year's Day");
  if (weekend(newYear)) add(followingMonday(newYear), "New Year's Day (additional day)", true);

  const australia = ymd(year, 1, 26);
  if (weekend(australia)) add(followingMonday(australia), 'Australia Day', true);
  else add(australia, 'Australia Day');

  add(firstMonday(year, 3), 'Labour Day');

  const easter = easterSunday(year);
  add(addDays(easter, -2), 'Good Friday');
  add(easter, 'Easter Sunday');
  add(addDays(easter, 1), 'Easter Monday');

  const anzac = ymd(year, 4, 25);
  add(anzac, 'ANZAC Day');
  // (ANZAC Day on Easter Monday, as in 2011 and next in 2095, got a Tuesday by proclamation: not a rule, see above.)
  if (weekend(anzac)) add(followingMonday(anzac), 'ANZAC Day (additional day)', true);

  add(firstMonday(year, 6), 'Western Australia Day');
  add(lastMonday(year, 9), "King's Birthday");

  const christmas = ymd(year, 12, 25);
  const boxing = ymd(year, 12, 26);
  add(christmas, 'Christmas Day');
  add(boxing, 'Boxing Day');
  const xmasDow = dayOfWeek(christmas);
  if (xmasDow === 6) {
    // Sat 25, Sun 26: Monday 27 for Christmas, Tuesday 28 for Boxing Day.
    add(ymd(year, 12, 27), 'Christmas Day (additional day)', true);
    add(ymd(year, 12, 28), 'Boxing Day (additional day)', true);
  } else if (xmasDow === 0) {
    // Sun 25, Mon 26 (Boxing Day): Tuesday 27 for Christmas.
    add(ymd(year, 12, 27), 'Christmas Day (additional day)', true);
  } else if (xmasDow === 5) {
    // Fri 25, Sat 26: Monday 28 for Boxing Day.
    add(ymd(year, 12, 28), 'Boxing Day (additional day)', true);
  }

  out.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  const frozen = Object.freeze(out.map((h) => Object.freeze(h)));
  cache.set(year, frozen);
  return frozen;
}

/** The WA public holiday on `date` (YYYY-MM-DD), if any; the first one listed when two fall together. */
export function waPublicHoliday(date: string): PublicHoliday | undefined {
  if (!isCalendarDate(date)) return undefined;
  return waPublicHolidays(Number(date.slice(0, 4))).find((h) => h.date === date);
}

/** True when `date` is a WA public holiday (weekend holidays included). */
export const isWaPublicHoliday = (date: string): boolean => waPublicHoliday(date) !== undefined;

/** WA public holidays from `from` to `to` inclusive (YYYY-MM-DD), in date order. */
export function waPublicHolidaysBetween(from: string, to: string): PublicHoliday[] {
  if (!isCalendarDate(from) || !isCalendarDate(to) || to < from) return [];
  const out: PublicHoliday[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y += 1)
    for (const h of waPublicHolidays(y)) if (h.date >= from && h.date <= to) out.push(h);
  return out;
}
