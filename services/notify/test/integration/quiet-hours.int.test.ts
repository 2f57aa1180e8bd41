import { randomUUID } from 'node:crypto';
import { BookingCancelled, BookingCreated, SmsRequested } from '@tyres/events';
import { perthInstant } from '@tyres/kernel';
import { waitFor } from '@tyres/testkit';
import { bookingCreated, smsRequested } from '../fixtures';
import { connect, perthClockAt, startStack, wsUrl, type Stack, type TestSocket } from './harness';

jest.setTimeout(60_000);

// notify's clock: 9 pm Perth on 10 March 2030, in quiet hours.
const TODAY = '2030-03-10';
let stack: Stack;
let admin: TestSocket;

beforeAll(async () => {
  stack = await startStack('notify-quiet', {
    env: { BUSINESS_NAME: 'Mobile Tyres Perth' },
    options: { now: perthClockAt('21:00', TODAY) },
  });
  admin = await connect(wsUrl(stack.gateways[0]!.baseUrl), { Cookie: (await stack.admin()).cookie ?? '' });
});

afterAll(async () => {
  admin?.close();
  await stack?.stop();
});

const service = () => stack.notify[0]!.service;

it('a cancellation at 9 pm Perth: the notices wait until 8 am; the dashboard hears it at once', async () => {
  const booking = bookingCreated({ scheduledDate: '2030-03-12', suburb: 'Rockingham' });
  await stack.publish(BookingCreated, booking);
  await waitFor(async () => (await service().bookings.get(booking.jobId)) ?? undefined);
  const cancelled = {
    jobId: booking.jobId,
    jobNumber: booking.jobNumber,
    slot: { scheduledDate: booking.scheduledDate, timeSlot: booking.timeSlot },
    cancelledAt: new Date().toISOString(),
    cancelledBy: 'customer' as const,
    band: 'full_refund' as const,
    refundPercent: 100,
    refund: '0.00',
    fee: '0.00',
    feeWaived: false,
    paymentMethod: 'onsite' as const,
  };
  await stack.publish(BookingCancelled, cancelled);

  const live = await admin.next((m) => m.type === 'booking_cancelled' && m.data.jobId === booking.jobId);
  expect(live.data).toMatchObject({ jobNumber: booking.jobNumber, band: 'full_refund', feeWaived: false });

  const key = `sms-booking-cancelled-${booking.jobId}`;
  const row = await waitFor(async () => (await service().deliveries.getByKey(key)) ?? undefined);
  const morning = perthInstant('2030-03-11', '08:00');
  expect(row).toMatchObject({ status: 'queued', nextAttemptAt: morning });
  expect(row.body).toContain('There is no cancellation fee.');
  const job = (await service().queues.sms.getJob(key))!;
  expect(await job.getState()).toBe('delayed');
  expect(job.timestamp + job.delay).toBe(morning.getTime());
  const email = (await service().queues.email.getJob(`email-booking-cancelled-${booking.jobId}`))!;
  expect(email.timestamp + email.delay).toBe(morning.getTime());
});

it('the technician-en-route SMS goes out at once, even at 9 pm', async () => {
  const sms = smsRequested({ requestId: randomUUID(), purpose: 'technician-en-route' });
  await stack.publish(SmsRequested, sms);
  const row = await waitFor(async () => {
    const r = await service().deliveries.getByKey(`sms-${sms.requestId}`);
    return r?.status === 'sent' ? r : undefined;
  });
  expect(row.nextAttemptAt).toBeNull();
});
