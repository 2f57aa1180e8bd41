import { perthInstant } from '@tyres/kernel';
import { EN_ROUTE_PURPOSE, inQuietHours, parseQuietWindow, releaseAfterQuietHours } from './quiet-hours';

const perth = (date: string, clock: string) => perthInstant(date, clock);

describe('quiet hours (8 pm to 8 am Perth)', () => {
  it.each([
    ['19:59', false],
    ['20:00', true],
    ['23:59', true],
    ['00:00', true],
    ['07:59', true],
    ['08:00', false],
    ['12:00', false],
  ])('%s Perth in quiet hours: %s', (clock, quiet) => {
    expect(inQuietHours(perth('2026-11-24', clock))).toBe(quiet);
  });

  it('holds a review request paid at 9 pm until 8 am, and one at 7:30 am until 8 am that morning', () => {
    expect(releaseAfterQuietHours(perth('2026-11-24', '21:00'), 'review-request')).toEqual(
      perth('2026-11-25', '08:00'),
    );
    expect(releaseAfterQuietHours(perth('2026-11-25', '07:30'), 'review-request')).toEqual(
      perth('2026-11-25', '08:00'),
    );
  });

  it('holds the confirmation and the cancellation notice a customer asked for at 9 pm (decisions.md)', () => {
    for (const purpose of ['booking-confirmation', 'booking-cancelled', 'booking-rescheduled'])
      expect(releaseAfterQuietHours(perth('2026-11-24', '21:00'), purpose)).toEqual(
        perth('2026-11-25', '08:00'),
      );
  });

  it('leaves a message due at 19:59 alone', () => {
    const due = perth('2026-11-24', '19:59');
    expect(releaseAfterQuietHours(due, 'booking-reminder')).toEqual(due);
  });

  it('holds a message due at 20:00 until 8 am the next morning', () => {
    expect(releaseAfterQuietHours(perth('2026-11-24', '20:00'), 'booking-cancelled')).toEqual(
      perth('2026-11-25', '08:00'),
    );
  });

  it('holds a message due at 23:30 on the last day of the month until 8 am on the 1st', () => {
    expect(releaseAfterQuietHours(perth('2026-11-30', '23:30'), 'booking-rescheduled')).toEqual(
      perth('2026-12-01', '08:00'),
    );
  });

  it('holds a message due at 07:59 until 8 am the same morning', () => {
    expect(releaseAfterQuietHours(perth('2026-11-25', '07:59'), 'booking-reminder')).toEqual(
      perth('2026-11-25', '08:00'),
    );
  });

  it('sends a message due at 08:00 then', () => {
    const due = perth('2026-11-25', '08:00');
    expect(releaseAfterQuietHours(due, 'booking-reminder')).toEqual(due);
  });

  it('never holds the technician-en-route SMS', () => {
    const late = perth('2026-11-24', '21:15');
    expect(releaseAfterQuietHours(late, EN_ROUTE_PURPOSE)).toEqual(late);
  });

  it('is the same rule whatever zone the server runs in (UTC instants)', () => {
    // 12:00 UTC = 20:00 Perth (UTC+8); 23:59 UTC = 07:59 Perth the next day.
    expect(inQuietHours(new Date('2026-11-24T11:59:00Z'))).toBe(false);
    expect(inQuietHours(new Date('2026-11-24T12:00:00Z'))).toBe(true);
    expect(inQuietHours(new Date('2026-11-24T23:59:00Z'))).toBe(true);
    expect(inQuietHours(new Date('2026-11-25T00:00:00Z'))).toBe(false);
  });
});

describe('the configured window (QUIET_HOURS)', () => {
  it('reads evening-to-morning windows and off', () => {
    expect(parseQuietWindow('20:00-08:00')).toEqual({ from: '20:00', until: '08:00' });
    expect(parseQuietWindow('21:30-07:00')).toEqual({ from: '21:30', until: '07:00' });
    expect(parseQuietWindow('off')).toBeNull();
    expect(() => parseQuietWindow('08:00-20:00')).toThrow(/evening time to a morning time/);
    expect(() => parseQuietWindow('8pm-8am')).toThrow(/HH:mm-HH:mm/);
  });

  it('holds to the configured morning, and sends at once when off', () => {
    // 21:00 Perth = 13:00 UTC.
    const nine = new Date(Date.UTC(2026, 11, 9, 13, 0));
    expect(releaseAfterQuietHours(nine, 'booking-confirmation', { from: '21:30', until: '07:00' })).toBe(
      nine,
    );
    expect(
      releaseAfterQuietHours(nine, 'booking-confirmation', { from: '20:00', until: '07:00' }).toISOString(),
    ).toBe('2026-12-09T23:00:00.000Z');
    expect(releaseAfterQuietHours(nine, 'booking-confirmation', null)).toBe(nine);
  });
});
