import { randomUUID } from 'node:crypto';
import { PaymentSucceeded } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-03-03');

beforeAll(async () => {
  app = await startTestBooking('booking-prepaid');
});
afterAll(async () => {
  await app?.stop();
});
afterEach(() => app.clock.reset());

interface QuoteAnswer {
  bookingToken: string;
  amount: string;
  currency: string;
  scheduledDate: string;
  quoteId: string;
  jobId: string;
  jobNumber: string;
  expiresAt: string;
}

async function quote(date: string, slot: string, over: Parameters<typeof bookingBody>[2] = {}) {
  const res = await app.request(
    'POST',
    '/api/bookings/quote',
    bookingBody(date, slot, { ...over, job: { paymentMethod: 'prepaid', ...over.job } }),
  );
  return { res, q: res.body as unknown as QuoteAnswer };
}

function paid(q: QuoteAnswer, over: Partial<{ quoteId: string | null; jobId: string | null }> = {}) {
  return {
    paymentId: randomUUID(),
    paymentIntentId: `pi_${randomUUID().replace(/-/g, '')}`,
    quoteId: q.quoteId,
    jobId: null,
    originalAmount: q.amount,
    surchargeAmount: '7.78',
    amount: '465.58',
    currency: 'AUD' as const,
    mode: 'test' as const,
    succeededAt: new Date().toISOString(),
    ...over,
  };
}

const slotOf = async (date: string, slot: string) =>
  (
    (await app.request('GET', `/api/time-slots?date=${date}`)).body as {
      slot: string;
      isAvailable: boolean;
    }[]
  ).find((s) => s.slot === slot)!;

describe('prepaid quotes', () => {
  it('hold the slot and answer bookingToken, amount, currency and scheduledDate; BookingQuoted goes out', async () => {
    const date = nextDay();
    const { res, q } = await quote(date, '8-10 AM');
    expect(res.status).toBe(201);
    expect(q).toMatchObject({
      bookingToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      amount: '457.80', // (159 + 40) x 2 + 89.80 - 30
      currency: 'AUD',
      scheduledDate: date,
      jobNumber: expect.stringMatching(/^JOB-\d{6}$/),
    });
    expect(new Date(q.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect((await slotOf(date, '8-10 AM')).isAvailable).toBe(false);
    const taken = await app.request('POST', '/api/bookings', bookingBody(date, '8-10 AM'));
    expect(taken.status).toBe(409);
    const event = await app.events.waitFor(
      'booking.quoted.v1',
      (d: { quoteId: string }) => d.quoteId === q.quoteId,
    );
    expect(event.data).toMatchObject({
      bookingToken: q.bookingToken,
      amount: '457.80',
      jobId: q.jobId,
      currency: 'AUD',
      paymentMethod: 'prepaid',
    });
    // The token itself is never stored.
    const { rows } = await app.pg.query(`SELECT booking_token_hash FROM booking.bookings WHERE id = $1`, [
      q.quoteId,
    ]);
    expect(rows[0].booking_token_hash).not.toContain(q.bookingToken);
  });

  it('GET /api/booking-token/{token}: booking by token; absent token 404', async () => {
    const { q } = await quote(nextDay(), '10-12 AM', { vehicle: { color: 'Red' } });
    const res = await app.request('GET', `/api/booking-token/${q.bookingToken}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      amount: '457.80',
      serviceType: 'new-tyres',
      status: 'quoted',
      customer: { name: 'Jane Citizen', email: expect.any(String), phone: '0412 345 678' },
      job: {
        scheduledDate: q.scheduledDate,
        timeSlot: '10-12 AM',
        address: '12 Smith St',
        suburb: 'Mandurah',
        postcode: '6210',
      },
      vehicle: {
        make: 'Toyota',
        model: 'Corolla',
        year: 2018,
        color: 'Red',
        registration: expect.any(String),
      },
    });
    const missing = await app.request('GET', `/api/booking-token/${'x'.repeat(43)}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'Booking Not Found' });
  });

  it('GET /internal/booking-token/{token} gives billing what the payment intent needs', async () => {
    const { q } = await quote(nextDay(), '12-2 PM');
    const res = await app.request('GET', `/internal/booking-token/${q.bookingToken}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      quoteId: q.quoteId,
      jobId: q.jobId,
      bookingToken: q.bookingToken,
      amount: q.amount,
      currency: 'AUD',
      status: 'quoted',
      expiresAt: q.expiresAt,
      serviceType: 'new-tyres',
      customer: expect.any(Object),
      job: expect.any(Object),
      vehicle: expect.any(Object),
    });
    expect((await app.request('GET', `/internal/booking-token/${'y'.repeat(43)}`)).status).toBe(404);
  });

  it('is refused for battery service and callback quotes (prepaid forced to onsite)', async () => {
    const date = nextDay();
    for (const job of [{ serviceType: 'battery-service' }, { tyreSize: '123/45R67' }, { tyreSize: null }]) {
      const { res } = await quote(date, '2-4 PM', { job });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('prepaid_not_available');
    }
    expect((await slotOf(date, '2-4 PM')).isAvailable).toBe(true);
  });

  it('an expired hold frees its slot: lists, token 404, BookingExpired, and the slot can be booked again', async () => {
    const date = nextDay();
    const { q } = await quote(date, '2-4 PM');
    expect((await slotOf(date, '2-4 PM')).isAvailable).toBe(false);
    app.clock.advance(31 * 60_000);
    // Free at once in the lists and to bookings (reads ignore an expired hold even before the sweep)...
    expect((await slotOf(date, '2-4 PM')).isAvailable).toBe(true);
    expect((await app.request('GET', `/api/booking-token/${q.bookingToken}`)).status).toBe(404);
    expect((await app.request('GET', `/internal/booking-token/${q.bookingToken}`)).status).toBe(404);
    // ...and the sweeper releases it and says so.
    const expired = await app.events.waitFor(
      'booking.expired.v1',
      (d: { quoteId: string }) => d.quoteId === q.quoteId,
    );
    expect(expired.data).toMatchObject({
      scheduledDate: date,
      timeSlot: '2-4 PM',
      reason: 'payment-timeout',
    });
    const { rows } = await app.pg.query(
      `SELECT b.status::text AS status, r.released_at, r.release_reason FROM booking.bookings b JOIN booking.slot_reservations r ON r.booking_id = b.id WHERE b.id = $1`,
      [q.quoteId],
    );
    expect(rows[0]).toMatchObject({ status: 'expired', release_reason: 'expired' });
    expect((await app.request('POST', '/api/bookings', bookingBody(date, '2-4 PM'))).status).toBe(201);
  });

  it('a booking on a slot whose hold expired (not yet swept) takes it and expires the hold in the same transaction', async () => {
    await app.service.sweeper.stop();
    try {
      const date = nextDay();
      const { q } = await quote(date, '8-10 AM');
      app.clock.advance(31 * 60_000);
      const res = await app.request('POST', '/api/bookings', bookingBody(date, '8-10 AM'));
      expect(res.status).toBe(201);
      const { rows } = await app.pg.query(
        `SELECT type FROM booking.outbox_events WHERE type = 'booking.expired.v1' AND payload->'data'->>'quoteId' = $1`,
        [q.quoteId],
      );
      expect(rows).toHaveLength(1);
    } finally {
      app.service.sweeper.start();
    }
  });
});

describe('PaymentSucceeded', () => {
  it('confirms the prepaid booking: BookingCreated with paymentStatus paid and the quote-time job id/number; a duplicate has no second effect', async () => {
    const date = nextDay();
    const { q } = await quote(date, '8-10 AM');
    const data = paid(q);
    const eventId = randomUUID();
    await app.publish(PaymentSucceeded, data, eventId);
    const created = await app.events.waitFor(
      'booking.created.v1',
      (d: { jobId: string }) => d.jobId === q.jobId,
    );
    expect(created.data).toMatchObject({
      jobId: q.jobId,
      jobNumber: q.jobNumber,
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      customerValue: '457.80',
      stripePaymentIntentId: data.paymentIntentId,
      scheduledDate: date,
      timeSlot: '8-10 AM',
    });
    expect(created.causationId).toBe(eventId);
    // Same event again (a redelivery), and a second, different event for the same payment.
    await app.publish(PaymentSucceeded, data, eventId);
    await app.publish(PaymentSucceeded, data);
    await waitFor(async () => {
      const { rows } = await app.pg.query(
        `SELECT count(*)::int AS n FROM booking.inbox_events WHERE handler = 'booking.confirmPrepaidBooking'`,
      );
      return rows[0].n >= 2;
    });
    await new Promise((r) => setTimeout(r, 300));
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.outbox_events WHERE type = 'booking.created.v1' AND payload->'data'->>'jobId' = $1`,
      [q.jobId],
    );
    expect(rows[0].n).toBe(1);
    const booking = await app.pg.query(
      `SELECT status::text AS status, payment_status FROM booking.bookings WHERE id = $1`,
      [q.quoteId],
    );
    expect(booking.rows[0]).toEqual({ status: 'confirmed', payment_status: 'paid' });
    // The token still shows the (now paid) booking; the hold became a booking that never expires.
    const token = await app.request('GET', `/api/booking-token/${q.bookingToken}`);
    expect(token.body).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    app.clock.advance(2 * 3600_000);
    expect((await slotOf(date, '8-10 AM')).isAvailable).toBe(false);
  });

  it('after the hold expired: re-takes the slot if still free, else marks the booking for staff (conflict)', async () => {
    const date = nextDay();
    const free = (await quote(date, '10-12 AM')).q;
    const lost = (await quote(date, '12-2 PM', { customer: { email: 'sam@example.com' } })).q;
    app.clock.advance(31 * 60_000);
    await app.events.waitFor('booking.expired.v1', (d: { quoteId: string }) => d.quoteId === lost.quoteId);
    await app.events.waitFor('booking.expired.v1', (d: { quoteId: string }) => d.quoteId === free.quoteId);
    expect((await app.request('POST', '/api/bookings', bookingBody(date, '12-2 PM'))).status).toBe(201);

    await app.publish(PaymentSucceeded, paid(free));
    await app.publish(PaymentSucceeded, paid(lost));
    await app.events.waitFor('booking.created.v1', (d: { jobId: string }) => d.jobId === free.jobId);
    await waitFor(async () => {
      const { rows } = await app.pg.query(
        `SELECT status::text AS status FROM booking.bookings WHERE id = $1`,
        [lost.quoteId],
      );
      return rows[0].status === 'conflict';
    });
    expect(
      app.events.of('booking.created.v1', (d: { jobId: string }) => d.jobId === lost.jobId),
    ).toHaveLength(0);
    // The customer and the office are told (STAFF_ALERT_EMAIL is set in the harness).
    const emails = await app.pg.query(
      `SELECT payload->'data'->>'to' AS "to", payload->'data'->>'subject' AS subject, payload->'data'->>'text' AS text
         FROM booking.outbox_events WHERE type = 'email.requested.v1' AND payload->'data'->>'jobId' = $1 ORDER BY id`,
      [lost.jobId],
    );
    expect(emails.rows.map((r: { to: string }) => r.to)).toEqual(['sam@example.com', 'office@tyres.example']);
    expect(emails.rows[0].text).toContain('We will call you within one business day');
    // The amount the card was charged (price + 1.7% surcharge), as on the customer's statement.
    expect(emails.rows[0].text).toContain(
      `Thank you for your payment of $465.58 for booking ${lost.jobNumber}.`,
    );
    expect(emails.rows[1].text).toContain(`paid $465.58 for ${lost.jobNumber}`);
    expect(emails.rows[0].text).toContain(`${date}, 12-2 PM`);
    expect(emails.rows[1].subject).toMatch(/^Action needed: JOB-\d{6,} paid after its slot was taken$/);
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE date = $1 AND released_at IS NULL`,
      [date],
    );
    expect(rows[0].n).toBe(2);
  });
});
