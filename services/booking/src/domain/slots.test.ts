import {
  addDays,
  dayOfWeek,
  isCalendarDate,
  maxVehicleYear,
  perthToday,
  slotStartsAt,
  toBookingDate as toBusinessDate,
} from '@tyres/kernel';
import {
  bookableProblem,
  NO_CALENDAR,
  slotStates,
  TIME_PASSED_REASON,
  WEEKEND_REASON,
  type LiveReservation,
} from './slots';

// Monday 3 June 2030, 10:30 in Perth (UTC+8, no daylight saving) = 02:30 UTC.
const MONDAY = '2030-06-03';
const at = (perthTime: string, date = MONDAY) => new Date(`${date}T${perthTime}:00+08:00`);

describe('business dates (Australia/Perth)', () => {
  it('today is the Perth date, not the server date', () => {
    // 17:00 UTC on the 2nd is already 01:00 on the 3rd in Perth.
    expect(perthToday(new Date('2030-06-02T17:00:00Z'))).toBe('2030-06-03');
    expect(perthToday(new Date('2030-06-02T15:59:59Z'))).toBe('2030-06-02');
  });
  it('slots start at their Perth times', () => {
    expect(slotStartsAt(MONDAY, '8-10 AM').toISOString()).toBe('2030-06-03T00:00:00.000Z');
    expect(slotStartsAt(MONDAY, '2-4 PM').toISOString()).toBe('2030-06-03T06:00:00.000Z');
  });
  it('accepts YYYY-MM-DD and zoned date-times (converted to the Perth date)', () => {
    expect(toBusinessDate('2030-06-03')).toBe('2030-06-03');
    expect(toBusinessDate('2030-06-03T08:00:00+08:00')).toBe('2030-06-03');
    // The staff form's date-time from a browser in Perth: 8 AM Perth = 00:00 UTC.
    expect(toBusinessDate('2030-06-03T00:00:00.000Z')).toBe('2030-06-03');
    // Midnight Perth sent as UTC is the previous UTC day but the right Perth day.
    expect(toBusinessDate('2030-06-02T16:00:00.000Z')).toBe('2030-06-03');
  });
  it('reads a zone-less date-time as Perth local time', () => {
    expect(toBusinessDate('2030-06-03T08:00:00')).toBe('2030-06-03');
    expect(toBusinessDate('2030-02-30T08:00')).toBeUndefined();
  });
  it.each(['', '2030-6-3', '2030-02-30', '03/06/2030', 'tomorrow', '2030-06-03 08:00', 42, null])(
    'rejects %j',
    (v) => expect(toBusinessDate(v)).toBeUndefined(),
  );
  it('calendar helpers', () => {
    expect(isCalendarDate('2032-02-29')).toBe(true);
    expect(isCalendarDate('2031-02-29')).toBe(false);
    expect(dayOfWeek(MONDAY)).toBe(1);
    expect(addDays(MONDAY, 5)).toBe('2030-06-08');
    expect(maxVehicleYear(new Date('2030-12-31T16:30:00Z'))).toBe(2032);
  });
});

describe('slotStates', () => {
  it('all four slots are free on an empty business day', () => {
    expect(
      slotStates('2030-06-04', at('07:00'), [], []).map((s) => [s.slot, s.isAvailable, s.blockedReason]),
    ).toEqual([
      ['8-10 AM', true, null],
      ['10-12 AM', true, null],
      ['12-2 PM', true, null],
      ['2-4 PM', true, null],
    ]);
  });

  it('weekend days come back with every slot unavailable and a reason', () => {
    for (const date of ['2030-06-08', '2030-06-09']) {
      const states = slotStates(date, at('07:00'), [], []);
      expect(states.every((s) => !s.isAvailable && s.blockedReason === WEEKEND_REASON)).toBe(true);
    }
  });

  it('slots that already started today in Perth say "Time has passed"', () => {
    // Monday 3 June 2030 is Western Australia Day: opened here, so only the clock closes slots.
    const opened = { ...NO_CALENDAR, holidayOpened: true };
    const states = slotStates(MONDAY, at('11:45'), [], [], undefined, opened);
    expect(states.map((s) => [s.isAvailable, s.blockedReason])).toEqual([
      [false, TIME_PASSED_REASON],
      [false, TIME_PASSED_REASON],
      [true, null],
      [true, null],
    ]);
    expect(slotStates(MONDAY, at('09:59'), [], [], undefined, opened)[1]!.isAvailable).toBe(true);
  });

  it('the started slot an emergency callout booked now falls in (arrival in 30-60 minutes) stays bookable', () => {
    const opened = { ...NO_CALENDAR, holidayOpened: true };
    // 10:30: the earliest arrival is 11:00, in the 10-12 AM slot under way.
    const states = slotStates(MONDAY, at('10:30'), [], [], undefined, opened);
    expect(states.map((s) => [s.isAvailable, s.blockedReason])).toEqual([
      [false, TIME_PASSED_REASON],
      [true, null],
      [true, null],
      [true, null],
    ]);
    // Full is full, emergency or not.
    const full = slotStates(
      MONDAY,
      at('10:30'),
      [],
      [{ slot: '10-12 AM', jobId: 'j', jobNumber: 'JOB-000001', kind: 'booking', expiresAt: null }],
      undefined,
      opened,
    );
    expect(full[1]).toMatchObject({ isAvailable: false, state: 'booked' });
  });

  it('a WA public holiday is closed with its name until opened (issue 19)', () => {
    const states = slotStates(MONDAY, at('07:00'), [], []);
    expect(
      states.every((s) => !s.isAvailable && s.blockedReason === 'Public holiday (Western Australia Day)'),
    ).toBe(true);
    expect(states[0]!.state).toBe('holiday');
  });

  it('a slot is full when its live jobs reach the capacity (technicians rostered minus leave)', () => {
    const job = (n: number, slot = '8-10 AM'): LiveReservation => ({
      slot,
      jobId: `j${n}`,
      jobNumber: `JOB-00000${n}`,
      kind: 'booking',
      expiresAt: null,
    });
    const day = { ...NO_CALENDAR, activeTechnicians: 3, rostered: 3, onLeave: 1 };
    const one = slotStates('2030-06-04', at('07:00'), [], [job(1)], undefined, day);
    expect(one[0]).toMatchObject({ isAvailable: true, capacity: 2 });
    const two = slotStates('2030-06-04', at('07:00'), [], [job(1), job(2)], undefined, day);
    expect(two[0]).toMatchObject({ isAvailable: false, state: 'booked', blockedReason: null });
    expect(two[0]!.reservations).toHaveLength(2);
    expect(two[1]!.isAvailable).toBe(true);
    // No active technician at all: one job per slot, as before.
    expect(slotStates('2030-06-04', at('07:00'), [], [])[0]!.isAvailable).toBe(true);
    expect(slotStates('2030-06-04', at('07:00'), [], [job(1)])[0]!.isAvailable).toBe(false);
    // Everyone on leave: closed with the reason.
    const none = slotStates('2030-06-04', at('07:00'), [], [], undefined, {
      ...NO_CALENDAR,
      activeTechnicians: 2,
      rostered: 2,
      onLeave: 2,
    });
    expect(none[0]).toMatchObject({
      isAvailable: false,
      state: 'no-technician',
      blockedReason: 'No technician available (leave)',
    });
    // Technicians exist but nobody works this weekday: capacity 0, not offered.
    const nobody = slotStates('2030-06-04', at('07:00'), [], [], undefined, {
      ...NO_CALENDAR,
      activeTechnicians: 2,
    });
    expect(nobody.every((s) => !s.isAvailable && s.capacity === 0)).toBe(true);
    expect(nobody[0]).toMatchObject({ state: 'no-technician', blockedReason: 'No technician rostered' });
  });

  it('calendar blocks: a whole-day block closes every slot, a slot block one (reason shown)', () => {
    const whole = slotStates('2030-06-04', at('07:00'), [], [], undefined, {
      ...NO_CALENDAR,
      calendarBlocks: [{ slot: null, reason: 'Staff training' }],
    });
    expect(whole.every((s) => s.blockedReason === 'Staff training' && !s.isAvailable)).toBe(true);
    const friday = slotStates('2030-06-07', at('07:00'), [], [], undefined, {
      ...NO_CALENDAR,
      calendarBlocks: [{ slot: '2-4 PM', reason: 'Supplier pickup' }],
    });
    expect(friday.map((s) => s.isAvailable)).toEqual([true, true, true, false]);
  });

  it('a block shows its reason; a booking shows no reason (the site says "Unavailable")', () => {
    const states = slotStates(
      '2030-06-04',
      at('07:00'),
      [{ slot: '12-2 PM', reason: 'Van service' }],
      [
        { slot: '8-10 AM', jobId: 'j', jobNumber: 'JOB-000001', kind: 'booking', expiresAt: null },
        {
          slot: '10-12 AM',
          jobId: 'h',
          jobNumber: 'JOB-000002',
          kind: 'hold',
          expiresAt: at('06:59', '2030-06-03').getTime(),
        },
        {
          slot: '2-4 PM',
          jobId: 'k',
          jobNumber: 'JOB-000003',
          kind: 'hold',
          expiresAt: at('07:01', '2030-06-03').getTime(),
        },
      ],
    );
    expect(states[0]).toMatchObject({ isAvailable: false, blockedReason: null, state: 'booked' });
    // A hold counts until it expires, not after (whether or not the sweeper released it yet).
    expect(states[1]).toMatchObject({ isAvailable: true, state: null, reservation: null });
    expect(states[2]).toMatchObject({
      isAvailable: false,
      blockedReason: 'Van service',
      state: 'blocked',
      isBlocked: true,
    });
    expect(states[3]).toMatchObject({ isAvailable: false, state: 'booked' });
  });
});

describe('slotStates past the booking horizon', () => {
  const horizon = { days: 90, lastDate: '2030-09-01' };
  it('nothing can be chosen after the last date; each slot says why', () => {
    const states = slotStates('2030-09-02', at('07:00'), [], [], horizon);
    expect(states.map((s) => [s.isAvailable, s.state, s.blockedReason])).toEqual(
      Array(4).fill([false, 'not-open', 'Bookings open 90 days ahead']),
    );
  });
  it('the last date itself is open; a weekend keeps its own reason', () => {
    expect(slotStates('2030-09-02', at('07:00'), [], [], { ...horizon, lastDate: '2030-09-02' })).toEqual(
      slotStates('2030-09-02', at('07:00'), [], []),
    );
    const saturday = slotStates('2030-09-07', at('07:00'), [], [], horizon);
    expect(saturday.every((s) => s.blockedReason === WEEKEND_REASON)).toBe(true);
  });
  it('without a horizon (the admin slot manager) later dates keep their real state', () => {
    const states = slotStates('2031-03-04', at('07:00'), [{ slot: '8-10 AM', reason: 'Holiday' }], []);
    expect(states.map((s) => s.state)).toEqual(['blocked', null, null, null]);
  });
});

describe('bookableProblem', () => {
  const now = at('10:30');
  it('accepts a future business-day slot', () =>
    expect(bookableProblem('2030-06-04', '8-10 AM', now)).toBeUndefined());
  it('accepts a later slot today', () => expect(bookableProblem(MONDAY, '12-2 PM', now)).toBeUndefined());
  it('rejects an unknown slot', () =>
    expect(bookableProblem('2030-06-04', '4-6 PM', now)).toBe('Invalid time slot'));
  it('rejects past dates, started slots and weekends', () => {
    expect(bookableProblem('2030-05-31', '12-2 PM', now)).toBe('Invalid date or time slot selected');
    expect(bookableProblem(MONDAY, '8-10 AM', now)).toBe('Invalid date or time slot selected');
    expect(bookableProblem(MONDAY, '10-12 AM', at('11:45'))).toBe('Invalid date or time slot selected');
    expect(bookableProblem('2030-06-08', '8-10 AM', now)).toBe('Invalid date or time slot selected');
  });
  it('accepts the started slot of an emergency callout (10:30: arrival from 11:00 in 10-12 AM)', () =>
    expect(bookableProblem(MONDAY, '10-12 AM', now)).toBeUndefined());
});
