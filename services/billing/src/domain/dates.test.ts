import { addDays, daysBetween, perthDate } from '@tyres/kernel';
import { formatLongDate, isIsoDate, parseDateInput, parseInstantInput } from './dates';

// Perth dates and day arithmetic are the kernel's (packages/kernel); these cases are what billing relies on.
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

  it('refuses impossible ISO date-times and dates a DATE column cannot hold as YYYY-MM-DD', () => {
    // V8 rolls 30 February over to 2 March; the stored-data rules say "Invalid date format".
    expect(parseDateInput('2026-02-30T00:00:00Z')).toEqual({ ok: false });
    expect(parseDateInput('2026-13-01T00:00:00.000Z')).toEqual({ ok: false });
    expect(parseDateInput('2028-02-29T10:00:00+08:00')).toEqual({ ok: true, value: '2028-02-29' });
    expect(parseDateInput('+010000-01-01T00:00:00Z')).toEqual({ ok: false });
    expect(parseDateInput('-000001-01-01T00:00:00Z')).toEqual({ ok: false });
    expect(parseDateInput('0099-01-01')).toEqual({ ok: false });
    expect(parseDateInput('9999-12-31')).toEqual({ ok: true, value: '9999-12-31' });
    expect(parseDateInput('1000-01-01')).toEqual({ ok: true, value: '1000-01-01' });
  });

  it('validates calendar dates and formats them for documents', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2027-02-29')).toBe(false);
    expect(formatLongDate('2026-11-21')).toBe('21 Nov 2026');
  });

  it('parses instants (paidAt) with the same checks', () => {
    expect(parseInstantInput('2026-11-21T01:02:03.000Z')).toEqual({
      ok: true,
      value: new Date('2026-11-21T01:02:03.000Z'),
    });
    expect(parseInstantInput('2026-11-21')).toEqual({
      ok: true,
      value: new Date('2026-11-20T16:00:00.000Z'),
    });
    expect(parseInstantInput('')).toEqual({ ok: true, value: null });
    expect(parseInstantInput(null)).toEqual({ ok: true, value: null });
    expect(parseInstantInput('2026-02-30T00:00:00Z')).toEqual({ ok: false });
    expect(parseInstantInput('+010000-01-01T00:00:00Z')).toEqual({ ok: false });
    expect(parseInstantInput('yesterday')).toEqual({ ok: false });
    expect(parseInstantInput(1700000000000)).toEqual({ ok: false });
  });
});
