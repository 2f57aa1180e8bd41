import { addDays, daysBetween, perthDate } from '@tyres/kernel';
import { inPeriod, isReportDate, sqlBounds } from './period';

describe('period', () => {
  it('filters inclusively on both ends, unbounded where absent', () => {
    const q3 = { startDate: '2026-07-01', endDate: '2026-09-30' };
    expect(inPeriod('2026-06-30', q3)).toBe(false);
    expect(inPeriod('2026-07-01', q3)).toBe(true);
    expect(inPeriod('2026-09-30', q3)).toBe(true);
    expect(inPeriod('2026-10-01', q3)).toBe(false);
    expect(inPeriod('1999-01-01', { endDate: '2026-09-30' })).toBe(true);
    expect(inPeriod('2099-01-01', { startDate: '2026-07-01' })).toBe(true);
    expect(inPeriod('2026-01-01', {})).toBe(true);
  });

  it('gives SQL bounds with infinities for open ends', () => {
    expect(sqlBounds({})).toEqual({ start: '-infinity', end: 'infinity' });
    expect(sqlBounds({ startDate: '2026-07-01' })).toEqual({ start: '2026-07-01', end: 'infinity' });
  });
});

// The date rules reports rely on: the kernel calendar's, plus year 1 as the earliest date (Postgres has no year 0).
describe('report dates', () => {
  it('accepts only real YYYY-MM-DD calendar dates', () => {
    expect(isReportDate('2026-02-28')).toBe(true);
    expect(isReportDate('2028-02-29')).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-1-5',
      '26-01-05',
      '2026-01-05T00:00:00Z',
      '',
      'today',
      '0000-01-01',
    ])
      expect(isReportDate(bad)).toBe(false);
  });

  it('gives the Perth calendar date of an instant (UTC+8, no daylight saving)', () => {
    const perthDateOf = (iso: string) => perthDate(new Date(iso));
    expect(perthDateOf('2026-06-30T15:59:59.999Z')).toBe('2026-06-30');
    expect(perthDateOf('2026-06-30T16:00:00.000Z')).toBe('2026-07-01'); // midnight in Perth
    expect(perthDateOf('2026-12-31T16:30:00+00:00')).toBe('2027-01-01');
    expect(perthDate(new Date('2026-01-01T00:00:00+08:00'))).toBe('2026-01-01');
    // Sydney's daylight saving does not move Perth: same offset in January and July.
    expect(perthDateOf('2026-01-15T16:00:00Z')).toBe('2026-01-16');
    expect(perthDateOf('2026-07-15T16:00:00Z')).toBe('2026-07-16');
  });

  it('counts whole calendar days', () => {
    expect(daysBetween('2026-11-21', '2026-11-21')).toBe(0);
    expect(daysBetween('2026-11-21', '2026-12-01')).toBe(10);
    expect(daysBetween('2026-11-21', '2026-11-14')).toBe(-7);
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(addDays('2026-12-25', 10)).toBe('2027-01-04');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
