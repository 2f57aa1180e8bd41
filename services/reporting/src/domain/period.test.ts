import { DATE_FORMAT_MESSAGE, inPeriod, ORDER_MESSAGE, periodQuery, sqlBounds } from './period';

describe('period', () => {
  const parse = (query: unknown) => periodQuery.safeParse(query);

  it('takes optional inclusive bounds', () => {
    expect(parse({}).data).toEqual({});
    expect(parse({ startDate: '2026-07-01' }).data).toEqual({ startDate: '2026-07-01' });
    expect(parse({ endDate: '2026-09-30' }).data).toEqual({ endDate: '2026-09-30' });
    expect(parse({ startDate: '2026-07-01', endDate: '2026-09-30' }).data).toEqual({
      startDate: '2026-07-01',
      endDate: '2026-09-30',
    });
    expect(parse({ startDate: '2026-07-01', endDate: '2026-07-01' }).success).toBe(true); // one day
    expect(parse({ startDate: '', endDate: '' }).data).toEqual({}); // empty inputs of a cleared date picker
    expect(parse({ startDate: '2026-07-01', other: 'x' }).data).toEqual({ startDate: '2026-07-01' });
  });

  it('refuses malformed dates with a message naming the parameter', () => {
    for (const bad of ['2026-02-30', '01/07/2026', '2026-7-1', '2026-07-01T00:00:00Z', 'yesterday'])
      expect(parse({ startDate: bad }).error?.issues[0]?.message).toBe(DATE_FORMAT_MESSAGE('startDate'));
    expect(parse({ endDate: '2026-13-01' }).error?.issues[0]?.message).toBe(DATE_FORMAT_MESSAGE('endDate'));
    expect(parse({ startDate: ['2026-07-01', '2026-08-01'] }).success).toBe(false); // repeated parameter
  });

  it('refuses a start after the end', () => {
    expect(parse({ startDate: '2026-10-01', endDate: '2026-09-30' }).error?.issues[0]?.message).toBe(
      ORDER_MESSAGE,
    );
  });

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
