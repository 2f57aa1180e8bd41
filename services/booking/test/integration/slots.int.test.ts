import { randomUUID } from 'node:crypto';
import { waitFor } from '@tyres/testkit';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-06-02');

beforeAll(async () => {
  app = await startTestBooking('booking-slots');
});
afterAll(async () => {
  await app?.stop();
});
afterEach(() => app.clock.reset());

type Slot = { slot: string; isAvailable: boolean; blockedReason: string | null };
const ALL = ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'];

describe('GET /api/time-slots', () => {
  it('lists the four slots of a business day', async () => {
    const res = await app.request('GET', `/api/time-slots?date=${nextDay()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ALL.map((slot) => ({ slot, isAvailable: true, blockedReason: null })));
  });

  it('weekend days: every slot unavailable with a reason', async () => {
    const res = await app.request('GET', '/api/time-slots?date=2031-05-10');
    expect((res.body as Slot[]).every((s) => !s.isAvailable && /weekend/i.test(s.blockedReason ?? ''))).toBe(
      true,
    );
  });

  it('past and malformed dates: 400 "Invalid date or time slot selected"', async () => {
    for (const q of ['date=2020-01-06', 'date=2031-13-01', 'date=tomorrow', '']) {
      const res = await app.request('GET', `/api/time-slots?${q}`);
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 400,
        message: 'Invalid date or time slot selected',
      });
    }
    expect((await app.request('GET', '/api/time-slots/2020-01-06')).status).toBe(400);
    expect((await app.request('GET', '/api/time-slots/availability?date=bad')).status).toBe(400);
  });

  it('"Time has passed" for slots already started today in Perth', async () => {
    // 11:45 on a Wednesday in Perth (an emergency callout now arrives from 12:15, in 12-2 PM: issue 19).
    app.clock.set(new Date('2031-05-07T11:45:00+08:00'));
    const res = await app.request('GET', '/api/time-slots?date=2031-05-07');
    expect(res.body).toEqual([
      { slot: '8-10 AM', isAvailable: false, blockedReason: 'Time has passed' },
      { slot: '10-12 AM', isAvailable: false, blockedReason: 'Time has passed' },
      { slot: '12-2 PM', isAvailable: true, blockedReason: null },
      { slot: '2-4 PM', isAvailable: true, blockedReason: null },
    ]);
    const late = await app.request('POST', '/api/bookings', bookingBody('2031-05-07', '10-12 AM'));
    expect(late).toMatchObject({ status: 400, body: { message: 'Invalid date or time slot selected' } });
    expect((await app.request('POST', '/api/bookings', bookingBody('2031-05-07', '12-2 PM'))).status).toBe(
      201,
    );
    // "Today" is Perth's: at 01:00 Thursday in Perth (17:00 Wednesday UTC) Wednesday is in the past.
    app.clock.set(new Date('2031-05-07T17:00:00Z'));
    expect((await app.request('GET', '/api/time-slots?date=2031-05-07')).status).toBe(400);
  });

  it('availability (staff form) and /{isoDate} (reschedule dialog: free slots only)', async () => {
    const date = nextDay();
    await app.request('POST', '/api/bookings', bookingBody(date, '10-12 AM'));
    const availability = await app.request('GET', `/api/time-slots/availability?date=${date}`);
    expect((availability.body as Slot[]).map((s) => [s.slot, s.isAvailable])).toEqual([
      ['8-10 AM', true],
      ['10-12 AM', false],
      ['12-2 PM', true],
      ['2-4 PM', true],
    ]);
    const free = await app.request('GET', `/api/time-slots/${date}`);
    expect(free.body).toEqual([{ slot: '8-10 AM' }, { slot: '12-2 PM' }, { slot: '2-4 PM' }]);
    // An ISO date-time works too (the dialog's Date object): midnight in Perth.
    const iso = await app.request(
      'GET',
      `/api/time-slots/${new Date(`${date}T00:00:00+08:00`).toISOString()}`,
    );
    expect(iso.body).toEqual(free.body);
  });
});

describe('slot list cache', () => {
  it('serves lists from memory, and a change made outside this replica (NOTIFY) reaches them', async () => {
    const date = nextDay();
    const cache = app.service.slotCache;
    await waitFor(() => cache.isEnabled, { message: 'slot change listener' });
    const booked = await app.request('POST', '/api/bookings', bookingBody(date, '8-10 AM'));
    expect(booked.status).toBe(201);
    const hitsBefore = cache.hits;
    expect(((await app.request('GET', `/api/time-slots?date=${date}`)).body as Slot[])[0]!.isAvailable).toBe(
      false,
    );
    expect(((await app.request('GET', `/api/time-slots?date=${date}`)).body as Slot[])[0]!.isAvailable).toBe(
      false,
    );
    expect(cache.hits).toBeGreaterThan(hitsBefore);
    // Another replica (or psql) frees the slot: the trigger's NOTIFY drops the cached list here.
    await app.pg.query(`UPDATE booking.slot_reservations SET released_at = now() WHERE job_id = $1`, [
      booked.body.jobId,
    ]);
    await waitFor(
      async () => ((await app.request('GET', `/api/time-slots?date=${date}`)).body as Slot[])[0]!.isAvailable,
      {
        timeoutMs: 2000,
        message: 'freed slot visible',
      },
    );
    await app.pg.query(
      `INSERT INTO booking.time_slots (id, date, slot, is_available, blocked_reason) VALUES ($1, $2, '2-4 PM', false, 'Staff training')`,
      [randomUUID(), date],
    );
    await waitFor(
      async () =>
        ((await app.request('GET', `/api/time-slots?date=${date}`)).body as Slot[])[3]!.blockedReason ===
        'Staff training',
      {
        timeoutMs: 2000,
        message: 'block visible',
      },
    );
  });
});

describe('time slot management (admin)', () => {
  const admin = () => app.identity('admin');

  it('blocks with a reason, lists the state, unblocks; SlotBlocked/SlotUnblocked go through the outbox', async () => {
    const date = nextDay();
    const path = `/api/dashboard/timeslots/${date}/${encodeURIComponent('12-2 PM')}`;
    const blocked = await app.request('PATCH', `${path}/block`, { reason: 'Van in for service' }, admin());
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({
      date,
      slot: '12-2 PM',
      isAvailable: false,
      blockedReason: 'Van in for service',
      isBlocked: true,
    });

    const publicList = await app.request('GET', `/api/time-slots?date=${date}`);
    expect((publicList.body as Slot[])[2]).toEqual({
      slot: '12-2 PM',
      isAvailable: false,
      blockedReason: 'Van in for service',
    });
    const booking = await app.request('POST', '/api/bookings', bookingBody(date, '12-2 PM'));
    expect(booking).toMatchObject({
      status: 409,
      body: { message: 'This time slot is no longer available. Please select a different time slot.' },
    });

    const list = await app.request('GET', `/api/dashboard/timeslots?date=${date}`, undefined, admin());
    expect(list.body).toHaveLength(4);
    expect((list.body as { id: string; state: string }[]).map((s) => s.state)).toEqual([
      'available',
      'available',
      'blocked',
      'available',
    ]);
    expect((list.body as { id: string }[])[0]!.id).toBe(`${date}_0800`);

    const unblocked = await app.request('PATCH', `${path}/unblock`, undefined, admin());
    expect(unblocked.body).toMatchObject({ isAvailable: true, blockedReason: null, isBlocked: false });
    expect((await app.request('PATCH', `${path}/unblock`, {}, admin())).status).toBe(200); // idempotent

    await app.events.waitFor('slot.blocked.v1', (d: { date: string }) => d.date === date);
    await app.events.waitFor('slot.unblocked.v1', (d: { date: string }) => d.date === date);
    expect(app.events.of('slot.unblocked.v1', (d: { date: string }) => d.date === date)).toHaveLength(1);
  });

  it('blocks a booked or held slot, keeping its job and listing it (keptBookings); refuses a blank reason (400), bad dates/slots (400)', async () => {
    const date = nextDay();
    const booked = await app.request('POST', '/api/bookings', bookingBody(date, '8-10 AM'));
    expect(booked.status).toBe(201);
    const res = await app.request(
      'PATCH',
      `/api/dashboard/timeslots/${date}/8-10%20AM/block`,
      { reason: 'Training' },
      admin(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      isBlocked: true,
      blockedReason: 'Training',
      keptBookings: [
        {
          jobId: booked.body.jobId,
          jobNumber: booked.body.jobNumber,
          date,
          slot: '8-10 AM',
          kind: 'booking',
        },
      ],
    });
    // The booking is kept (not released); the slot is closed to others with the block's reason.
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE job_id = $1 AND released_at IS NULL`,
      [booked.body.jobId],
    );
    expect(rows[0].n).toBe(1);
    const quote = await app.request(
      'POST',
      '/api/bookings/quote',
      bookingBody(date, '10-12 AM', { job: { paymentMethod: 'prepaid' } }),
    );
    const held = await app.request(
      'PATCH',
      `/api/dashboard/timeslots/${date}/10-12%20AM/block`,
      { reason: 'Training' },
      admin(),
    );
    expect(held.status).toBe(200);
    expect(held.body.keptBookings).toEqual([
      expect.objectContaining({ jobId: quote.body.jobId, slot: '10-12 AM', kind: 'hold' }),
    ]);
    // An empty slot's block keeps nothing.
    const empty = await app.request(
      'PATCH',
      `/api/dashboard/timeslots/${date}/12-2%20PM/block`,
      { reason: 'Training' },
      admin(),
    );
    expect(empty.body.keptBookings).toEqual([]);

    const blank = await app.request(
      'PATCH',
      `/api/dashboard/timeslots/${date}/2-4%20PM/block`,
      { reason: '   ' },
      admin(),
    );
    expect(blank).toMatchObject({
      status: 400,
      body: { message: 'Please enter a reason for blocking this time slot' },
    });
    expect(
      (
        await app.request(
          'PATCH',
          `/api/dashboard/timeslots/${date}/9-11%20AM/block`,
          { reason: 'x' },
          admin(),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await app.request(
          'PATCH',
          `/api/dashboard/timeslots/2020-01-06/2-4%20PM/block`,
          { reason: 'x' },
          admin(),
        )
      ).status,
    ).toBe(400);
  });

  it('is admin only', async () => {
    const date = nextDay();
    const path = `/api/dashboard/timeslots/${date}/2-4%20PM/block`;
    expect((await app.request('PATCH', path, { reason: 'x' })).status).toBe(401);
    expect(
      (await app.request('PATCH', path, { reason: 'x' }, app.identity('technician', randomUUID()))).status,
    ).toBe(403);
    expect(
      (
        await app.request(
          'GET',
          `/api/dashboard/timeslots?date=${date}`,
          undefined,
          app.identity('technician'),
        )
      ).status,
    ).toBe(403);
  });
});
