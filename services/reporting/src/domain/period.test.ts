import { inPeriod, sqlBounds } from './period';

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
