import { randomUUID } from 'node:crypto';
import {
  BookingCancelled,
  BookingCreated,
  BookingRescheduled,
  JobDeleted,
  JobRescheduled,
} from '@tyres/events';
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
  return jobs.filter((j) => j && 'bookingJobId' in j.data && j.data.bookingJobId === jobId);
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

  it("staff move the job: the reminder follows and the customer is told; the customer's own move (via jobs) is not told twice", async () => {
    const { data } = await created();
    const from = { scheduledDate: data.scheduledDate, timeSlot: data.timeSlot };
    const to = { scheduledDate: '2030-03-15', timeSlot: '10-12 AM' as const };
    const staffMove = await stack.publish(JobRescheduled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      from,
      to,
      assignedTechnicianId: null,
      rescheduledBy: '0194f5a0-0000-7000-8000-000000000002',
      rescheduledAt: new Date().toISOString(),
    });
    await waitFor(
      async () => (await reminders().getJob(reminderJobId({ bookingJobId: data.jobId, ...to }))) ?? undefined,
    );
    const sms = await settled(`sms-booking-rescheduled-${staffMove.id}`);
    expect(sms.body).toBe(
      `Mobile Tyres Perth: your booking ${data.jobNumber} has moved to Friday 15 March 2030, 10-12 AM.`,
    );
    expect((await settled(`email-booking-rescheduled-${staffMove.id}`)).body).toContain(
      'Previously: Monday 11 March 2030, 8-10 AM.',
    );
    // jobs applying the customer's BookingRescheduled sends JobRescheduled with no staff member: no second notice.
    const back = { scheduledDate: '2030-03-18', timeSlot: '8-10 AM' as const };
    const mirrored = await stack.publish(JobRescheduled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      from: to,
      to: back,
      assignedTechnicianId: null,
      rescheduledBy: null,
      rescheduledAt: new Date().toISOString(),
    });
    await waitFor(
      async () =>
        (await reminders().getJob(reminderJobId({ bookingJobId: data.jobId, ...back }))) ?? undefined,
    );
    // The notice would be queued right after the reminder moved, by the same handler: give it time to show.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await deliveries().getByKey(`sms-booking-rescheduled-${mirrored.id}`)).toBeNull();
    expect(await deliveries().getByKey(`email-booking-rescheduled-${mirrored.id}`)).toBeNull();
  });

  it('no-show: the customer gets a "we missed you" notice with the charge, never a cancellation notice', async () => {
    const { data, id } = await created({ paymentMethod: 'onsite' });
    await stack.publish(BookingCancelled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      slot: { scheduledDate: data.scheduledDate, timeSlot: data.timeSlot },
      cancelledAt: new Date().toISOString(),
      cancelledBy: 'staff',
      cancelledByUserId: '0194f5a0-0000-7000-8000-000000000001',
      reason: 'No-show',
      band: 'no_refund',
      refundPercent: 0,
      refund: '0.00',
      fee: '717.29',
      feeWaived: false,
      paymentMethod: 'onsite',
      kind: 'no_show',
    });
    const sms = await settled(`sms-booking-no-show-${data.jobId}`);
    expect(sms).toMatchObject({ purpose: 'booking-no-show', recipient: '0412 345 678' });
    expect(sms.body).toBe(
      `Mobile Tyres Perth: we missed you at your booking ${data.jobNumber} for Monday 11 March 2030, 8-10 AM, so it ` +
        'is closed as a no-show. As our terms say, a missed booking is charged in full: we will send you an invoice ' +
        'for $717.29. If you think this is a mistake, call us on 08 6000 0000.',
    );
    const email = await settled(`email-booking-no-show-${data.jobId}`);
    expect(email.subject).toBe(`Missed booking: New Tyres on Monday 11 March 2030 (${data.jobNumber})`);
    expect(email.body).not.toMatch(/cancel/i);
    expect(await reminders().getJob(id)).toBeUndefined();
    expect(await deliveries().getByKey(`sms-booking-cancelled-${data.jobId}`)).toBeNull();
    expect(await deliveries().getByKey(`email-booking-cancelled-${data.jobId}`)).toBeNull();
  });

  it('a cancellation that arrives before BookingCreated: no reminder is planned for the cancelled booking', async () => {
    const data = bookingCreated({
      scheduledDate: TOMORROW,
      timeSlot: '10-12 AM',
      customer: { name: 'Olly Order', email: `olly-${randomUUID()}@example.com`, phone: '0412 345 679' },
    });
    await stack.publish(BookingCancelled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      slot: { scheduledDate: data.scheduledDate, timeSlot: data.timeSlot },
      cancelledAt: new Date().toISOString(),
      cancelledBy: 'staff',
      reason: 'Booked by mistake',
      band: 'full_refund',
      refundPercent: 100,
      refund: '0.00',
      fee: '0.00',
      feeWaived: false,
      paymentMethod: 'onsite',
    });
    // notify remembers the cancellation of a booking it has not heard of yet.
    await waitFor(async () => (await notify().bookings.get(data.jobId))?.cancelledAt ?? undefined, {
      timeoutMs: 15_000,
    });
    await stack.publish(BookingCreated, data);
    // BookingCreated is handled (its confirmation queued) and finds the booking cancelled: no reminder.
    await settled(`email-booking-confirmation-${data.jobId}`);
    await new Promise((r) => setTimeout(r, 500));
    expect(await reminderJobs(data.jobId)).toEqual([]);
    const record = await notify().bookings.get(data.jobId);
    expect(record?.cancelledAt).toBeInstanceOf(Date);
    expect(record?.customerEmail).toBe(data.customer.email);
    // Nothing was queued to an empty address.
    expect(await deliveries().getByKey(`sms-booking-cancelled-${data.jobId}`)).toBeNull();
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
    await expect(notify(1).lifecycle.remind(ran.data as ReminderJobData)).resolves.toBe('queued');
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
