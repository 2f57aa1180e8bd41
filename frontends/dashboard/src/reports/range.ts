import { perthToday } from '../lib/dates';

/** Report periods. Dates are inclusive Perth calendar dates; the Australian financial year starts on 1 July. */
export type Preset = 'month' | 'quarter' | 'fy' | 'all' | 'custom';

export function presetRange(
  preset: Exclude<Preset, 'custom'>,
  now: Date = new Date(),
): { startDate: string; endDate: string } {
  const today = perthToday(now);
  const [y, m] = today.split('-').map(Number) as [number, number];
  switch (preset) {
    case 'month':
      return { startDate: `${y}-${String(m).padStart(2, '0')}-01`, endDate: today };
    case 'quarter': {
      const first = Math.floor((m - 1) / 3) * 3 + 1;
      return { startDate: `${y}-${String(first).padStart(2, '0')}-01`, endDate: today };
    }
    case 'fy':
      return { startDate: m >= 7 ? `${y}-07-01` : `${y - 1}-07-01`, endDate: today };
    case 'all':
      return { startDate: '', endDate: '' };
  }
}

export const PRESETS: { value: Preset; label: string }[] = [
  { value: 'month', label: 'This month' },
  { value: 'quarter', label: 'This quarter' },
  { value: 'fy', label: 'Financial year' },
  { value: 'all', label: 'All time' },
  { value: 'custom', label: 'Custom' },
];

/** The problem with a start/end pair, or null. */
export function rangeProblem(startDate: string, endDate: string): string | null {
  if (startDate && endDate && startDate > endDate) return 'The start date must be on or before the end date';
  return null;
}
