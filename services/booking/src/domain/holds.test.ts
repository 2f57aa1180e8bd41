import { holdCapRetryAfter } from './holds';

const now = new Date('2030-06-03T02:00:00.000Z');
const inMs = (ms: number) => new Date(now.getTime() + ms);

describe('open payment holds per client', () => {
  it('under the cap: no refusal', () => {
    expect(holdCapRetryAfter({ open: 0, firstExpiresAt: undefined, max: 3, now })).toBeUndefined();
    expect(holdCapRetryAfter({ open: 2, firstExpiresAt: inMs(60_000), max: 3, now })).toBeUndefined();
  });
  it('at or over the cap: seconds until the oldest hold runs out, rounded up', () => {
    expect(holdCapRetryAfter({ open: 3, firstExpiresAt: inMs(29 * 60_000), max: 3, now })).toBe(1740);
    expect(holdCapRetryAfter({ open: 4, firstExpiresAt: inMs(1_500), max: 3, now })).toBe(2);
  });
  it('never less than a second', () => {
    expect(holdCapRetryAfter({ open: 3, firstExpiresAt: inMs(0), max: 3, now })).toBe(1);
    expect(holdCapRetryAfter({ open: 1, firstExpiresAt: undefined, max: 1, now })).toBe(1);
  });
});
