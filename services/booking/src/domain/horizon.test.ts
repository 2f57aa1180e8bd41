import {
  bookingHorizon,
  formatDayMonthYear,
  horizonMessage,
  horizonSlotReason,
  isBeyondHorizon,
} from './horizon';

describe('the booking horizon', () => {
  // Tuesday 24 November 2026, 10:00 in Perth.
  const now = new Date('2026-11-24T10:00:00+08:00');

  it('opens today (Perth) plus the configured days, and says so with the last date', () => {
    const h = bookingHorizon(now, 90);
    expect(h).toEqual({ days: 90, lastDate: '2027-02-22' });
    expect(horizonMessage(h)).toBe(
      'Bookings open 90 days ahead. Please choose a date on or before 22 February 2027.',
    );
    expect(horizonSlotReason(h)).toBe('Bookings open 90 days ahead');
    expect(isBeyondHorizon('2027-02-22', h)).toBe(false);
    expect(isBeyondHorizon('2027-02-23', h)).toBe(true);
    expect(isBeyondHorizon('2033-06-01', h)).toBe(true);
  });

  it('moves at midnight in Perth, not at midnight UTC or on the server clock', () => {
    // 15:59 UTC is 23:59 in Perth; a minute later it is the next day there.
    expect(bookingHorizon(new Date('2026-11-24T15:59:00Z'), 90).lastDate).toBe('2027-02-22');
    expect(bookingHorizon(new Date('2026-11-24T16:00:00Z'), 90).lastDate).toBe('2027-02-23');
    expect(bookingHorizon(new Date('2026-11-24T16:00:00Z'), 7).lastDate).toBe('2026-12-02');
  });

  it('writes dates the way customers read them', () => {
    expect(formatDayMonthYear('2027-02-22')).toBe('22 February 2027');
    expect(formatDayMonthYear('2028-12-01')).toBe('1 December 2028');
  });
});
