/**
 * Issue 14 item 6: bookings open 90 days ahead (BOOKING_HORIZON_DAYS). Beyond that, quotes, holds, bookings, the
 * staff form and moves are 400 naming the last date; the booking dialog's and staff form's slot lists show every
 * slot unavailable with the reason; the admin's slot manager still plans blocks further ahead.
 */
import { bookingBody, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
// Tuesday 4 June 2030, 9:00 in Perth: the last bookable date is Monday 2 September 2030.
const NOW = new Date('2030-06-04T09:00:00+08:00');
const LAST = '2030-09-02';
const BEYOND = '2030-09-03';
const MESSAGE = 'Bookings open 90 days ahead. Please choose a date on or before 2 September 2030.';
const refusal = {
  status: 400,
  body: {
    message: MESSAGE,
    code: 'beyond_booking_horizon',
    details: [{ path: 'job.scheduledDate', message: MESSAGE }],
  },
};

beforeAll(async () => {
  app = await startTestBooking('booking-horizon', { BOOKING_HORIZON_DAYS: '90' });
});
afterAll(async () => {
  await app?.stop();
});
beforeEach(() => app.clock.set(NOW));

const reservationsOn = async (date: string) =>
  (
    await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE date = $1::date AND released_at IS NULL`,
      [date],
    )
  ).rows[0].n as number;

describe('bookings, quotes and the staff form', () => {
  it('book up to the last date; the day after, and years ahead, are refused with the last date', async () => {
    expect((await app.request('POST', '/api/bookings', bookingBody(LAST, '2-4 PM'))).status).toBe(201);
    for (const date of [BEYOND, '2033-05-03', '2039-12-01']) {
      const res = await app.request('POST', '/api/bookings', bookingBody(date, '8-10 AM'));
      expect({ status: res.status, body: res.body }).toEqual(refusal);
    }
    expect(await reservationsOn(BEYOND)).toBe(0);
  });

  it('a prepaid quote (a 30-minute hold) past the horizon is refused and holds nothing', async () => {
    const res = await app.request(
      'POST',
      '/api/bookings/quote',
      bookingBody(BEYOND, '10-12 AM', { job: { paymentMethod: 'prepaid' } }),
    );
    expect({ status: res.status, body: res.body }).toEqual(refusal);
    expect(await reservationsOn(BEYOND)).toBe(0);
    const ok = await app.request(
      'POST',
      '/api/bookings/quote',
      bookingBody(LAST, '10-12 AM', { job: { paymentMethod: 'prepaid' } }),
    );
    expect(ok.status).toBe(201);
  });

  it('the staff form too (its date-time is read as the Perth date)', async () => {
    const staff = app.identity('admin');
    const body = (date: string) =>
      bookingBody(`${date}T00:00:00.000Z`, '8-10 AM', { vehicle: { color: 'Silver' } });
    const res = await app.request('POST', '/api/bookings', body(BEYOND), staff);
    expect({ status: res.status, body: res.body }).toEqual(refusal);
    expect((await app.request('POST', '/api/bookings', body(LAST), staff)).status).toBe(201);
  });

  it('the horizon moves with the Perth calendar: the next morning the day after opens', async () => {
    expect((await app.request('POST', '/api/bookings', bookingBody(BEYOND, '12-2 PM'))).status).toBe(400);
    app.clock.set(new Date('2030-06-05T00:00:00+08:00'));
    expect((await app.request('POST', '/api/bookings', bookingBody(BEYOND, '12-2 PM'))).status).toBe(201);
  });
});

describe('slot lists', () => {
  it('the booking dialog and staff form see every slot past the horizon unavailable, with the reason', async () => {
    for (const path of [`/api/time-slots?date=${BEYOND}`, `/api/time-slots/availability?date=${BEYOND}`]) {
      const res = await app.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        ['8-10 AM', '10-12 AM', '12-2 PM', '2-4 PM'].map((slot) => ({
          slot,
          isAvailable: false,
          blockedReason: 'Bookings open 90 days ahead',
        })),
      );
    }
    expect((await app.request('GET', `/api/time-slots/${BEYOND}`)).body).toEqual([]);
    const last = await app.request('GET', `/api/time-slots?date=${LAST}`);
    expect((last.body as { isAvailable: boolean }[]).some((s) => s.isAvailable)).toBe(true);
  });

  it("the admin's slot manager lists and blocks dates past the horizon (holidays planned ahead)", async () => {
    const admin = app.identity('admin');
    const list = await app.request('GET', `/api/dashboard/timeslots?date=2030-12-23`, undefined, admin);
    expect(list.status).toBe(200);
    expect((list.body as { state: string }[]).map((s) => s.state)).toEqual(Array(4).fill('available'));
    const block = await app.request(
      'PATCH',
      `/api/dashboard/timeslots/2030-12-23/8-10+AM/block`,
      { reason: 'Christmas break' },
      admin,
    );
    expect(block.status).toBe(200);
  });
});

describe('moves from the jobs service (staff rescheduling)', () => {
  it('a move past the horizon is refused with the same message; within it, it goes ahead', async () => {
    const booked = await app.request('POST', '/api/bookings', bookingBody('2030-07-01', '8-10 AM'));
    const jobId = (booked.body as unknown as { jobId: string }).jobId;
    const staff = app.identity('admin');
    const beyond = await app.request(
      'PUT',
      `/internal/reservations/${jobId}`,
      { scheduledDate: BEYOND, timeSlot: '2-4 PM' },
      staff,
    );
    expect({ status: beyond.status, message: beyond.body.message }).toEqual({
      status: 400,
      message: MESSAGE,
    });
    const within = await app.request(
      'PUT',
      `/internal/reservations/${jobId}`,
      { scheduledDate: LAST, timeSlot: '12-2 PM' },
      staff,
    );
    expect(within.status).toBe(200);
  });
});
