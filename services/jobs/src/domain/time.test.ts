import {
  dateOnly,
  etaText,
  isCalendarDate,
  isPastDate,
  isSlotPast,
  perthToday,
  toDbDate,
  toPerthDate,
  weekdayOf,
} from './time';

describe('Perth time', () => {
  // 2026-03-02T23:30:00Z is 07:30 on Tuesday 3 March 2026 in Perth (UTC+8, no daylight saving).
  const earlyTuesday = new Date('2026-03-02T23:30:00Z');

  it('takes today from Perth, not UTC', () => {
    expect(perthToday(earlyTuesday)).toBe('2026-03-03');
    expect(isPastDate('2026-03-02', earlyTuesday)).toBe(true);
    expect(isPastDate('2026-03-03', earlyTuesday)).toBe(false);
  });

  it('knows when a slot has started in Perth', () => {
    expect(isSlotPast('2026-03-03', '8-10 AM', earlyTuesday)).toBe(false);
    const nineAm = new Date('2026-03-03T01:00:00Z');
    expect(isSlotPast('2026-03-03', '8-10 AM', nineAm)).toBe(true);
    expect(isSlotPast('2026-03-03', '10-12 AM', nineAm)).toBe(false);
    expect(isSlotPast('2026-03-02', '2-4 PM', nineAm)).toBe(true);
    expect(isSlotPast('2026-03-04', '8-10 AM', nineAm)).toBe(false);
  });

  it('gives the ETA 30 minutes from now on the Perth clock', () => {
    expect(etaText(new Date('2026-03-03T06:05:00Z'))).toBe('2:35 PM');
    // Crosses midnight UTC but not in Perth.
    expect(etaText(new Date('2026-03-02T23:45:00Z'))).toBe('8:15 AM');
    expect(etaText(new Date('2026-03-03T03:45:00Z'), 30)).toBe('12:15 PM');
  });

  it('reads dashboard dates as Perth calendar dates', () => {
    expect(toPerthDate('2026-03-05')).toBe('2026-03-05');
    expect(toPerthDate('2026-03-04T18:00:00.000Z')).toBe('2026-03-05'); // 2am in Perth
    expect(toPerthDate('2026-03-05T08:00:00+08:00')).toBe('2026-03-05');
    expect(toPerthDate('2026-02-30')).toBeUndefined();
    expect(toPerthDate('05/03/2026')).toBeUndefined();
    expect(isCalendarDate('2028-02-29')).toBe(true);
  });

  it('names the weekday and round-trips DATE columns', () => {
    expect(weekdayOf('2026-03-03')).toBe('Tuesday');
    expect(weekdayOf('2026-03-08')).toBe('Sunday');
    expect(dateOnly(toDbDate('2026-12-31'))).toBe('2026-12-31');
  });
});
