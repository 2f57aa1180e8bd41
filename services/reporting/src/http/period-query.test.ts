import { DATE_FORMAT_MESSAGE, ORDER_MESSAGE, periodQuery } from './period-query';

describe('report period query', () => {
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
});
