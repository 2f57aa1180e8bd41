/**
 * Issue 19: capacity per technician and the business calendar, against a real booking service (its own database,
 * the real bus). Technicians arrive as the gateway's user events; the roster defaults to Monday to Friday.
 *  - capacity 2: of 20 concurrent public bookings for one slot exactly 2 succeed, the rest 409 with the slot-taken
 *    message; leave and roster days change the capacity;
 *  - a WA public holiday offers no slots until an admin opens it;
 *  - blocks: a whole day, a date range, a recurring slot;
 *  - a reschedule respects the capacity; the assign selector's suggestion is a free technician.
 */
import { randomUUID } from 'node:crypto';
import { UserCreated } from '@tyres/events';
import { BOOKING_MESSAGES, isWeekend, waPublicHolidays } from '@tyres/kernel';
import {
  bookingBody,
  businessDays,
  startTestBooking,
  type BookingUnderTest,
} from '../../services/booking/test/integration/harness';

jest.setTimeout(120_000);

let app: BookingUnderTest;
const nextDay = businessDays('2032-05-03');
const admin = () => app.identity('admin');
const techA = randomUUID();
const techB = randomUUID();

const slots = async (date: string) =>
  (await app.request('GET', `/api/time-slots?date=${date}`)).body as unknown as {
    slot: string;
    isAvailable: boolean;
    blockedReason: string | null;
  }[];
const slotOf = async (date: string, slot: string) => (await slots(date)).find((s) => s.slot === slot)!;
const book = async (date: string, slot: string) => {
  const res = await app.request('POST', '/api/bookings', bookingBody(date, slot));
  return res;
};
const race = async (date: string, slot: string, n: number) => {
  const results = await Promise.all(Array.from({ length: n }, () => book(date, slot)));
  return {
    ok: results.filter((r) => r.status === 201).length,
    conflicts: results.filter((r) => r.status === 409),
    other: results.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.status),
  };
};

beforeAll(async () => {
  app = await startTestBooking('booking-capacity');
  // Blocks and leave are planned at most a year ahead: the business clock stands early in January 2032.
  app.clock.set(new Date('2032-01-05T07:00:00+08:00'));
  const now = new Date().toISOString();
  for (const [userId, username] of [
    [techA, 'tech.alice'],
    [techB, 'tech.bob'],
  ] as const)
    await app.publish(UserCreated, {
      userId,
      username,
      email: null,
      role: 'technician',
      isActive: true,
      createdAt: now,
    });
  // An admin's user.created is not a technician: not rostered.
  await app.publish(UserCreated, {
    userId: randomUUID(),
    username: 'office.admin',
    email: null,
    role: 'admin',
    isActive: true,
    createdAt: now,
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const roster = await app.request('GET', '/api/dashboard/calendar/roster', undefined, admin());
    if (roster.status === 200 && (roster.body as unknown[]).length === 2) break;
    if (Date.now() > deadline) throw new Error(`roster never had 2 technicians: ${roster.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  await app?.stop();
});

describe('capacity per slot = technicians rostered that day (issue 19)', () => {
  it('the roster lists the technicians from user events, Monday to Friday by default', async () => {
    const roster = await app.request('GET', '/api/dashboard/calendar/roster', undefined, admin());
    expect(roster.status).toBe(200);
    expect(roster.body).toEqual([
      expect.objectContaining({
        userId: techA,
        username: 'tech.alice',
        isActive: true,
        weekdays: [1, 2, 3, 4, 5],
        leave: [],
      }),
      expect.objectContaining({
        userId: techB,
        username: 'tech.bob',
        isActive: true,
        weekdays: [1, 2, 3, 4, 5],
        leave: [],
      }),
    ]);
  });

  it('capacity 2: of 20 concurrent public bookings exactly 2 succeed, the rest 409 "just booked"', async () => {
    const date = nextDay();
    const r = await race(date, '10-12 AM', 20);
    expect(r.other).toEqual([]);
    expect(r.ok).toBe(2);
    expect(r.conflicts).toHaveLength(18);
    for (const c of r.conflicts) expect(c.body.message ?? c.body.error).toBe(BOOKING_MESSAGES.slotJustBooked);
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE date = $1 AND time_slot = '10-12 AM' AND released_at IS NULL`,
      [date],
    );
    expect(rows[0].n).toBe(2);
    expect((await slotOf(date, '10-12 AM')).isAvailable).toBe(false);
    expect((await slotOf(date, '12-2 PM')).isAvailable).toBe(true);
    const adminSlots = await app.request('GET', `/api/dashboard/timeslots?date=${date}`, undefined, admin());
    const s = (
      adminSlots.body as unknown as { slot: string; capacity: number; bookings: unknown[]; state: string }[]
    ).find((x) => x.slot === '10-12 AM')!;
    expect(s).toMatchObject({ capacity: 2, state: 'booked' });
    expect(s.bookings).toHaveLength(2);
  });

  it('one booked of two: still offered; the assign selector suggests a free technician', async () => {
    const date = nextDay();
    const first = await book(date, '8-10 AM');
    expect(first.status).toBe(201);
    expect((await slotOf(date, '8-10 AM')).isAvailable).toBe(true);
    const suggestion = await app.request(
      'GET',
      `/api/dashboard/calendar/jobs/${first.body.jobId as string}/technician-suggestion`,
      undefined,
      admin(),
    );
    expect(suggestion.status).toBe(200);
    expect([techA, techB]).toContain(suggestion.body.suggestedTechnicianId);
    const cap = await app.request('GET', `/api/dashboard/calendar/capacity?date=${date}`, undefined, admin());
    expect(cap.body).toMatchObject({ rostered: 2, onLeave: 0, capacity: 2 });
  });

  it('leave takes a technician off: capacity 1 that day (1 of 5 wins), 2 again the day after', async () => {
    const date = nextDay();
    const after = nextDay();
    const leave = await app.request(
      'POST',
      `/api/dashboard/calendar/roster/${techA}/leave`,
      { startDate: date, endDate: date, reason: 'Annual leave' },
      admin(),
    );
    expect(leave.status).toBe(201);
    expect((await race(date, '12-2 PM', 5)).ok).toBe(1);
    expect((await race(after, '12-2 PM', 5)).ok).toBe(2);
    // Both on leave: nobody to send, the day shows why.
    const both = nextDay();
    for (const t of [techA, techB])
      await app.request(
        'POST',
        `/api/dashboard/calendar/roster/${t}/leave`,
        { startDate: both, endDate: both, reason: 'Training' },
        admin(),
      );
    expect(await slotOf(both, '8-10 AM')).toMatchObject({
      isAvailable: false,
      blockedReason: 'No technician available (leave)',
    });
    expect((await book(both, '8-10 AM')).status).toBe(409);
  });

  it('roster days change the capacity: Bob on Mondays only leaves 1 job per slot on other weekdays', async () => {
    const put = await app.request(
      'PUT',
      `/api/dashboard/calendar/roster/${techB}`,
      { weekdays: [1] },
      admin(),
    );
    expect(put.status).toBe(200);
    expect(put.body.weekdays).toEqual([1]);
    let date = nextDay();
    while (new Date(`${date}T00:00:00Z`).getUTCDay() === 1) date = nextDay();
    expect((await race(date, '2-4 PM', 4)).ok).toBe(1);
    const bad = await app.request(
      'PUT',
      `/api/dashboard/calendar/roster/${techB}`,
      { weekdays: [0] },
      admin(),
    );
    expect(bad.status).toBe(400);
    await app.request(
      'PUT',
      `/api/dashboard/calendar/roster/${techB}`,
      { weekdays: [1, 2, 3, 4, 5] },
      admin(),
    );
  });

  it('a reschedule respects the capacity: moving a third job onto a full slot is 409, after a cancel it moves', async () => {
    const date = nextDay();
    const [a, b] = [await book(date, '8-10 AM'), await book(date, '8-10 AM')];
    expect([a.status, b.status]).toEqual([201, 201]);
    const third = await book(date, '2-4 PM');
    const move = () =>
      app.request(
        'PUT',
        `/internal/reservations/${third.body.jobId as string}`,
        { scheduledDate: date, timeSlot: '8-10 AM' },
        admin(),
      );
    const refused = await move();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(BOOKING_MESSAGES.slotNoLongerAvailable);
    expect(
      (await app.request('DELETE', `/internal/reservations/${a.body.jobId as string}`, undefined, admin()))
        .status,
    ).toBe(204);
    expect((await move()).status).toBe(200);
  });
});

describe('emergency callout "as soon as possible" (issue 19, item 2)', () => {
  afterEach(() => app.clock.set(new Date('2032-01-05T07:00:00+08:00')));

  it('at 10:30 today the 10-12 AM slot under way is bookable while it has a technician free, then 409', async () => {
    // Tuesday 6 January 2032, 10:30 in Perth: arrival in 30-60 minutes falls in 10-12 AM.
    app.clock.set(new Date('2032-01-06T10:30:00+08:00'));
    const list = await slots('2032-01-06');
    expect(list.map((s) => [s.slot, s.isAvailable])).toEqual([
      ['8-10 AM', false],
      ['10-12 AM', true],
      ['12-2 PM', true],
      ['2-4 PM', true],
    ]);
    const first = await book('2032-01-06', '10-12 AM');
    expect(first.status).toBe(201);
    const { rows } = await app.pg.query(`SELECT notes FROM booking.bookings WHERE job_id = $1`, [
      first.body.jobId,
    ]);
    expect(rows[0].notes).toMatch(/^EMERGENCY CALLOUT: as soon as possible \(response time 30-60 minutes\)/);
    expect((await book('2032-01-06', '10-12 AM')).status).toBe(201); // the second technician
    const full = await book('2032-01-06', '10-12 AM');
    expect(full.status).toBe(409);
    expect(full.body.message).toBe(BOOKING_MESSAGES.slotJustBooked);
    // The 8-10 AM slot has passed for everyone: 400.
    expect((await book('2032-01-06', '8-10 AM')).status).toBe(400);
  });
});

describe('the business calendar (issue 19)', () => {
  const holiday = waPublicHolidays(2032).find((h) => !isWeekend(h.date) && h.date > '2032-01-10')!;

  it(`a WA public holiday (${holiday.name}, ${holiday.date}) offers no slots until an admin opens it`, async () => {
    const list = await slots(holiday.date);
    expect(list.every((s) => !s.isAvailable && s.blockedReason === `Public holiday (${holiday.name})`)).toBe(
      true,
    );
    expect((await book(holiday.date, '10-12 AM')).status).toBe(409);
    const listed = await app.request('GET', '/api/dashboard/calendar/holidays?year=2032', undefined, admin());
    expect(listed.body).toContainEqual(expect.objectContaining({ date: holiday.date, opened: false }));
    const open = await app.request(
      'PUT',
      `/api/dashboard/calendar/holidays/${holiday.date}/open`,
      { reason: 'Extra demand' },
      admin(),
    );
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ date: holiday.date, opened: true, openedReason: 'Extra demand' });
    expect((await slots(holiday.date)).every((s) => s.isAvailable)).toBe(true);
    expect((await book(holiday.date, '10-12 AM')).status).toBe(201);
    const close = await app.request(
      'DELETE',
      `/api/dashboard/calendar/holidays/${holiday.date}/open`,
      undefined,
      admin(),
    );
    expect(close.body.opened).toBe(false);
    expect((await slotOf(holiday.date, '2-4 PM')).isAvailable).toBe(false);
    const notHoliday = await app.request(
      'PUT',
      `/api/dashboard/calendar/holidays/2032-05-04/open`,
      {},
      admin(),
    );
    expect(notHoliday.status).toBe(400);
    expect(notHoliday.body.message).toBe('That date is not a WA public holiday');
  });

  it('blocks a whole day, a date range and a recurring slot, with a reason; removing one reopens', async () => {
    const day = nextDay();
    const res = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'day', date: day, reason: 'Staff training' },
      admin(),
    );
    expect(res.status).toBe(201);
    expect((await slots(day)).every((s) => !s.isAvailable && s.blockedReason === 'Staff training')).toBe(
      true,
    );
    expect((await book(day, '8-10 AM')).status).toBe(409);
    expect(
      (
        await app.request(
          'DELETE',
          `/api/dashboard/calendar/blocks/${res.body.id as string}`,
          undefined,
          admin(),
        )
      ).status,
    ).toBe(204);
    expect((await slots(day)).every((s) => s.isAvailable)).toBe(true);

    const [from, mid, to, next] = [nextDay(), nextDay(), nextDay(), nextDay()];
    const range = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'range', startDate: from, endDate: to, reason: 'Van service' },
      admin(),
    );
    expect(range.status).toBe(201);
    for (const d of [from, mid, to]) expect((await slotOf(d, '12-2 PM')).blockedReason).toBe('Van service');
    expect((await slotOf(next, '12-2 PM')).isAvailable).toBe(true);

    // Every <weekday of `next`> 2-4 PM.
    const weekday = ((new Date(`${next}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;
    const recurring = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'recurring', weekday, timeSlot: '2-4 PM', startDate: next, reason: 'Supplier pickup' },
      admin(),
    );
    expect(recurring.status).toBe(201);
    const weekLater = new Date(Date.parse(`${next}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    for (const d of [next, weekLater]) {
      expect(await slotOf(d, '2-4 PM')).toMatchObject({
        isAvailable: false,
        blockedReason: 'Supplier pickup',
      });
      expect((await slotOf(d, '10-12 AM')).isAvailable).toBe(true);
    }
    expect((await book(weekLater, '2-4 PM')).status).toBe(409);
    const listed = await app.request('GET', '/api/dashboard/calendar/blocks', undefined, admin());
    expect((listed.body as unknown as { kind: string }[]).map((b) => b.kind).sort()).toEqual([
      'range',
      'recurring',
    ]);
  });

  it('refuses blocks without a reason or with the end before the start (400), and non-admins (403)', async () => {
    const d = nextDay();
    const noReason = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'day', date: d, reason: ' ' },
      admin(),
    );
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('Please enter a reason');
    const backwards = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'range', startDate: '2032-06-10', endDate: '2032-06-09', reason: 'x' },
      admin(),
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toBe('The end date must be on or after the start date');
    const far = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'day', date: '2033-03-01', reason: 'x' },
      admin(),
    );
    expect(far.status).toBe(400);
    expect(far.body.message).toBe('Dates can be at most a year ahead');
    const past = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'day', date: '2031-12-31', reason: 'x' },
      admin(),
    );
    expect(past.body.message).toBe('Dates must be today or later');
    const tech = await app.request(
      'GET',
      '/api/dashboard/calendar/roster',
      undefined,
      app.identity('technician'),
    );
    expect(tech.status).toBe(403);
  });
});

describe('blocks keep the jobs already there and list them (issue 19 audit)', () => {
  type Kept = { jobId: string; jobNumber: string; date: string; slot: string; kind: string };

  it('a partly booked slot of capacity 2 takes a slot block: no more bookings, its job kept and listed', async () => {
    const date = nextDay();
    const first = await book(date, '12-2 PM');
    expect(first.status).toBe(201);
    expect((await slotOf(date, '12-2 PM')).isAvailable).toBe(true); // one of two taken
    const res = await app.request(
      'PATCH',
      `/api/dashboard/timeslots/${date}/12-2%20PM/block`,
      { reason: 'Van at the mechanic' },
      admin(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isBlocked: true, capacity: 2, blockedReason: 'Van at the mechanic' });
    expect(res.body.keptBookings).toEqual([
      { jobId: first.body.jobId, jobNumber: first.body.jobNumber, date, slot: '12-2 PM', kind: 'booking' },
    ]);
    expect(await slotOf(date, '12-2 PM')).toMatchObject({
      isAvailable: false,
      blockedReason: 'Van at the mechanic',
    });
    expect((await book(date, '12-2 PM')).status).toBe(409);
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE job_id = $1 AND released_at IS NULL`,
      [first.body.jobId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('a range and a whole-day block list the bookings they keep (job, date, slot), in date and slot order', async () => {
    const [d1, d2, after] = [nextDay(), nextDay(), nextDay()];
    const jobs = [
      await book(d2, '2-4 PM'),
      await book(d1, '10-12 AM'),
      await book(d1, '8-10 AM'),
      await book(after, '8-10 AM'),
    ];
    expect(jobs.map((j) => j.status)).toEqual([201, 201, 201, 201]);
    const range = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'range', startDate: d1, endDate: d2, reason: 'Stocktake' },
      admin(),
    );
    expect(range.status).toBe(201);
    expect(range.body).toMatchObject({ kind: 'range', startDate: d1, endDate: d2, reason: 'Stocktake' });
    expect((range.body.keptBookings as Kept[]).map((k) => [k.jobNumber, k.date, k.slot, k.kind])).toEqual([
      [jobs[2]!.body.jobNumber, d1, '8-10 AM', 'booking'],
      [jobs[1]!.body.jobNumber, d1, '10-12 AM', 'booking'],
      [jobs[0]!.body.jobNumber, d2, '2-4 PM', 'booking'],
    ]);
    const day = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'day', date: after, reason: 'Staff training' },
      admin(),
    );
    expect(day.status).toBe(201);
    expect(day.body.keptBookings).toEqual([
      {
        jobId: jobs[3]!.body.jobId,
        jobNumber: jobs[3]!.body.jobNumber,
        date: after,
        slot: '8-10 AM',
        kind: 'booking',
      },
    ]);
    // Kept, not released.
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE job_id = ANY($1::uuid[]) AND released_at IS NULL`,
      [jobs.map((j) => j.body.jobId)],
    );
    expect(rows[0].n).toBe(4);
    // A block over empty days keeps nothing.
    const empty = await app.request(
      'POST',
      '/api/dashboard/calendar/blocks',
      { kind: 'day', date: nextDay(), reason: 'Quiet day' },
      admin(),
    );
    expect(empty.body.keptBookings).toEqual([]);
  });
});

describe('a weekday nobody is rostered on (issue 19 audit)', () => {
  afterAll(async () => {
    for (const t of [techA, techB])
      await app.request('PUT', `/api/dashboard/calendar/roster/${t}`, { weekdays: [1, 2, 3, 4, 5] }, admin());
  });

  it('has capacity 0 while the business has technicians: not offered, "No technician rostered", bookings 409', async () => {
    for (const t of [techA, techB])
      expect(
        (await app.request('PUT', `/api/dashboard/calendar/roster/${t}`, { weekdays: [1] }, admin())).status,
      ).toBe(200);
    let date = nextDay();
    while (new Date(`${date}T00:00:00Z`).getUTCDay() === 1) date = nextDay();
    const list = await slots(date);
    expect(list.every((s) => !s.isAvailable && s.blockedReason === 'No technician rostered')).toBe(true);
    const adminSlots = await app.request('GET', `/api/dashboard/timeslots?date=${date}`, undefined, admin());
    expect(
      (adminSlots.body as unknown as { capacity: number; state: string }[]).every(
        (s) => s.capacity === 0 && s.state === 'no-technician',
      ),
    ).toBe(true);
    const cap = await app.request('GET', `/api/dashboard/calendar/capacity?date=${date}`, undefined, admin());
    expect(cap.body).toMatchObject({ rostered: 0, capacity: 0 });
    expect((await book(date, '8-10 AM')).status).toBe(409);
  });
});
