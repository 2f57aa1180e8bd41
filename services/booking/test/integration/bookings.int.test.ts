import { randomUUID } from 'node:crypto';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-01-06');

beforeAll(async () => {
  app = await startTestBooking('booking-bookings');
});
afterAll(async () => {
  await app?.stop();
});

const SLOT_TAKEN = 'This time slot was just booked by someone else. Please select a different time slot.';

describe('POST /api/bookings', () => {
  it('answers jobId and jobNumber, and writes BookingCreated to the outbox in the same transaction', async () => {
    const date = nextDay();
    const body = bookingBody(date, '8-10 AM', { job: { customerValue: '1.00', status: 'new' } });
    const res = await app.request('POST', '/api/bookings', body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      jobId: expect.any(String),
      jobNumber: expect.stringMatching(/^JOB-\d{6}$/),
    });
    const { jobId, jobNumber } = res.body as unknown as { jobId: string; jobNumber: string };

    // The outbox row exists as soon as the call returned (written with the booking, not after it).
    const { rows } = await app.pg.query(
      `SELECT type, payload FROM booking.outbox_events WHERE type = 'booking.created.v1' AND payload->'data'->>'jobId' = $1`,
      [jobId],
    );
    expect(rows).toHaveLength(1);
    const data = rows[0].payload.data;
    expect(data).toMatchObject({
      jobId,
      jobNumber,
      serviceType: 'new-tyres',
      scheduledDate: date,
      timeSlot: '8-10 AM',
      address: '12 Smith St',
      suburb: 'Mandurah',
      postcode: '6210',
      tyreSize: '205/55R16',
      tyreQuantity: 2,
      notes: 'Gate code 1234',
      // Server-computed: (159 + 25 + 15) x 2 + 89.80; the client's "1.00" is ignored.
      customerValue: '487.80',
      paymentMethod: 'onsite',
      paymentStatus: 'pending',
      channel: 'online',
      customer: { name: 'Jane Citizen', email: body.customer.email, phone: '0412 345 678' },
      vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: body.vehicle.registration },
    });
    // ...and the relay publishes it.
    await app.events.waitFor('booking.created.v1', (d: { jobId: string }) => d.jobId === jobId);
  });

  it('assigns unique, increasing job numbers', async () => {
    const date = nextDay();
    const numbers: number[] = [];
    for (const slot of ['8-10 AM', '10-12 AM', '12-2 PM']) {
      const res = await app.request('POST', '/api/bookings', bookingBody(date, slot));
      expect(res.status).toBe(201);
      numbers.push(Number(String(res.body.jobNumber).slice(4)));
    }
    expect(numbers[1]).toBeGreaterThan(numbers[0]!);
    expect(numbers[2]).toBeGreaterThan(numbers[1]!);
  });

  it('refuses a taken slot with 409 and the spec message', async () => {
    const date = nextDay();
    expect((await app.request('POST', '/api/bookings', bookingBody(date, '2-4 PM'))).status).toBe(201);
    const again = await app.request('POST', '/api/bookings', bookingBody(date, '2-4 PM'));
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(SLOT_TAKEN);
  });

  it('50 concurrent bookings of one slot: exactly one succeeds, 49 get 409, none fail', async () => {
    const date = nextDay();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => app.request('POST', '/api/bookings', bookingBody(date, '12-2 PM'))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 200 && s < 300)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.message === SLOT_TAKEN)).toBe(true);
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE date = $1 AND time_slot = '12-2 PM' AND released_at IS NULL`,
      [date],
    );
    expect(rows[0].n).toBe(1);
    const slots = await app.request('GET', `/api/time-slots?date=${date}`);
    expect((slots.body as { slot: string }[]).find((s) => s.slot === '12-2 PM')).toMatchObject({
      isAvailable: false,
    });
  });

  it('validates with the spec messages (400), never 500', async () => {
    const date = nextDay();
    const cases: [object, string][] = [
      [{}, 'Please select a date'],
      [bookingBody('2020-01-06', '8-10 AM'), 'Invalid date or time slot selected'],
      [bookingBody('06/01/2031', '8-10 AM'), 'Invalid date or time slot selected'],
      [bookingBody(date, '5-7 PM'), 'Invalid time slot'],
      [bookingBody('2031-01-11', '8-10 AM'), 'Invalid date or time slot selected'], // a Saturday
      [bookingBody(date, '8-10 AM', { job: { serviceType: 'car-wash' } }), 'Please select a service'],
      [bookingBody(date, '8-10 AM', { job: { tyreQuantity: 5 } }), 'Quantity must be between 1 and 4'],
      [bookingBody(date, '8-10 AM', { job: { address: '' } }), 'Please enter your address'],
      [bookingBody(date, '8-10 AM', { job: { suburb: '' } }), 'Suburb is required'],
      [bookingBody(date, '8-10 AM', { job: { postcode: '62' } }), 'Please enter a valid postcode'],
      [bookingBody(date, '8-10 AM', { vehicle: { make: '' } }), 'Vehicle make is required'],
      [bookingBody(date, '8-10 AM', { vehicle: { model: '' } }), 'Vehicle model is required'],
      [
        bookingBody(date, '8-10 AM', { vehicle: { year: 1899 } }),
        `Vehicle year must be between 1900 and ${new Date().getFullYear() + 1}`,
      ],
      [bookingBody(date, '8-10 AM', { vehicle: { registration: '' } }), 'Registration is required'],
      [bookingBody(date, '8-10 AM', { customer: { name: '' } }), 'Name is required'],
      [bookingBody(date, '8-10 AM', { customer: { phone: '12345' } }), 'Valid phone number required'],
      [bookingBody(date, '8-10 AM', { customer: { email: 'not-an-email' } }), 'Valid email required'],
    ];
    for (const [body, message] of cases) {
      const res = await app.request('POST', '/api/bookings', body);
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
    const malformed = await fetch(`${app.url}/api/bookings`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"job":',
    });
    expect(malformed.status).toBe(400);
  });

  it('stores customers and vehicles once, reused by email (or phone) and registration', async () => {
    const date = nextDay();
    const email = `reuse.${randomUUID().slice(0, 8)}@example.com`;
    const first = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(date, '8-10 AM', { customer: { email }, vehicle: { registration: 'REUSE 1' } }),
    );
    const second = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(date, '10-12 AM', {
        customer: { email: email.toUpperCase(), name: 'Jane C' },
        vehicle: { registration: 'reuse1' },
      }),
    );
    expect([first.status, second.status]).toEqual([201, 201]);
    const { rows } = await app.pg.query(
      `SELECT DISTINCT b.customer_id, b.vehicle_id, c.name, v.registration FROM booking.bookings b
         JOIN booking.customers c ON c.id = b.customer_id JOIN booking.vehicles v ON v.id = b.vehicle_id
        WHERE b.job_id = ANY($1::uuid[])`,
      [[first.body.jobId, second.body.jobId]],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'Jane C', registration: 'REUSE1' });
    // Same phone, new email: the phone finds the customer.
    const third = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(date, '12-2 PM', {
        customer: { email: `other.${randomUUID().slice(0, 8)}@example.com`, phone: '0499 000 111' },
      }),
    );
    const fourth = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(date, '2-4 PM', {
        customer: { email: `another.${randomUUID().slice(0, 8)}@example.com`, phone: '0499000111' },
      }),
    );
    const ids = await app.pg.query(
      `SELECT DISTINCT customer_id FROM booking.bookings WHERE job_id = ANY($1::uuid[])`,
      [[third.body.jobId, fourth.body.jobId]],
    );
    expect(ids.rows).toHaveLength(1);
  });

  it('forces onsite for battery service and callback quotes; prices prepaid staff bookings with the discount', async () => {
    const date = nextDay();
    const staff = app.identity('admin');
    const battery = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(date, '8-10 AM', {
        job: { serviceType: 'battery-service', paymentMethod: 'prepaid' },
        vehicle: { color: 'Blue' },
      }),
      staff,
    );
    expect(battery.status).toBe(201);
    expect(battery.body).toMatchObject({ paymentMethod: 'onsite', customerValue: '0.00' });
    const unknownSize = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(date, '10-12 AM', {
        job: { tyreSize: '999/99R99', paymentMethod: 'prepaid' },
        vehicle: { color: 'Blue' },
      }),
      staff,
    );
    expect(unknownSize.body).toMatchObject({ paymentMethod: 'onsite', customerValue: '0.00' });
    const puncture = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(date, '12-2 PM', {
        job: { serviceType: 'puncture-repair', paymentMethod: 'prepaid' },
        vehicle: { color: 'Blue' },
      }),
      staff,
    );
    expect(puncture.body).toMatchObject({
      paymentMethod: 'prepaid',
      paymentStatus: 'pending',
      customerValue: '99.80',
    });
  });

  it('a customer cannot take the prepaid discount without paying: the public POST /api/bookings is onsite', async () => {
    const res = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(nextDay(), '2-4 PM', { job: { serviceType: 'puncture-repair', paymentMethod: 'prepaid' } }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      paymentMethod: 'onsite',
      paymentStatus: 'pending',
      customerValue: '129.80',
    });
    const event = await app.events.waitFor<{ jobId: string; paymentMethod: string; customerValue: string }>(
      'booking.created.v1',
      (d) => d.jobId === res.body.jobId,
    );
    expect(event.data).toMatchObject({ paymentMethod: 'onsite', customerValue: '129.80' });
  });

  it('takes the staff form: identity, date-time dates, colour, quantity default 4, stricter messages', async () => {
    const date = nextDay();
    const staff = app.identity('admin');
    const body = bookingBody(`${date}T00:00:00.000Z`, '2-4 PM', {
      vehicle: { color: 'Silver' },
      job: { tyreQuantity: undefined, tyreBrand: 'Michelin' },
    });
    const res = await app.request('POST', '/api/bookings', body, staff);
    expect(res.status).toBe(201);
    const event = await app.events.waitFor<{ jobId: string; vehicle: { color: string } }>(
      'booking.created.v1',
      (d) => d.jobId === res.body.jobId,
    );
    // Michelin 205/55R16 is 239: (239 + 40) x 4 + 89.80
    expect(event.data).toMatchObject({
      channel: 'staff',
      scheduledDate: date,
      tyreQuantity: 4,
      tyreBrand: 'Michelin',
      customerValue: '1205.80',
    });
    expect(event.data.vehicle.color).toBe('Silver');
    const noColour = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(nextDay(), '8-10 AM', { vehicle: { color: '' } }),
      staff,
    );
    expect(noColour).toMatchObject({ status: 400, body: { message: 'Vehicle color is required' } });
    const shortName = await app.request(
      'POST',
      '/api/bookings',
      bookingBody(nextDay(), '8-10 AM', { vehicle: { color: 'Red' }, customer: { name: 'J' } }),
      staff,
    );
    expect(shortName).toMatchObject({ status: 400, body: { message: 'Customer name is required' } });
    // A signed-in staff member using the public dialog (no colour field) is a customer like any other.
    const viaDialog = await app.request('POST', '/api/bookings', bookingBody(nextDay(), '8-10 AM'), staff);
    expect(viaDialog.status).toBe(201);
    const dialogEvent = await app.events.waitFor<{ jobId: string; channel: string }>(
      'booking.created.v1',
      (d) => d.jobId === viaDialog.body.jobId,
    );
    expect(dialogEvent.data.channel).toBe('online');
    const forged = await app.request('POST', '/api/bookings', bookingBody(nextDay(), '8-10 AM'), {
      'x-identity-token': 'forged',
    });
    expect(forged.status).toBe(401);
  });

  it('replays the first answer for a repeated Idempotency-Key', async () => {
    const date = nextDay();
    const body = bookingBody(date, '8-10 AM');
    const key = randomUUID();
    const first = await app.request('POST', '/api/bookings', body, { 'Idempotency-Key': key });
    const again = await app.request('POST', '/api/bookings', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await app.request('POST', '/api/bookings', bookingBody(date, '10-12 AM'), {
      'Idempotency-Key': key,
    });
    expect(other.status).toBe(422);
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.bookings WHERE scheduled_date = $1`,
      [date],
    );
    expect(rows[0].n).toBe(1);
  });
});
