import { randomUUID } from 'node:crypto';
import { createEvent, SmsRequested } from '@tyres/events';
import type { DeliveryRepository, DeliveryStatus, NewDelivery } from '../db/deliveries';
import { smsRequested } from '../../test/fixtures';
import { perthInstant } from '@tyres/kernel';
import { DeliveryRequests } from './delivery-requests';

/** An in-memory delivery log and queues: enough to see which rows are written and which jobs are (re-)added. */
function fakes(now: Date = perthInstant('2026-11-24', '12:00')) {
  const rows = new Map<string, NewDelivery & { id: string; status: DeliveryStatus }>();
  const added: { queue: string; name: string; jobId: string; dueAt?: number }[] = [];
  const deliveries = {
    async createIfAbsent(input: NewDelivery) {
      const existing = rows.get(input.key);
      if (existing) return { delivery: existing, created: false };
      const row = { ...input, id: `d${rows.size + 1}`, status: 'queued' as DeliveryStatus };
      rows.set(input.key, row);
      return { delivery: row, created: true };
    },
  } as unknown as DeliveryRepository;
  const queue = (name: string) => ({
    add: async (
      jobName: string,
      _data: unknown,
      opts: { jobId: string; delay?: number; timestamp?: number },
    ) => {
      added.push({
        queue: name,
        name: jobName,
        jobId: opts.jobId,
        ...(opts.delay ? { dueAt: (opts.timestamp ?? 0) + opts.delay } : {}),
      });
    },
  });
  const requests = new DeliveryRequests({
    deliveries,
    queues: { sms: queue('sms'), email: queue('email') } as never,
    business: { name: 'Mobile Tyres Perth', phone: '08 6000 0000' },
    smsAttempts: 4,
    emailAttempts: 5,
    now: () => now,
  });
  return { rows, added, requests };
}

const meta = { source: 'test', correlationId: 'c1' };

describe('DeliveryRequests', () => {
  it('SmsRequested: one row keyed by the request id, one sms job with the same id', async () => {
    const { rows, added, requests } = fakes();
    const requestedBy = randomUUID();
    const event = createEvent(SmsRequested, smsRequested({ requestedBy }), meta);
    await expect(requests.smsRequested(event)).resolves.toBeUndefined();
    const row = rows.get(`sms-${event.data.requestId}`);
    expect(row).toMatchObject({ channel: 'sms', maxAttempts: 4, requestedBy, sourceEventId: event.id });
    expect(added).toEqual([{ queue: 'sms', name: event.data.purpose, jobId: `sms-${event.data.requestId}` }]);
  });

  it('a redelivered event re-adds the job while the message is open, and leaves a sent one alone', async () => {
    const { rows, added, requests } = fakes();
    const event = createEvent(SmsRequested, smsRequested(), meta);
    await requests.smsRequested(event);
    await expect(requests.smsRequested(event)).resolves.toBe('duplicate');
    expect(added).toHaveLength(2); // BullMQ collapses the second add by job id
    (rows.get(`sms-${event.data.requestId}`) as { status: DeliveryStatus }).status = 'sent';
    await expect(requests.smsRequested(event)).resolves.toBe('duplicate');
    expect(added).toHaveLength(2);
  });

  it('quiet hours: a request at 9 pm Perth waits until 8 am (row and job); the en route SMS does not', async () => {
    const { rows, added, requests } = fakes(perthInstant('2026-11-24', '21:00'));
    const morning = perthInstant('2026-11-25', '08:00');
    const reminder = createEvent(SmsRequested, smsRequested({ purpose: 'booking-reminder' }), meta);
    await requests.smsRequested(reminder);
    expect(rows.get(`sms-${reminder.data.requestId}`)?.nextAttemptAt).toEqual(morning);
    expect(added[0]).toMatchObject({ jobId: `sms-${reminder.data.requestId}`, dueAt: morning.getTime() });

    const enRoute = createEvent(SmsRequested, smsRequested({ purpose: 'technician-en-route' }), meta);
    await requests.smsRequested(enRoute);
    expect(rows.get(`sms-${enRoute.data.requestId}`)?.nextAttemptAt).toBeNull();
    expect(added[1]).toEqual({
      queue: 'sms',
      name: 'technician-en-route',
      jobId: `sms-${enRoute.data.requestId}`,
    });
  });
});
