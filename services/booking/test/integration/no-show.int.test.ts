/**
 * Mark no-show (issue 18, staff): POST /api/dashboard/bookings/{jobId}/no-show, once the slot has started, charges
 * the customer in full under the kernel's noShowTerms: a pay-on-site booking's whole price as the fee (billing
 * invoices it), a prepaid one keeps the whole charge (nothing refunded). One transaction with BookingCancelled
 * (kind no_show) in the outbox; 409 before the slot starts, once cancelled, and for finished work.
 */
import { randomUUID } from 'node:crypto';
import { JobStatusChanged, PaymentSucceeded } from '@tyres/events';
import { slotStartsAt, type TimeSlot } from '@tyres/kernel';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(90_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-07-07');

beforeAll(async () => {
  app = await startTestBooking('booking-no-show', { PUBLIC_SITE_URL: 'https://tyres.test' });
});
afterAll(async () => {
  await app?.stop();
});
afterEach(() => app.clock.reset());

const MINUTE = 60_000;
const startOf = (date: string, slot: string) => slotStartsAt(date, slot as TimeSlot);
const noShow = (jobId: string, body: object = {}, who = app.identity('admin')) =>
  app.request('POST', `/api/dashboard/bookings/${jobId}/no-show`, body, who);

interface Cancelled {
  jobId: string;
  kind?: string;
  cancelledBy: string;
  cancelledByUserId?: string | null;
  reason?: string | null;
  band: string;
  refundPercent: number;
  refund: string;
  fee: string;
  feeWaived: boolean;
  paymentMethod: string;
  paymentIntentId?: string | null;
}

async function book(date: string, slot: string) {
  const res = await app.request('POST', '/api/bookings', bookingBody(date, slot));
  expect(res.status).toBe(201);
  return res.body as unknown as { jobId: string; jobNumber: string };
}

describe('POST /api/dashboard/bookings/{jobId}/no-show', () => {
  it('pay on site, after the slot started: the whole price is the fee; BookingCancelled (no_show) announces it', async () => {
    const date = nextDay();
    const { jobId } = await book(date, '10-12 AM');
    const adminId = randomUUID();
    const admin = app.identity('admin', adminId);

    // Not before the slot starts, and never by a technician.
    app.clock.set(new Date(startOf(date, '10-12 AM').getTime() - MINUTE));
    expect(await noShow(jobId, {}, admin)).toMatchObject({
      status: 409,
      body: { message: 'A booking can only be marked as a no-show once its time slot has started.' },
    });
    app.clock.set(new Date(startOf(date, '10-12 AM').getTime() + 30 * MINUTE));
    expect((await noShow(jobId, {}, app.identity('technician'))).status).toBe(403);
    expect(await noShow(jobId, { note: 'x'.repeat(501) }, admin)).toMatchObject({
      status: 400,
      body: { message: 'The note is too long (500 characters at most)' },
    });

    const res = await noShow(jobId, { note: 'Nobody home, phone off' }, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'cancelled',
      can: { reschedule: false, cancel: false, change: false },
      cancelled: {
        kind: 'no_show',
        cancelledBy: 'staff',
        reason: 'No-show: Nobody home, phone off',
        band: 'no_refund',
        refundPercent: 0,
        refund: '0.00',
        fee: '487.80',
        feeWaived: false,
      },
    });
    const event = await app.events.waitFor<Cancelled>('booking.cancelled.v1', (d) => d.jobId === jobId);
    expect(event.data).toMatchObject({
      kind: 'no_show',
      cancelledBy: 'staff',
      cancelledByUserId: adminId,
      reason: 'No-show: Nobody home, phone off',
      band: 'no_refund',
      refund: '0.00',
      fee: '487.80',
      feeWaived: false,
      paymentMethod: 'onsite',
    });

    // Once marked, a second mark and a cancel are refused.
    expect(await noShow(jobId, {}, admin)).toMatchObject({
      status: 409,
      body: { message: 'This booking has been cancelled and cannot be marked as a no-show.' },
    });
    expect(
      (await app.request('POST', `/api/dashboard/bookings/${jobId}/cancel`, { reason: 'again' }, admin))
        .status,
    ).toBe(409);
    expect((await noShow(randomUUID(), {}, admin)).status).toBe(404);
    expect((await noShow('not-a-job', {}, admin)).status).toBe(404);
  });

  it('prepaid: the whole charge is kept, nothing refunded', async () => {
    const date = nextDay();
    const quote = await app.request(
      'POST',
      '/api/bookings/quote',
      bookingBody(date, '8-10 AM', { job: { paymentMethod: 'prepaid' } }),
    );
    expect(quote.status).toBe(201);
    const q = quote.body as unknown as { quoteId: string; jobId: string; amount: string };
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
    await app.events.waitFor('booking.created.v1', (d: { jobId: string }) => d.jobId === q.jobId);
    app.clock.set(new Date(startOf(date, '8-10 AM').getTime() + 90 * MINUTE));
    const res = await noShow(q.jobId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cancelled: { kind: 'no_show', refund: '0.00', fee: '465.58' } });
    const event = await app.events.waitFor<Cancelled>('booking.cancelled.v1', (d) => d.jobId === q.jobId);
    expect(event.data).toMatchObject({
      kind: 'no_show',
      paymentMethod: 'prepaid',
      refund: '0.00',
      fee: '465.58',
      paymentIntentId,
    });
  });

  it('finished work cannot be a no-show', async () => {
    const date = nextDay();
    const { jobId, jobNumber } = await book(date, '12-2 PM');
    await app.publish(JobStatusChanged, {
      jobId,
      jobNumber,
      from: 'in-progress',
      to: 'completed',
      changedAt: new Date().toISOString(),
      changedBy: randomUUID(),
      assignedTechnicianId: randomUUID(),
      serviceType: 'new-tyres',
      scheduledDate: date,
      timeSlot: '12-2 PM',
      customerValue: '487.80',
    });
    await app.events.waitFor('job.status-changed.v1', (d: { jobId: string }) => d.jobId === jobId);
    app.clock.set(new Date(startOf(date, '12-2 PM').getTime() + 30 * MINUTE));
    // Booking applies the job's progress from its own queue: wait until it has.
    const until = Date.now() + 15_000;
    let res = await noShow(jobId);
    while (res.status !== 409 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
      res = await noShow(jobId);
    }
    expect(res).toMatchObject({
      status: 409,
      body: { message: 'This job has been completed and cannot be marked as a no-show.' },
    });
  });
});
