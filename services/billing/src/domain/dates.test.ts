import { addDays, daysBetween, formatLongDate, isIsoDate, parseDateInput, perthDate } from './dates';

describe('business dates (Australia/Perth)', () => {
  it("today's date is Perth's (UTC+8, no daylight saving)", () => {
    expect(perthDate(new Date('2026-11-20T15:59:59Z'))).toBe('2026-11-20');
    expect(perthDate(new Date('2026-11-20T16:00:00Z'))).toBe('2026-11-21');
    expect(perthDate(new Date('2026-06-30T16:30:00Z'))).toBe('2026-07-01');
  });

  it('adds days across months and years', () => {
    expect(addDays('2026-11-21', 30)).toBe('2026-12-21');
    expect(addDays('2026-12-15', 30)).toBe('2027-01-14');
    expect(addDays('2028-02-15', 14)).toBe('2028-02-29');
    expect(daysBetween('2026-11-21', '2026-12-21')).toBe(30);
    expect(daysBetween('2026-11-21', '2026-11-20')).toBe(-1);
  });

  it('accepts a date, an ISO date-time or a parseable string; empty is null', () => {
    expect(parseDateInput('2026-11-21')).toEqual({ ok: true, value: '2026-11-21' });
    expect(parseDateInput('2026-11-20T16:30:00.000Z')).toEqual({ ok: true, value: '2026-11-21' });
    expect(parseDateInput('2026-11-21T09:00:00+08:00')).toEqual({ ok: true, value: '2026-11-21' });
    expect(parseDateInput('')).toEqual({ ok: true, value: null });
    expect(parseDateInput(null)).toEqual({ ok: true, value: null });
    expect(parseDateInput(undefined)).toEqual({ ok: true, value: null });
    expect(parseDateInput('2026-02-30')).toEqual({ ok: false });
    expect(parseDateInput('not a date')).toEqual({ ok: false });
    expect(parseDateInput(42)).toEqual({ ok: false });
    expect(parseDateInput('21 November 2026 10:00 GMT+0800')).toEqual({ ok: true, value: '2026-11-21' });
  });

  it('validates calendar dates and formats them for documents', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(formatLongDate('2026-11-21')).toBe('21 Nov 2026');
  });
});
