import { randomUUID } from 'node:crypto';
import { BookingCreated, CustomerErased, JobUpdated, type JobUpdatedV1Data } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingCreated } from '../fixtures';
import { perthClockAt, startStack, type Stack } from './harness';
import { reminderJobId } from '../../src/workers/queues';

jest.setTimeout(90_000);

// notify's clock: 10 am Perth on 10 March 2030, so the reminder stays delayed until the test promotes it.
const TODAY = '2030-03-10';
const TOMORROW = '2030-03-11';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack('notify-job-updated', {
    env: { BUSINESS_NAME: 'Mobile Tyres Perth', BUSINESS_PHONE: '08 6000 0000' },
    options: { now: perthClockAt('10:00', TODAY) },
  });
});

afterAll(async () => {
  await stack?.stop();
});

const notify = () => stack.notify[0]!.service;

function jobUpdated(
  b: ReturnType<typeof bookingCreated>,
  overrides: Partial<JobUpdatedV1Data>,
): JobUpdatedV1Data {
  return {
    jobId: b.jobId,
    jobNumber: b.jobNumber,
    version: 1,
    changed: ['address', 'suburb', 'postcode'],
    status: 'new',
    customerValue: b.customerValue,
    address: b.address,
    suburb: b.suburb,
    postcode: b.postcode,
    vehicle: b.vehicle,
    notes: b.notes,
    tyreSize: b.tyreSize,
    tyreQuantity: b.tyreQuantity,
    tyreBrand: b.tyreBrand,
    updatedBy: randomUUID(),
    updatedAt: new Date().toISOString(),
    ...overrides,
  };
}

describe('JobUpdated (an admin edited the job)', () => {
  it('the reminder sent afterwards carries the new address; an older version after a newer one changes nothing', async () => {
    const data = bookingCreated({
      scheduledDate: TOMORROW,
      timeSlot: '8-10 AM',
      serviceType: 'puncture-repair',
      customer: { name: 'Jane Citizen', email: `jane-${randomUUID()}@example.com`, phone: '0412 345 678' },
    });
    await stack.publish(BookingCreated, data);
    const id = reminderJobId({ bookingJobId: data.jobId, scheduledDate: TOMORROW, timeSlot: '8-10 AM' });
    await waitFor(async () => (await notify().queues.reminders.getJob(id)) ?? undefined, { timeoutMs: 15_000 });

    // Version 2 (the newer edit) first, then version 1 delivered late.
    const v2 = await stack.publish(
      JobUpdated,
      jobUpdated(data, { version: 2, address: '7 Hay Street', suburb: 'Subiaco', postcode: '6008' }),
    );
    await waitFor(async () => {
      const r = await notify().bookings.get(data.jobId);
      return r?.address === '7 Hay Street, Subiaco 6008' ? r : undefined;
    });
    // A redelivery of version 2 is harmless.
    await stack.republish(v2);
    const v1 = await stack.publish(
      JobUpdated,
      jobUpdated(data, { version: 1, address: '1 Old Road', suburb: 'Midland', postcode: '6056' }),
    );
    await new Promise((r) => setTimeout(r, 1000));
    // And once more, awaited here, so the late version 1 has certainly been handled.
    await notify().lifecycle.jobUpdated(v1);
    const record = (await notify().bookings.get(data.jobId))!;
    expect(record.address).toBe('7 Hay Street, Subiaco 6008');
    expect(record.suburb).toBe('Subiaco');

    await (await notify().queues.reminders.getJob(id))!.promote();
    const key = `sms-booking-reminder-${data.jobId}-20300311-0800`;
    const sms = await waitFor(
      async () => {
        const row = await notify().deliveries.getByKey(key);
        return row && (row.status === 'sent' || row.status === 'failed') ? row : undefined;
      },
      { timeoutMs: 20_000 },
    );
    expect(sms.body).toBe(
      'Mobile Tyres Perth: reminder, your Puncture Repair is tomorrow, Monday 11 March 2030, 8-10 AM, at ' +
        `7 Hay Street, Subiaco 6008 (job ${data.jobNumber}). To change it call 08 6000 0000.`,
    );
  });
});

describe('JobUpdated after the customer was erased', () => {
  it('the record stays erased: the edited address is blanked again', async () => {
    const data = bookingCreated({ scheduledDate: TOMORROW, timeSlot: '10-12 AM' });
    await stack.publish(BookingCreated, data);
    await waitFor(async () => (await notify().bookings.get(data.jobId)) ?? undefined, { timeoutMs: 15_000 });
    await stack.publish(CustomerErased, {
      customerId: data.customerId,
      erasedAt: new Date().toISOString(),
      erasedByUserId: randomUUID(),
      jobIds: [data.jobId],
      bookingIds: [randomUUID()],
    });
    await waitFor(async () => {
      const r = await notify().bookings.get(data.jobId);
      return r?.address === 'Erased' ? r : undefined;
    });
    await stack.publish(
      JobUpdated,
      jobUpdated(data, { version: 3, address: '7 Hay Street', suburb: 'Subiaco', postcode: '6008' }),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const record = (await notify().bookings.get(data.jobId))!;
    expect(record.address).toBe('Erased');
    expect(record.customerPhone).toBe('Erased');
  });
});
