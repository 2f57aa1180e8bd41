/**
 * "Manage my booking" (issue 18): the link sent with the confirmation, the page's view with the cancellation terms
 * of the moment, reschedule (same rules, same race guarantee as a new booking), cancel (slot freed at once, the
 * kernel's terms stored and announced), corrections and photos; every unusable link is the same 404.
 */
import { createHash, randomUUID } from 'node:crypto';
import { JobStatusChanged, PaymentSucceeded, pgExecutor } from '@tyres/events';
import { BOOKING_MESSAGES, slotStartsAt, type TimeSlot } from '@tyres/kernel';
import { ManageLinks } from '../../src/app/manage';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(90_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-05-05');

beforeAll(async () => {
  app = await startTestBooking('booking-manage', { PUBLIC_SITE_URL: 'https://tyres.test' });
});
afterAll(async () => {
  await app?.stop();
});
afterEach(() => app.clock.reset());

const NOT_FOUND = 'This link is not valid or has expired. Please call us to manage your booking.';
const JUST_BOOKED = 'This time slot was just booked by someone else. Please select a different time slot.';
const HOUR = 3_600_000;

interface LinkEmail {
  jobId: string;
  purpose: string;
  to: string;
  text: string;
}
interface Cancelled {
  jobId: string;
  cancelledAt: string;
  band: string;
  refundPercent: number;
  refund: string;
  fee: string;
  feeWaived: boolean;
  cancelledBy: string;
  paymentMethod: string;
  paymentIntentId?: string | null;
  slot: { scheduledDate: string; timeSlot: string };
}

const tokenIn = (text: string) => /https:\/\/tyres\.test\/manage\/([A-Za-z0-9_-]{43})\b/.exec(text)?.[1];

/** The manage token the customer was sent for a job (from the recorded EmailRequested). */
async function linkOf(jobId: string): Promise<string> {
  const email = await app.events.waitFor<LinkEmail>(
    'email.requested.v1',
    (d) => d.jobId === jobId && d.purpose === 'booking-manage-link',
  );
  const token = tokenIn(email.data.text);
  expect(token).toBeDefined();
  return token!;
}

async function book(date: string, slot: string, over: Parameters<typeof bookingBody>[2] = {}) {
  const res = await app.request('POST', '/api/bookings', bookingBody(date, slot, over));
  expect(res.status).toBe(201);
  const { jobId, jobNumber } = res.body as unknown as { jobId: string; jobNumber: string };
  return { jobId, jobNumber, token: await linkOf(jobId) };
}

/** A prepaid booking, paid: $457.80 + 1.7% = $465.58 charged. */
async function bookPrepaid(date: string, slot: string) {
  const res = await app.request(
    'POST',
    '/api/bookings/quote',
    bookingBody(date, slot, { job: { paymentMethod: 'prepaid' } }),
  );
  expect(res.status).toBe(201);
  const q = res.body as unknown as { quoteId: string; jobId: string; amount: string };
  const paymentIntentId = `pi_${randomUUID().replace(/-/g, '')}`;
  await app.publish(PaymentSucceeded, {
    paymentId: randomUUID(),
    paymentIntentId,
    quoteId: q.quoteId,
    jobId: null,
    originalAmount: q.amount,
    surchargeAmount: '7.78',
    amount: '465.58',
    currency: 'AUD',
    mode: 'test',
    succeededAt: new Date().toISOString(),
  });
  return { jobId: q.jobId, paymentIntentId, token: await linkOf(q.jobId) };
}

const get = (token: string) => app.request('GET', `/api/manage/${token}`);
const reschedule = (token: string, scheduledDate: string, timeSlot: string) =>
  app.request('POST', `/api/manage/${token}/reschedule`, { scheduledDate, timeSlot });
const cancel = (token: string, body: object = {}) => app.request('POST', `/api/manage/${token}/cancel`, body);
const patch = (token: string, body: object) => app.request('PATCH', `/api/manage/${token}`, body);

const isFree = async (date: string, slot: string) =>
  (
    (await app.request('GET', `/api/time-slots?date=${date}`)).body as {
      slot: string;
      isAvailable: boolean;
    }[]
  ).find((s) => s.slot === slot)!.isAvailable;
const reservationOf = async (jobId: string) =>
  (
    await app.pg.query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, time_slot, released_at FROM booking.slot_reservations WHERE job_id = $1`,
      [jobId],
    )
  ).rows[0] as { date: string; time_slot: string; released_at: Date | null };
const startOf = (date: string, slot: string) => slotStartsAt(date, slot as TimeSlot);

describe('the manage link', () => {
  it('goes to the customer by email and SMS only; the database keeps its sha256; the page shows the booking', async () => {
    const date = nextDay();
    const { jobId, jobNumber, token } = await book(date, '10-12 AM');
    const sms = await app.events.waitFor<{ jobId: string; purpose: string; to: string; body: string }>(
      'sms.requested.v1',
      (d) => d.jobId === jobId,
    );
    expect(sms.data).toMatchObject({ purpose: 'booking-manage-link', to: '0412345678' });
    expect(tokenIn(sms.data.body)).toBe(token);
    // Not in BookingCreated (every service receives it), not stored in plain text.
    const created = await app.events.waitFor<{ jobId: string }>(
      'booking.created.v1',
      (d) => d.jobId === jobId,
    );
    expect(JSON.stringify(created)).not.toContain(token);
    const { rows } = await app.pg.query(
      `SELECT t.token_hash, t.expires_at, t.revoked_at FROM booking.manage_tokens t
         JOIN booking.bookings b ON b.id = t.booking_id WHERE b.job_id = $1`,
      [jobId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    // The slot's end (12:00 Perth = 04:00 UTC) plus 7 days.
    const end = new Date(startOf(date, '10-12 AM').getTime() + 2 * HOUR);
    expect(new Date(rows[0].expires_at).getTime()).toBe(end.getTime() + 7 * 24 * HOUR);

    const res = await get(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      reference: jobNumber,
      status: 'confirmed',
      serviceType: 'new-tyres',
      scheduledDate: date,
      timeSlot: '10-12 AM',
      address: { street: '12 Smith St', suburb: 'Mandurah', postcode: '6210' },
      vehicle: { make: 'Toyota', model: 'Corolla', year: 2018 },
      phone: '0412 345 678',
      notes: 'Gate code 1234',
      price: '487.80',
      paymentMethod: 'onsite',
      paymentStatus: 'pending',
      can: { reschedule: true, cancel: true, change: true },
      // Years ahead: the full-refund band; pay on site, so nothing to refund and no fee.
      cancellation: { band: 'full_refund', refundPercent: 100, refund: '0.00', fee: '0.00' },
      cancelled: null,
    });
  });

  it('unknown, malformed, expired and revoked links all answer the same 404', async () => {
    const date = nextDay();
    const { token } = await book(date, '8-10 AM');
    const expectGone = async (t: string) => {
      const res = await get(t);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ message: NOT_FOUND });
    };
    await expectGone('A'.repeat(43));
    await expectGone('not a token!');
    // Expiry: the slot's end + 7 days.
    const expiry = startOf(date, '8-10 AM').getTime() + 2 * HOUR + 7 * 24 * HOUR;
    app.clock.set(new Date(expiry - 60_000));
    expect((await get(token)).status).toBe(200);
    app.clock.set(new Date(expiry + 1_000));
    await expectGone(token);
    expect((await cancel(token)).status).toBe(404);
    app.clock.reset();
    // Revoked.
    await app.pg.query(`UPDATE booking.manage_tokens SET revoked_at = now() WHERE token_hash = $1`, [
      createHash('sha256').update(token).digest('hex'),
    ]);
    await expectGone(token);
  });

  it('a new link revokes the older one', async () => {
    const date = nextDay();
    const { jobId, token } = await book(date, '12-2 PM');
    const { rows } = await app.pg.query(`SELECT id FROM booking.bookings WHERE job_id = $1`, [jobId]);
    const events = await new ManageLinks({ siteUrl: 'https://tyres.test/' }).issue(
      pgExecutor(app.pg),
      {
        id: rows[0].id,
        jobId,
        jobNumber: 'JOB-X',
        customerName: 'Jane',
        customerEmail: 'jane@example.com',
        customerPhone: '08 9999 1111', // a landline: email only
        serviceType: 'new-tyres',
        scheduledDate: date,
        timeSlot: '12-2 PM',
      },
      new Date(),
      () => ({ source: 'test', correlationId: randomUUID() }),
    );
    expect(events.map((e) => e.type)).toEqual(['email.requested.v1']);
    const fresh = tokenIn((events[0]!.data as { text: string }).text)!;
    expect((await get(token)).status).toBe(404);
    expect((await get(fresh)).status).toBe(200);
  });
});

describe('POST /api/manage/{token}/reschedule', () => {
  it('moves the booking: the old slot is free and the new one taken when it returns; BookingRescheduled goes out', async () => {
    const date = nextDay();
    const target = nextDay();
    const { jobId, jobNumber, token } = await book(date, '8-10 AM');
    const res = await reschedule(token, target, '2-4 PM');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ scheduledDate: target, timeSlot: '2-4 PM', status: 'confirmed' });
    expect(await isFree(date, '8-10 AM')).toBe(true);
    expect(await isFree(target, '2-4 PM')).toBe(false);
    expect(await reservationOf(jobId)).toMatchObject({
      date: target,
      time_slot: '2-4 PM',
      released_at: null,
    });
    const moved = await app.events.waitFor<{ jobId: string }>(
      'booking.rescheduled.v1',
      (d) => d.jobId === jobId,
    );
    expect(moved.data).toEqual({
      jobId,
      jobNumber,
      from: { scheduledDate: date, timeSlot: '8-10 AM' },
      to: { scheduledDate: target, timeSlot: '2-4 PM' },
      rescheduledBy: 'customer',
      rescheduledAt: expect.any(String),
    });
    // The link now lives until the new slot's end + 7 days.
    const { rows } = await app.pg.query(
      `SELECT t.expires_at FROM booking.manage_tokens t JOIN booking.bookings b ON b.id = t.booking_id
        WHERE b.job_id = $1 AND t.revoked_at IS NULL`,
      [jobId],
    );
    expect(new Date(rows[0].expires_at).getTime()).toBe(
      startOf(target, '2-4 PM').getTime() + 2 * HOUR + 7 * 24 * HOUR,
    );
    // The same slot again changes nothing.
    const again = await reschedule(token, target, '2-4 PM');
    expect(again.status).toBe(200);
    expect(app.events.of('booking.rescheduled.v1', (d: { jobId: string }) => d.jobId === jobId)).toHaveLength(
      1,
    );
  });

  it('of N customers racing for one free slot exactly one wins; the others keep their slot and get 409', async () => {
    const target = nextDay();
    const N = 6;
    const racers = [];
    for (let i = 0; i < N; i++) racers.push(await book(nextDay(), '12-2 PM'));
    const answers = await Promise.all(racers.map((r) => reschedule(r.token, target, '8-10 AM')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(N - 1).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body).toMatchObject({ message: JUST_BOOKED });
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations
        WHERE date = $1 AND time_slot = '8-10 AM' AND released_at IS NULL`,
      [target],
    );
    expect(rows[0].n).toBe(1);
    const winner = racers[answers.findIndex((a) => a.status === 200)]!;
    expect(await reservationOf(winner.jobId)).toMatchObject({ date: target, time_slot: '8-10 AM' });
    for (const r of racers.filter((x) => x !== winner))
      expect((await reservationOf(r.jobId)).time_slot).toBe('12-2 PM');
  });

  it('the booking rules of a new booking: taken, blocked, weekend, started; 400 for a bad body', async () => {
    const date = nextDay();
    const { token } = await book(date, '8-10 AM');
    await book(date, '10-12 AM');
    expect(await reschedule(token, date, '10-12 AM')).toMatchObject({
      status: 409,
      body: { message: JUST_BOOKED },
    });
    const blocked = await app.request(
      'PATCH',
      `/api/dashboard/timeslots/${date}/12-2%20PM/block`,
      { reason: 'Van service' },
      app.identity('admin'),
    );
    expect(blocked.status).toBe(200);
    expect(await reschedule(token, date, '12-2 PM')).toMatchObject({
      status: 409,
      body: { message: 'This time slot is no longer available. Please select a different time slot.' },
    });
    expect(await reschedule(token, '2031-05-31', '8-10 AM')).toMatchObject({
      status: 400,
      body: { message: 'Invalid date or time slot selected' },
    });
    expect(await reschedule(token, date, 'noon')).toMatchObject({
      status: 400,
      body: { message: BOOKING_MESSAGES.invalidSlot },
    });
    // Once the slot has started it cannot be moved (a cancellation still can).
    app.clock.set(new Date(startOf(date, '8-10 AM').getTime() + 60_000));
    const started = await reschedule(token, nextDay(), '8-10 AM');
    expect(started).toMatchObject({
      status: 409,
      body: { message: 'This booking has already started and can no longer be rescheduled. Please call us.' },
    });
    expect((await get(token)).body).toMatchObject({
      status: 'in-progress',
      can: { reschedule: false, cancel: true, change: true },
    });
  });

  it('a job the technician has started cannot be moved or cancelled', async () => {
    const date = nextDay();
    const { jobId, jobNumber, token } = await book(date, '2-4 PM');
    await app.publish(JobStatusChanged, {
      jobId,
      jobNumber,
      from: 'new',
      to: 'in-progress',
      changedAt: new Date().toISOString(),
      changedBy: randomUUID(),
      assignedTechnicianId: randomUUID(),
      serviceType: 'new-tyres',
      scheduledDate: date,
      timeSlot: '2-4 PM',
      customerValue: '487.80',
    });
    await app.events.waitFor('job.status-changed.v1', (d: { jobId: string }) => d.jobId === jobId);
    const deadline = Date.now() + 10_000;
    let view = (await get(token)).body as unknown as { status: string };
    while (view.status !== 'in-progress' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      view = (await get(token)).body as unknown as { status: string };
    }
    expect(view).toMatchObject({ status: 'in-progress', cancellation: null });
    expect((await reschedule(token, nextDay(), '8-10 AM')).status).toBe(409);
    expect(await cancel(token)).toMatchObject({
      status: 409,
      body: { message: 'This booking is already under way and can no longer be cancelled. Please call us.' },
    });
  });
});

describe('POST /api/manage/{token}/cancel', () => {
  it('30 hours ahead, prepaid: full refund of what was charged; the slot is free at once for another booking', async () => {
    const date = nextDay();
    const { jobId, token, paymentIntentId } = await bookPrepaid(date, '8-10 AM');
    app.clock.set(new Date(startOf(date, '8-10 AM').getTime() - 30 * HOUR));
    expect((await get(token)).body).toMatchObject({
      paymentStatus: 'paid',
      amountPaid: '465.58',
      cancellation: {
        band: 'full_refund',
        hoursBefore: 29,
        refundPercent: 100,
        refund: '465.58',
        fee: '0.00',
      },
    });
    const res = await cancel(token, { reason: 'Car sold' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'cancelled',
      can: { reschedule: false, cancel: false, change: false },
      cancellation: null,
      cancelled: {
        cancelledBy: 'customer',
        reason: 'Car sold',
        band: 'full_refund',
        refundPercent: 100,
        refund: '465.58',
        fee: '0.00',
        feeWaived: false,
      },
    });
    expect((await reservationOf(jobId)).released_at).not.toBeNull();
    expect(await isFree(date, '8-10 AM')).toBe(true);
    expect((await app.request('POST', '/api/bookings', bookingBody(date, '8-10 AM'))).status).toBe(201);
    const event = await app.events.waitFor<Cancelled>('booking.cancelled.v1', (d) => d.jobId === jobId);
    expect(event.data).toMatchObject({
      slot: { scheduledDate: date, timeSlot: '8-10 AM' },
      cancelledBy: 'customer',
      reason: 'Car sold',
      band: 'full_refund',
      refundPercent: 100,
      refund: '465.58',
      fee: '0.00',
      feeWaived: false,
      paymentMethod: 'prepaid',
      paymentIntentId,
    });
    // The business clock's moment of cancelling (30 hours before the slot).
    const before = startOf(date, '8-10 AM').getTime() - new Date(event.data.cancelledAt).getTime();
    expect(before).toBeGreaterThan(29.9 * HOUR);
    expect(before).toBeLessThanOrEqual(30 * HOUR);
    // Cancelled: nothing more can change.
    expect(await cancel(token)).toMatchObject({
      status: 409,
      body: { message: 'This booking has been cancelled.' },
    });
    expect((await reschedule(token, nextDay(), '8-10 AM')).status).toBe(409);
    expect((await patch(token, { phone: '0400 111 222' })).status).toBe(409);
  });

  it('18 hours ahead, prepaid: half refunded, half kept', async () => {
    const date = nextDay();
    const { jobId, token } = await bookPrepaid(date, '10-12 AM');
    app.clock.set(new Date(startOf(date, '10-12 AM').getTime() - 18 * HOUR));
    expect((await cancel(token)).status).toBe(200);
    const event = await app.events.waitFor<Cancelled>('booking.cancelled.v1', (d) => d.jobId === jobId);
    expect(event.data).toMatchObject({
      band: 'half_refund',
      refundPercent: 50,
      refund: '232.79',
      fee: '232.79',
    });
  });

  it('the terms the customer saw are the ones they consent to: a boundary crossed before confirming is a 409, nothing cancelled', async () => {
    const date = nextDay();
    const { jobId, token } = await bookPrepaid(date, '2-4 PM');
    const start = startOf(date, '2-4 PM').getTime();
    // The page, a minute before the 24-hour boundary: a full refund.
    app.clock.set(new Date(start - 24 * HOUR - 60_000));
    const shown = (await get(token)).body as unknown as {
      cancellation: { band: string; refund: string; fee: string };
    };
    expect(shown.cancellation).toMatchObject({ band: 'full_refund', refund: '465.58', fee: '0.00' });
    const expected = {
      band: shown.cancellation.band,
      refund: shown.cancellation.refund,
      fee: shown.cancellation.fee,
    };
    // Confirmed two minutes later: the 50% band applies now, which the customer never saw.
    app.clock.set(new Date(start - 24 * HOUR + 60_000));
    const late = await cancel(token, { expected });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      code: 'terms_changed',
      message:
        'The cancellation terms changed while this page was open (the booking is now closer to its start). Please check the new terms and confirm again.',
    });
    const still = (await get(token)).body as unknown as {
      status: string;
      cancellation: { band: string; refund: string; fee: string };
    };
    expect(still.status).toBe('confirmed');
    expect((await reservationOf(jobId)).released_at).toBeNull();
    // Confirming the new terms cancels with them.
    const again = await cancel(token, {
      expected: {
        band: still.cancellation.band,
        refund: still.cancellation.refund,
        fee: still.cancellation.fee,
      },
    });
    expect(again.status).toBe(200);
    const event = await app.events.waitFor<Cancelled>('booking.cancelled.v1', (d) => d.jobId === jobId);
    expect(event.data).toMatchObject({ band: 'half_refund', refund: '232.79', fee: '232.79' });
    expect((await cancel(token, { expected: { band: 'best', refund: '1', fee: 'x' } })).status).toBe(400);
  });

  it('6 hours ahead, pay on site: no refund band, the whole price is the fee', async () => {
    const date = nextDay();
    const { jobId, token } = await book(date, '12-2 PM');
    app.clock.set(new Date(startOf(date, '12-2 PM').getTime() - 6 * HOUR));
    const res = await cancel(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      cancelled: { band: 'no_refund', refundPercent: 0, refund: '0.00', fee: '487.80', reason: null },
    });
    const event = await app.events.waitFor<Cancelled>('booking.cancelled.v1', (d) => d.jobId === jobId);
    expect(event.data).toMatchObject({
      band: 'no_refund',
      refundPercent: 0,
      refund: '0.00',
      fee: '487.80',
      paymentMethod: 'onsite',
      paymentIntentId: null,
    });
    expect(await isFree(date, '12-2 PM')).toBe(true);
  });
});

describe('PATCH /api/manage/{token}', () => {
  it("validates with the booking form's rules and messages (400), and announces only what changed", async () => {
    const { jobId, jobNumber, token } = await book(nextDay(), '8-10 AM');
    expect(await patch(token, { phone: 'call me' })).toMatchObject({
      status: 400,
      body: { message: BOOKING_MESSAGES.phone },
    });
    expect(await patch(token, { notes: 'x'.repeat(2001) })).toMatchObject({
      status: 400,
      body: { message: BOOKING_MESSAGES.notesTooLong },
    });
    expect(
      await patch(token, { vehicle: { make: '', model: 'Corolla', year: 2018, registration: '1ABC123' } }),
    ).toMatchObject({ status: 400, body: { message: BOOKING_MESSAGES.make } });
    const badYear = await patch(token, {
      vehicle: { make: 'Toyota', model: 'Corolla', year: 1850, registration: '1ABC123' },
    });
    expect(badYear.status).toBe(400);
    expect(badYear.body).toMatchObject({ details: [{ path: 'vehicle.year' }] });
    expect(await patch(token, {})).toMatchObject({
      status: 400,
      body: { message: 'Please change your phone number, notes or vehicle details.' },
    });

    const vehicle = { make: 'Mazda', model: '3', year: 2020, color: null, registration: '1XYZ789' };
    const res = await patch(token, { phone: '0400 111 222', notes: 'Blue gate', vehicle });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ phone: '0400 111 222', notes: 'Blue gate', vehicle });
    const updated = await app.events.waitFor<{ jobId: string }>(
      'booking.updated.v1',
      (d) => d.jobId === jobId,
    );
    expect(updated.data).toEqual({
      jobId,
      jobNumber,
      phone: '0400 111 222',
      notes: 'Blue gate',
      vehicle,
      updatedBy: 'customer',
      updatedAt: expect.any(String),
    });
    // Only the notes differ now: the event carries only them; clearing is null.
    expect((await patch(token, { phone: '0400 111 222', notes: null })).status).toBe(200);
    await app.events.waitFor<{ jobId: string; notes?: string | null }>(
      'booking.updated.v1',
      (d) => d.jobId === jobId && d.notes === null,
    );
    const all = app.events.of<{ jobId: string }>('booking.updated.v1', (d) => d.jobId === jobId);
    expect(all.map((e) => Object.keys(e.data).sort())).toEqual([
      ['jobId', 'jobNumber', 'notes', 'phone', 'updatedAt', 'updatedBy', 'vehicle'],
      ['jobId', 'jobNumber', 'notes', 'updatedAt', 'updatedBy'],
    ]);
  });
});

describe('POST /api/manage/{token}/photos', () => {
  it("adds photos through the booking's upload pipeline, after the first hour too", async () => {
    const { jobId, token } = await book(nextDay(), '2-4 PM');
    app.clock.advance(3 * HOUR);
    const form = new FormData();
    const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 1)]);
    form.append('photos', new Blob([new Uint8Array(JPEG)], { type: 'image/jpeg' }), 'tyre.jpg');
    const res = await fetch(`${app.url}/api/manage/${token}/photos`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { photos: { jobId: string; mimeType: string }[] };
    expect(body.photos).toMatchObject([{ jobId, mimeType: 'image/jpeg' }]);
    await app.events.waitFor('booking.photo-added.v1', (d: { jobId: string }) => d.jobId === jobId);
    expect((await get(token)).body).toMatchObject({ photoCount: 1 });
    const unknown = await fetch(`${app.url}/api/manage/${'B'.repeat(43)}/photos`, {
      method: 'POST',
      body: form,
    });
    expect(unknown.status).toBe(404);
  });
});

describe('staff cancel (dashboard)', () => {
  it('shows the terms, cancels with a reason and a waived fee (prepaid: refunded in full), records who did it', async () => {
    const date = nextDay();
    const { jobId, token, paymentIntentId } = await bookPrepaid(date, '2-4 PM');
    const adminId = randomUUID();
    const admin = app.identity('admin', adminId);
    app.clock.set(new Date(startOf(date, '2-4 PM').getTime() - 6 * HOUR));
    const terms = await app.request('GET', `/api/dashboard/bookings/${jobId}/cancellation`, undefined, admin);
    expect(terms.status).toBe(200);
    expect(terms.body).toMatchObject({
      can: { cancel: true },
      cancellation: { band: 'no_refund', refund: '0.00', fee: '465.58' },
    });
    expect(
      (
        await app.request(
          'GET',
          `/api/dashboard/bookings/${jobId}/cancellation`,
          undefined,
          app.identity('technician'),
        )
      ).status,
    ).toBe(403);
    expect(
      await app.request('POST', `/api/dashboard/bookings/${jobId}/cancel`, { reason: ' ' }, admin),
    ).toMatchObject({ status: 400, body: { message: 'Please enter a reason for cancelling this booking' } });

    const res = await app.request(
      'POST',
      `/api/dashboard/bookings/${jobId}/cancel`,
      { reason: 'Customer in hospital', waiveFee: true },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'cancelled',
      cancelled: {
        cancelledBy: 'staff',
        band: 'no_refund',
        refund: '465.58',
        fee: '465.58',
        feeWaived: true,
      },
    });
    const event = await app.events.waitFor<Cancelled & { cancelledByUserId?: string }>(
      'booking.cancelled.v1',
      (d) => d.jobId === jobId,
    );
    expect(event.data).toMatchObject({
      cancelledBy: 'staff',
      cancelledByUserId: adminId,
      reason: 'Customer in hospital',
      band: 'no_refund',
      refundPercent: 0,
      refund: '465.58',
      fee: '465.58',
      feeWaived: true,
      paymentIntentId,
    });
    const { rows } = await app.pg.query(
      `SELECT cancelled_by_user_id::text AS who FROM booking.bookings WHERE job_id = $1`,
      [jobId],
    );
    expect(rows[0].who).toBe(adminId);
    expect(await isFree(date, '2-4 PM')).toBe(true);
    // The customer's page says so; a second cancel is refused.
    expect((await get(token)).body).toMatchObject({
      status: 'cancelled',
      cancelled: { cancelledBy: 'staff' },
    });
    expect(
      (await app.request('POST', `/api/dashboard/bookings/${jobId}/cancel`, { reason: 'again' }, admin))
        .status,
    ).toBe(409);
    expect(
      (await app.request('POST', `/api/dashboard/bookings/${randomUUID()}/cancel`, { reason: 'x' }, admin))
        .status,
    ).toBe(404);
  });

  it('pay on site, not waived: the fee stands', async () => {
    const date = nextDay();
    const { jobId } = await book(date, '10-12 AM');
    app.clock.set(new Date(startOf(date, '10-12 AM').getTime() - 20 * HOUR));
    const res = await app.request(
      'POST',
      `/api/dashboard/bookings/${jobId}/cancel`,
      { reason: 'Customer called' },
      app.identity('admin'),
    );
    expect(res.body).toMatchObject({
      cancelled: { band: 'half_refund', refund: '0.00', fee: '243.90', feeWaived: false },
    });
  });
});
