/** Display formats (Australian English). */
export function formatMoney(value: string | number | null | undefined): string {
  const n = typeof value === 'number' ? value : Number.parseFloat(value ?? '');
  if (!Number.isFinite(n)) return '$0.00';
  return `${n < 0 ? '-' : ''}$${Math.abs(n)
    .toFixed(2)
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
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
