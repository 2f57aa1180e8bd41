import { randomUUID } from 'node:crypto';
import { BookingCancelled, BookingCreated, BookingRescheduled, JobDeleted } from '@tyres/events';
import { perthInstant } from '@tyres/kernel';
import { waitFor } from '@tyres/testkit';
import { bookingCreated } from '../fixtures';
import { perthClockAt, startStack, type Stack } from './harness';
import { reminderJobId, type ReminderJobData } from '../../src/workers/queues';

jest.setTimeout(90_000);

// notify's clock: 10 am Perth on 10 March 2030 (then real speed), so every reminder of these tests is due years from
// now in real time and stays delayed until a test promotes it.
const TODAY = '2030-03-10';
const TOMORROW = '2030-03-11';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack('notify-reminders', {
    replicas: 2,
    env: { BUSINESS_NAME: 'Mobile Tyres Perth', BUSINESS_PHONE: '08 6000 0000' },
    options: { now: perthClockAt('10:00', TODAY) },
  });
});

afterAll(async () => {
  await stack?.stop();
});

const notify = (i = 0) => stack.notify[i]!.service;
const reminders = () => notify().queues.reminders;
const deliveries = () => notify().deliveries;

/** The reminder jobs of one booking, in any state. */
async function reminderJobs(jobId: string) {
  const jobs = await reminders().getJobs(['delayed', 'wait', 'active', 'completed', 'failed']);
  return jobs.filter((j) => j?.data.bookingJobId === jobId);
}

async function created(overrides: Parameters<typeof bookingCreated>[0] = {}) {
  const data = bookingCreated({
    scheduledDate: TOMORROW,
    timeSlot: '8-10 AM',
    customer: { name: 'Jane Citizen', email: `jane-${randomUUID()}@example.com`, phone: '0412 345 678' },
    ...overrides,
  });
  const event = await stack.publish(BookingCreated, data);
  const id = reminderJobId({
    bookingJobId: data.jobId,
    scheduledDate: data.scheduledDate,
    timeSlot: data.timeSlot,
  });
  await waitFor(async () => (await reminders().getJob(id)) ?? undefined, { timeoutMs: 15_000 });
  return { data, event, id };
}

async function settled(key: string) {
  return waitFor(
    async () => {
      const row = await deliveries().getByKey(key);
      return row && (row.status === 'sent' || row.status === 'failed') ? row : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

describe('day-before reminder', () => {
  it('a booking for tomorrow: a delayed job due at 5 pm Perth today, holding no personal details', async () => {
    const { data, id } = await created();
    const job = (await reminders().getJob(id))!;
    expect(await job.getState()).toBe('delayed');
    expect(job.timestamp + job.delay).toBe(perthInstant(TODAY, '17:00').getTime());
    expect(job.data).toEqual({
      bookingJobId: data.jobId,
      scheduledDate: TOMORROW,
      timeSlot: '8-10 AM',
      correlationId: expect.any(String),
    });
    expect(JSON.stringify(job.data)).not.toContain('0412');
  });

  it('two replicas handling the same booking (and a redelivery) leave one job', async () => {
    const { data, event } = await created();
    await Promise.all([notify(0).lifecycle.bookingCreated(event), notify(1).lifecycle.bookingCreated(event)]);
    await stack.republish(event);
    await new Promise((r) => setTimeout(r, 500));
    expect(await reminderJobs(data.jobId)).toHaveLength(1);
  });

  it('no reminder when 5 pm the day before has passed (a booking for today)', async () => {
    const data = bookingCreated({ scheduledDate: TODAY, timeSlot: '2-4 PM' });
    await stack.publish(BookingCreated, data);
    // The confirmation is written by the same handler, before the reminder would be.
    await settled(`email-booking-confirmation-${data.jobId}`);
    await waitFor(async () => (await notify().bookings.get(data.jobId)) ?? undefined);
    expect(await reminderJobs(data.jobId)).toEqual([]);
  });

  it('reschedule: the job moves to 5 pm the day before the new date; the customer is told the new slot', async () => {
    const { data, id } = await created();
    const to = { scheduledDate: '2030-03-14', timeSlot: '2-4 PM' as const };
    const event = await stack.publish(BookingRescheduled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      from: { scheduledDate: data.scheduledDate, timeSlot: data.timeSlot },
      to,
      rescheduledBy: 'customer',
      rescheduledAt: new Date().toISOString(),
    });
    const movedId = reminderJobId({ bookingJobId: data.jobId, ...to });
    const moved = await waitFor(async () => (await reminders().getJob(movedId)) ?? undefined);
    expect(moved.timestamp + moved.delay).toBe(perthInstant('2030-03-13', '17:00').getTime());
    expect(await reminders().getJob(id)).toBeUndefined();
    expect(await reminderJobs(data.jobId)).toHaveLength(1);

    const sms = await settled(`sms-booking-rescheduled-${event.id}`);
    expect(sms).toMatchObject({ status: 'sent', purpose: 'booking-rescheduled', recipient: '0412 345 678' });
    expect(sms.body).toBe(
      `Mobile Tyres Perth: your booking ${data.jobNumber} has moved to Thursday 14 March 2030, 2-4 PM.`,
    );
    const email = await settled(`email-booking-rescheduled-${event.id}`);
    expect(email.recipient).toBe(data.customer.email);
    expect(email.body).toContain('New time: Thursday 14 March 2030, 2-4 PM');
  });

  it('cancel: the job is gone; the notice states the refund from the event', async () => {
    const { data, id } = await created({ paymentMethod: 'prepaid', paymentStatus: 'paid' });
    await stack.publish(BookingCancelled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      slot: { scheduledDate: data.scheduledDate, timeSlot: data.timeSlot },
      cancelledAt: new Date().toISOString(),
      cancelledBy: 'customer',
      reason: null,
      band: 'half_refund',
      refundPercent: 50,
      refund: '358.65',
      fee: '358.64',
      feeWaived: false,
      paymentMethod: 'prepaid',
      paymentIntentId: 'pi_123',
    });
    const sms = await settled(`sms-booking-cancelled-${data.jobId}`);
    expect(sms.body).toBe(
      `Mobile Tyres Perth: your booking ${data.jobNumber} for Monday 11 March 2030, 8-10 AM is cancelled. ` +
        'You will receive a 50% refund of $358.65 to the card you paid with. The remaining $358.64 is kept as the ' +
        'cancellation fee.',
    );
    const email = await settled(`email-booking-cancelled-${data.jobId}`);
    expect(email.subject).toBe(`Booking cancelled: New Tyres on Monday 11 March 2030 (${data.jobNumber})`);
    expect(await reminders().getJob(id)).toBeUndefined();
    expect((await notify().bookings.get(data.jobId))?.cancelledAt).toBeInstanceOf(Date);
  });

  it('a deleted job takes its reminder with it', async () => {
    const { data, id } = await created();
    await stack.publish(JobDeleted, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      scheduledDate: data.scheduledDate,
      timeSlot: data.timeSlot,
      deletedBy: randomUUID(),
      deletedAt: new Date().toISOString(),
      status: 'new',
      assignedTechnicianId: null,
    });
    await waitFor(async () => ((await reminders().getJob(id)) ? undefined : true));
    expect(await reminderJobs(data.jobId)).toEqual([]);
  });

  it('when due, the reminder sends one SMS and one email through the delivery log', async () => {
    const { data, id } = await created({ serviceType: 'puncture-repair' });
    await (await reminders().getJob(id))!.promote();
    const key = `booking-reminder-${data.jobId}-20300311-0800`;
    const sms = await settled(`sms-${key}`);
    expect(sms).toMatchObject({ status: 'sent', purpose: 'booking-reminder' });
    expect(sms.body).toBe(
      'Mobile Tyres Perth: reminder, your Puncture Repair is tomorrow, Monday 11 March 2030, 8-10 AM, at ' +
        `12 Beaufort Street, Mount Lawley 6050 (job ${data.jobNumber}). To change it call 08 6000 0000.`,
    );
    const email = await settled(`email-${key}`);
    expect(email.subject).toBe(`Reminder: Puncture Repair tomorrow, 8-10 AM (${data.jobNumber})`);

    // The same reminder run again (a stalled job re-run) sends nothing more: the rows are the record.
    const ran = (await reminders().getJob(id))!;
    expect(await ran.getState()).toBe('completed');
    await expect(notify(1).lifecycle.remind(ran.data)).resolves.toBe('queued');
    const rows = await deliveries().list({ jobId: data.jobId, limit: 50 });
    expect(rows.filter((r) => r.purpose === 'booking-reminder')).toHaveLength(2);
  });

  it('a stale job (the booking moved or was cancelled meanwhile) sends nothing', async () => {
    const { data } = await created();
    const stale: ReminderJobData = {
      bookingJobId: data.jobId,
      scheduledDate: '2030-03-20',
      timeSlot: '8-10 AM',
    };
    await expect(notify().lifecycle.remind(stale)).resolves.toBe('moved');
    await stack.publish(BookingCancelled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      slot: { scheduledDate: data.scheduledDate, timeSlot: data.timeSlot },
      cancelledAt: new Date().toISOString(),
      cancelledBy: 'staff',
      band: 'full_refund',
      refundPercent: 100,
      refund: '0.00',
      fee: '0.00',
      feeWaived: false,
      paymentMethod: 'onsite',
    });
    await settled(`sms-booking-cancelled-${data.jobId}`);
    const current: ReminderJobData = {
      bookingJobId: data.jobId,
      scheduledDate: data.scheduledDate,
      timeSlot: data.timeSlot,
    };
    await expect(notify().lifecycle.remind(current)).resolves.toBe('cancelled');
    const rows = await deliveries().list({ jobId: data.jobId, limit: 50 });
    expect(rows.filter((r) => r.purpose === 'booking-reminder')).toEqual([]);
  });
});
