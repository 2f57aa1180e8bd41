import {
  addDays,
  addMonths,
  addYears,
  dateFromDb,
  dateToDb,
  dayOfWeek,
  daysBetween,
  isCalendarDate,
  isPastDate,
  isSlotPast,
  isTimeSlot,
  isWeekend,
  perthClock,
  perthClock12,
  perthDate,
  perthInstant,
  perthToday,
  SLOT_START,
  slotStartIso,
  slotStartsAt,
  TIME_SLOT_LABELS,
  TIME_SLOTS,
  toBusinessDate,
  weekdayName,
} from './calendar';

describe('time slots (spec section 7)', () => {
  it('are the four slots with their start times, in order', () => {
    expect(TIME_SLOT_LABELS).toEqual(['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM']);
    expect(SLOT_START).toEqual({
      '8-10 AM': '08:00',
      '10-12 AM': '10:00',
      '12-2 PM': '12:00',
      '2-4 PM': '14:00',
    });
    expect(TIME_SLOTS.map((s) => s.end)).toEqual(['10:00', '12:00', '14:00', '16:00']);
    expect(isTimeSlot('12-2 PM')).toBe(true);
    expect(isTimeSlot('12-2 pm')).toBe(false);
    expect(isTimeSlot(undefined)).toBe(false);
  });
});

describe('calendar dates', () => {
  it('accepts real dates only', () => {
    expect(isCalendarDate('2026-11-24')).toBe(true);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(isCalendarDate('2026-11-24T00:00:00Z')).toBe(false);
    expect(isCalendarDate('0000-01-01')).toBe(false);
    expect(isCalendarDate('0001-01-01')).toBe(true);
    expect(isCalendarDate(20261124)).toBe(false);
  });
  it('does day arithmetic across months, years and leap days', () => {
    expect(addDays('2026-11-24', 7)).toBe('2026-12-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-11-24', '2026-12-24')).toBe(30);
    expect(daysBetween('2026-12-24', '2026-11-24')).toBe(-30);
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
  });
  it("moves by months and years, keeping the day or taking the month's last", () => {
    expect(addMonths('2026-11-24', 1)).toBe('2026-12-24');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2026-01-15', -13)).toBe('2024-12-15');
    expect(addYears('2026-11-24', 5)).toBe('2031-11-24');
    expect(addYears('2028-02-29', 1)).toBe('2029-02-28');
    expect(addYears('2028-02-29', 4)).toBe('2032-02-29');
    expect(addYears('2026-11-24', -26)).toBe('2000-11-24');
    expect(() => addMonths('2026-02-30', 1)).toThrow(RangeError);
  });
  it('names weekdays and weekends', () => {
    expect(dayOfWeek('2026-11-24')).toBe(2);
    expect(weekdayName('2026-11-24')).toBe('Tuesday');
    expect(weekdayName('2026-11-29')).toBe('Sunday');
    expect(weekdayName('2026-03-03')).toBe('Tuesday');
    expect(weekdayName('2026-03-08')).toBe('Sunday');
    expect(isWeekend('2026-11-28')).toBe(true);
    expect(isWeekend('2026-11-29')).toBe(true);
    expect(isWeekend('2026-11-30')).toBe(false);
  });
  it('round-trips Postgres DATE values', () => {
    expect(dateToDb('2026-11-24').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(dateFromDb(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24');
    expect(dateFromDb(dateToDb('2028-02-29'))).toBe('2028-02-29');
    expect(dateFromDb(dateToDb('2026-12-31'))).toBe('2026-12-31');
  });
});

describe('Perth time', () => {
  it('knows the Perth date and clock of an instant, whatever the host zone', () => {
    // 16:30 UTC on the 23rd is 00:30 on the 24th in Perth.
    expect(perthDate(new Date('2026-11-23T16:30:00Z'))).toBe('2026-11-24');
    expect(perthToday(new Date('2026-11-23T15:59:59Z'))).toBe('2026-11-23');
    expect(perthClock(new Date('2026-11-23T16:30:00Z'))).toBe('00:30');
    expect(perthClock(new Date('2026-11-24T06:05:00Z'))).toBe('14:05');
  });

  it('writes every Perth date with a four-digit year, early years too', () => {
    expect(perthDate(new Date('0999-06-01T00:00:00Z'))).toBe('0999-06-01');
    expect(perthDate(new Date('0001-01-01T00:00:00Z'))).toBe('0001-01-01');
    expect(isCalendarDate(perthDate(new Date('0050-03-01T12:00:00Z')))).toBe(true);
  });
  it('reads the Perth clock the 12-hour way customers do', () => {
    expect(perthClock12(new Date('2026-03-03T06:35:00Z'))).toBe('2:35 PM');
    // Crosses midnight UTC but not in Perth.
    expect(perthClock12(new Date('2026-03-03T00:15:00Z'))).toBe('8:15 AM');
    expect(perthClock12(new Date('2026-03-03T04:15:00Z'))).toBe('12:15 PM');
    expect(perthClock12(new Date('2026-03-02T16:05:00Z'))).toBe('12:05 AM');
    expect(perthClock12(new Date('2026-03-03T15:59:00Z'))).toBe('11:59 PM');
  });
  it('takes today from Perth, not UTC (07:30 on Tuesday 3 March 2026 in Perth is still Monday in UTC)', () => {
    const earlyTuesday = new Date('2026-03-02T23:30:00Z');
    expect(perthToday(earlyTuesday)).toBe('2026-03-03');
    expect(isPastDate('2026-03-02', earlyTuesday)).toBe(true);
    expect(isPastDate('2026-03-03', earlyTuesday)).toBe(false);
    expect(isSlotPast('2026-03-03', '8-10 AM', earlyTuesday)).toBe(false);
    const nineAm = new Date('2026-03-03T01:00:00Z');
    expect(isSlotPast('2026-03-03', '8-10 AM', nineAm)).toBe(true);
    expect(isSlotPast('2026-03-03', '10-12 AM', nineAm)).toBe(false);
  });
  it('turns a Perth wall-clock time into the instant (+08:00, from the tz data)', () => {
    expect(perthInstant('2026-11-24', '08:00').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(slotStartsAt('2026-11-24', '2-4 PM').toISOString()).toBe('2026-11-24T06:00:00.000Z');
    expect(slotStartsAt('2027-01-01', '8-10 AM').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(slotStartIso('2026-11-24', '10-12 AM')).toBe('2026-11-24T10:00:00+08:00');
    // 2008: Perth observed daylight saving (+09:00) during its trial; the tz data knows.
    expect(perthInstant('2008-01-15', '08:00').toISOString()).toBe('2008-01-14T23:00:00.000Z');
    expect(() => perthInstant('2026-11-24', '8am')).toThrow(RangeError);
  });
  it('says when a date or slot has passed in Perth', () => {
    const now = new Date('2026-11-24T02:00:00Z'); // 10:00 in Perth
    expect(isPastDate('2026-11-23', now)).toBe(true);
    expect(isPastDate('2026-11-24', now)).toBe(false);
    expect(isSlotPast('2026-11-24', '8-10 AM', now)).toBe(true);
    expect(isSlotPast('2026-11-24', '10-12 AM', now)).toBe(true); // starts now: too late to book
    expect(isSlotPast('2026-11-24', '12-2 PM', now)).toBe(false);
    expect(isSlotPast('2026-11-23', '2-4 PM', now)).toBe(true);
    expect(isSlotPast('2026-11-25', '8-10 AM', now)).toBe(false);
  });
  it('reads what forms send as a Perth business date', () => {
    expect(toBusinessDate('2026-11-24')).toBe('2026-11-24');
    expect(toBusinessDate(' 2026-11-24 ')).toBe('2026-11-24');
    // The staff form sends the slot start as an instant: 08:00 Perth is the previous day in UTC.
    expect(toBusinessDate('2026-11-24T00:00:00.000Z')).toBe('2026-11-24');
    expect(toBusinessDate('2026-11-23T16:00:00Z')).toBe('2026-11-24');
    expect(toBusinessDate('2026-11-24T08:00:00+08:00')).toBe('2026-11-24');
    expect(toBusinessDate('2026-11-24T23:30')).toBe('2026-11-24');
    expect(toBusinessDate('2026-02-30')).toBeUndefined();
    expect(toBusinessDate('2026-02-30T10:00')).toBeUndefined();
    expect(toBusinessDate('tomorrow')).toBeUndefined();
    expect(toBusinessDate(42)).toBeUndefined();
  });
});
