/**
 * Races on one slot beyond the plain 50-bookings case (bookings.int.test.ts): prepaid holds against bookings, an
 * admin block against bookings, and one Idempotency-Key sent many times at once.
 */
import { randomUUID } from 'node:crypto';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest, type Http } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-11-03');

beforeAll(async () => {
  app = await startTestBooking('booking-races');
});
afterAll(async () => {
  await app?.stop();
});

const liveReservations = async (date: string, slot: string) =>
  (
    await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE date = $1 AND time_slot = $2 AND released_at IS NULL`,
      [date, slot],
    )
  ).rows[0].n as number;

const statuses = (results: Http[]) => results.map((r) => r.status);

describe('racing for one slot', () => {
  it('30 prepaid quotes and 30 bookings at once: one wins (hold or booking), 59 get 409, no 5xx', async () => {
    const date = nextDay();
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? app.request('POST', '/api/bookings', bookingBody(date, '10-12 AM'))
          : app.request(
              'POST',
              '/api/bookings/quote',
              bookingBody(date, '10-12 AM', { job: { paymentMethod: 'prepaid' } }),
            ),
      ),
    );
    const s = statuses(results);
    expect(s.filter((x) => x === 201)).toHaveLength(1);
    expect(s.filter((x) => x === 409)).toHaveLength(59);
    expect(
      results
        .filter((r) => r.status === 409)
        .every(
          (r) =>
            r.body.message ===
            'This time slot was just booked by someone else. Please select a different time slot.',
        ),
    ).toBe(true);
    expect(await liveReservations(date, '10-12 AM')).toBe(1);
    // Exactly one booking row was written for the slot; the losers left nothing behind.
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.bookings WHERE scheduled_date = $1 AND time_slot = '10-12 AM'`,
      [date],
    );
    expect(rows[0].n).toBe(1);
  });

  it('an admin block racing 20 bookings: either the block or one booking wins, never both', async () => {
    const date = nextDay();
    const admin = app.identity('admin');
    const [block, ...bookings] = await Promise.all([
      app.request(
        'PATCH',
        `/api/dashboard/timeslots/${date}/2-4%20PM/block`,
        { reason: 'Van service' },
        admin,
      ),
      ...Array.from({ length: 20 }, () => app.request('POST', '/api/bookings', bookingBody(date, '2-4 PM'))),
    ]);
    const won = bookings.filter((r) => r.status === 201);
    expect(bookings.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    if (block!.status === 200) {
      expect(won).toHaveLength(0);
      expect(await liveReservations(date, '2-4 PM')).toBe(0);
    } else {
      expect(block!.status).toBe(409);
      expect(won).toHaveLength(1);
      expect(await liveReservations(date, '2-4 PM')).toBe(1);
    }
  });

  it('one Idempotency-Key sent 10 times at once: one booking, every answer the same', async () => {
    const date = nextDay();
    const body = bookingBody(date, '8-10 AM');
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        app.request('POST', '/api/bookings', body, { 'Idempotency-Key': key }),
      ),
    );
    expect(statuses(results)).toEqual(Array(10).fill(201));
    expect(new Set(results.map((r) => r.body.jobId)).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.bookings WHERE scheduled_date = $1`,
      [date],
    );
    expect(rows[0].n).toBe(1);
  });

  it('a prepaid quote replayed by its Idempotency-Key returns the same token (no second hold)', async () => {
    const date = nextDay();
    const body = bookingBody(date, '12-2 PM', { job: { paymentMethod: 'prepaid' } });
    const key = randomUUID();
    const first = await app.request('POST', '/api/bookings/quote', body, { 'Idempotency-Key': key });
    const again = await app.request('POST', '/api/bookings/quote', body, { 'Idempotency-Key': key });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.bookingToken).toBe(first.body.bookingToken);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await liveReservations(date, '12-2 PM')).toBe(1);
  });
});
