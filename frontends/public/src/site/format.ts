import { formatAud, parseMoneyInput } from '@tyres/kernel';

/**
 * Display formats (Australian English). Money comes from the server as 2-decimal strings and is shown exactly as
 * sent, through the kernel's formatting (integer cents, never floating point): "$1,234.50". Something that is not
 * money shows as $0.00.
 */
export function formatMoney(value: string | number | bigint | null | undefined): string {
  return formatAud(typeof value === 'bigint' ? value : moneyCents(value));
}

/** Integer cents of a server amount ("129.80" -> 12980n); 0 when it is not money. */
export function moneyCents(value: string | number | null | undefined): bigint {
  const parsed = parseMoneyInput(value ?? '');
  return parsed.ok ? parsed.cents : 0n;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2026-11-24" -> "Tuesday 24 November 2026" (calendar date, no time zone involved). */
export function formatLongDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate);
  if (!match) return isoDate;
  const [, y, m, d] = match;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return `${WEEKDAYS[date.getUTCDay()]} ${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
}

export function monthName(monthIndex: number): string {
  return MONTHS[monthIndex] ?? '';
}

export function weekdayName(dayIndex: number): string {
  return WEEKDAYS[dayIndex] ?? '';
}
