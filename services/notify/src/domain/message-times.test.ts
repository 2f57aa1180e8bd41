import { perthDate, slotStartsAt } from '@tyres/kernel';
import {
  etaFrom,
  formatEta,
  formatLongDate,
  formatPerthClock,
  formatPerthTime12,
  formatShortDateTime,
} from './message-times';

describe('Perth time', () => {
  it('formats the ETA as hh:mm in Perth, 30 minutes from now', () => {
    // 01:20 UTC = 09:20 Perth (UTC+8, no daylight saving)
    expect(formatEta(new Date('2026-11-21T01:20:00Z'))).toBe('09:50');
    expect(formatEta(new Date('2026-06-21T01:20:00Z'))).toBe('09:50'); // winter: same offset
  });

  it('uses the 24-hour clock with leading zeros', () => {
    expect(formatPerthClock(new Date('2026-11-21T06:05:00Z'))).toBe('14:05');
    expect(formatPerthClock(new Date('2026-11-20T16:00:00Z'))).toBe('00:00');
    expect(formatPerthClock(new Date('2026-11-21T00:59:59Z'))).toBe('08:59');
  });

  it('rolls over midnight and the date line in Perth, not UTC', () => {
    // 15:45 UTC = 23:45 Perth; +30 min = 00:15 the next Perth day
    const now = new Date('2026-11-21T15:45:00Z');
    expect(formatEta(now)).toBe('00:15');
    expect(perthDate(etaFrom(now))).toBe('2026-11-22');
  });

  it('accepts another ETA', () => {
    expect(formatEta(new Date('2026-11-21T01:20:00Z'), 45)).toBe('10:05');
  });

  it('formats 12-hour times for customers', () => {
    expect(formatPerthTime12(new Date('2026-11-21T06:05:00Z'))).toBe('2:05 pm');
    expect(formatPerthTime12(new Date('2026-11-21T00:00:00Z'))).toBe('8:00 am');
  });

  it('turns a Perth date and slot into the instant the slot starts', () => {
    expect(slotStartsAt('2026-11-24', '8-10 AM').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(slotStartsAt('2026-11-24', '2-4 PM').toISOString()).toBe('2026-11-24T06:00:00.000Z');
    expect(slotStartsAt('2026-11-24', '10-12 AM').toISOString()).toBe('2026-11-24T02:00:00.000Z');
    expect(slotStartsAt('2026-11-24', '12-2 PM').toISOString()).toBe('2026-11-24T04:00:00.000Z');
  });

  it('formats calendar dates', () => {
    expect(formatLongDate('2026-11-24')).toBe('Tuesday 24 November 2026');
    expect(formatShortDateTime(new Date('2026-11-23T00:00:00Z'))).toBe('Mon 23 Nov, 8:00 am');
  });
});
