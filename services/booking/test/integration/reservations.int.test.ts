import { randomUUID } from 'node:crypto';
import { JobDeleted, JobRescheduled, JobStatusChanged } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingBody, businessDays, startTestBooking, type BookingUnderTest } from './harness';

jest.setTimeout(60_000);

let app: BookingUnderTest;
const nextDay = businessDays('2031-10-06');

beforeAll(async () => {
  app = await startTestBooking('booking-reservations');
});
afterAll(async () => {
  await app?.stop();
});

const NO_LONGER = 'This time slot is no longer available. Please select a different time slot.';
const staff = () => app.identity('admin');

async function book(date: string, slot: string) {
  const res = await app.request('POST', '/api/bookings', bookingBody(date, slot));
  expect(res.status).toBe(201);
  return res.body as unknown as { jobId: string; jobNumber: string };
}
const free = async (date: string) =>
  ((await app.request('GET', `/api/time-slots/${date}`)).body as { slot: string }[]).map((s) => s.slot);
const reservation = async (jobId: string) =>
  (
    await app.pg.query(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, time_slot, released_at, release_reason FROM booking.slot_reservations WHERE job_id = $1`,
      [jobId],
    )
  ).rows[0];
const handled = async (handler: string) =>
  (await app.pg.query(`SELECT count(*)::int AS n FROM booking.inbox_events WHERE handler = $1`, [handler]))
    .rows[0].n as number;

describe('PUT /internal/reservations/{jobId} (reschedule)', () => {
  it('moves the reservation atomically; the lists reflect it when the call returns', async () => {
    const date = nextDay();
    const target = nextDay();
    const { jobId } = await book(date, '8-10 AM');
    const res = await app.request(
      'PUT',
      `/internal/reservations/${jobId}`,
      { scheduledDate: target, timeSlot: '2-4 PM' },
      staff(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jobId, scheduledDate: target, timeSlot: '2-4 PM' });
    expect(await free(date)).toContain('8-10 AM');
    expect(await free(target)).not.toContain('2-4 PM');
    // Same slot again: a no-op 200.
    expect(
      (
        await app.request(
          'PUT',
          `/internal/reservations/${jobId}`,
          { scheduledDate: target, timeSlot: '2-4 PM' },
          staff(),
        )
      ).status,
    ).toBe(200);
  });

  it('409 when the target is taken or blocked; 400 for past/malformed dates and bad slots; 404 without a reservation; 401 without identity', async () => {
    const date = nextDay();
    const a = await book(date, '8-10 AM');
    await book(date, '10-12 AM');
    const taken = await app.request(
      'PUT',
      `/internal/reservations/${a.jobId}`,
      { scheduledDate: date, timeSlot: '10-12 AM' },
      staff(),
    );
    expect(taken).toMatchObject({ status: 409, body: { message: NO_LONGER } });
    await app.request(
      'PATCH',
      `/api/dashboard/timeslots/${date}/12-2%20PM/block`,
      { reason: 'Training' },
      staff(),
    );
    const blocked = await app.request(
      'PUT',
      `/internal/reservations/${a.jobId}`,
      { scheduledDate: date, timeSlot: '12-2 PM' },
      staff(),
    );
    expect(blocked).toMatchObject({ status: 409, body: { message: NO_LONGER } });
    for (const body of [
      { scheduledDate: '2020-01-06', timeSlot: '8-10 AM' },
      { scheduledDate: '6 Jan', timeSlot: '8-10 AM' },
      { scheduledDate: date, timeSlot: '9-11 AM' },
      { scheduledDate: '2031-10-11', timeSlot: '8-10 AM' },
    ]) {
      const res = await app.request('PUT', `/internal/reservations/${a.jobId}`, body, staff());
      expect({ status: res.status, message: res.body.message }).toEqual({
        status: 400,
        message: 'Invalid date or time slot selected',
      });
    }
    expect(
      (
        await app.request(
          'PUT',
          `/internal/reservations/${randomUUID()}`,
          { scheduledDate: date, timeSlot: '2-4 PM' },
          staff(),
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await app.request('PUT', `/internal/reservations/${a.jobId}`, {
          scheduledDate: date,
          timeSlot: '2-4 PM',
        })
      ).status,
    ).toBe(401);
    expect(await reservation(a.jobId)).toMatchObject({ date, time_slot: '8-10 AM', released_at: null });
  });

  it('concurrent moves of two jobs into one slot: exactly one wins', async () => {
    const date = nextDay();
    const target = nextDay();
    const a = await book(date, '8-10 AM');
    const b = await book(date, '10-12 AM');
    const results = await Promise.all(
      [a, b].map((j) =>
        app.request(
          'PUT',
          `/internal/reservations/${j.jobId}`,
          { scheduledDate: target, timeSlot: '8-10 AM' },
          staff(),
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('with no roster a slot holds one job: moving another job onto a taken slot is 409 (issue 19: capacity under the slot lock replaced the unique index)', async () => {
    const date = nextDay();
    await book(date, '2-4 PM');
    const other = await book(date, '12-2 PM');
    const res = await app.request(
      'PUT',
      `/internal/reservations/${other.jobId}`,
      { scheduledDate: date, timeSlot: '2-4 PM' },
      staff(),
    );
    expect(res.status).toBe(409);
    const { rows } = await app.pg.query(
      `SELECT count(*)::int AS n FROM booking.slot_reservations WHERE date = $1 AND time_slot = '2-4 PM' AND released_at IS NULL`,
      [date],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('DELETE /internal/reservations/{jobId} (cancel / delete)', () => {
  it('frees the slot at once; idempotent 204; a freed reservation can be re-taken by PUT', async () => {
    const date = nextDay();
    const { jobId } = await book(date, '12-2 PM');
    expect((await app.request('DELETE', `/internal/reservations/${jobId}`, undefined, staff())).status).toBe(
      204,
    );
    expect(await free(date)).toContain('12-2 PM');
    expect((await app.request('DELETE', `/internal/reservations/${jobId}`, undefined, staff())).status).toBe(
      204,
    );
    expect(
      (await app.request('DELETE', `/internal/reservations/${randomUUID()}`, undefined, staff())).status,
    ).toBe(204);
    expect((await app.request('DELETE', `/internal/reservations/${jobId}`)).status).toBe(401);
    const again = await app.request(
      'PUT',
      `/internal/reservations/${jobId}`,
      { scheduledDate: date, timeSlot: '12-2 PM' },
      staff(),
    );
    expect(again.status).toBe(200);
    expect(await free(date)).not.toContain('12-2 PM');
  });
});

describe('job events (safety net, idempotent)', () => {
  const deleted = (jobId: string, date: string, slot: string, at = new Date()) => ({
    jobId,
    jobNumber: 'JOB-000001',
    scheduledDate: date,
    timeSlot: slot as '8-10 AM',
    deletedBy: randomUUID(),
    deletedAt: at.toISOString(),
  });

  it('JobDeleted frees the slot; the same event delivered twice has one effect', async () => {
    const date = nextDay();
    const { jobId } = await book(date, '8-10 AM');
    const eventId = randomUUID();
    await app.publish(JobDeleted, deleted(jobId, date, '8-10 AM'), eventId);
    await waitFor(async () => (await reservation(jobId)).released_at !== null);
    expect((await reservation(jobId)).release_reason).toBe('deleted');
    // The job comes back (re-taken through the internal API), then the old event is redelivered: nothing happens.
    expect(
      (
        await app.request(
          'PUT',
          `/internal/reservations/${jobId}`,
          { scheduledDate: date, timeSlot: '8-10 AM' },
          staff(),
        )
      ).status,
    ).toBe(200);
    const before = await handled('booking.releaseOnJobDeleted');
    await app.publish(JobDeleted, deleted(jobId, date, '8-10 AM'), eventId);
    await new Promise((r) => setTimeout(r, 500));
    expect(await handled('booking.releaseOnJobDeleted')).toBe(before);
    expect((await reservation(jobId)).released_at).toBeNull();
  });

  it('JobDeleted after the internal DELETE is a no-op', async () => {
    const date = nextDay();
    const { jobId } = await book(date, '10-12 AM');
    await app.request('DELETE', `/internal/reservations/${jobId}`, undefined, staff());
    const releasedAt = (await reservation(jobId)).released_at;
    const before = await handled('booking.releaseOnJobDeleted');
    await app.publish(JobDeleted, deleted(jobId, date, '10-12 AM'));
    await waitFor(async () => (await handled('booking.releaseOnJobDeleted')) === before + 1);
    expect((await reservation(jobId)).released_at).toEqual(releasedAt);
    expect((await reservation(jobId)).release_reason).toBe('cancelled');
  });

  it('JobStatusChanged to cancelled frees the slot; other transitions do not', async () => {
    const date = nextDay();
    const { jobId } = await book(date, '2-4 PM');
    const change = (from: string, to: string) => ({
      jobId,
      jobNumber: 'JOB-000002',
      from: from as 'new',
      to: to as 'new',
      changedAt: new Date().toISOString(),
      changedBy: null,
      assignedTechnicianId: null,
      serviceType: 'new-tyres' as const,
      scheduledDate: date,
      timeSlot: '2-4 PM' as const,
      customerValue: '487.80',
    });
    const before = await handled('booking.releaseOnJobCancelled');
    await app.publish(JobStatusChanged, change('new', 'in-progress'));
    await waitFor(async () => (await handled('booking.releaseOnJobCancelled')) === before + 1);
    expect((await reservation(jobId)).released_at).toBeNull();
    await app.publish(JobStatusChanged, change('in-progress', 'cancelled'));
    await waitFor(async () => (await reservation(jobId)).released_at !== null);
    expect(await free(date)).toContain('2-4 PM');
  });

  it('JobRescheduled moves a reservation the internal call did not move, and is a no-op when it did', async () => {
    const date = nextDay();
    const target = nextDay();
    const a = await book(date, '8-10 AM');
    const moved = (jobId: string, to: string) => ({
      jobId,
      jobNumber: 'JOB-000003',
      from: { scheduledDate: date, timeSlot: '8-10 AM' as const },
      to: { scheduledDate: target, timeSlot: to as '8-10 AM' },
      assignedTechnicianId: null,
      rescheduledBy: randomUUID(),
      rescheduledAt: new Date(Date.now() + 1000).toISOString(),
    });
    await app.publish(JobRescheduled, moved(a.jobId, '12-2 PM'));
    await waitFor(async () => (await reservation(a.jobId)).date === target);
    expect(await reservation(a.jobId)).toMatchObject({
      date: target,
      time_slot: '12-2 PM',
      released_at: null,
    });

    const b = await book(date, '8-10 AM');
    await app.request(
      'PUT',
      `/internal/reservations/${b.jobId}`,
      { scheduledDate: target, timeSlot: '2-4 PM' },
      staff(),
    );
    const before = await handled('booking.moveOnJobRescheduled');
    await app.publish(JobRescheduled, moved(b.jobId, '2-4 PM'));
    await waitFor(async () => (await handled('booking.moveOnJobRescheduled')) === before + 1);
    expect(await reservation(b.jobId)).toMatchObject({ date: target, time_slot: '2-4 PM' });
  });

  it('a malformed event is dead-lettered, not retried forever', async () => {
    const dlq = `${app.prefix}booking.dlq`;
    const before = (await app.admin.messageCount(dlq)) ?? 0;
    await app.publishRaw('{"this is": "not an event"', 'payment.succeeded.v1');
    await app.publishRaw(
      {
        id: randomUUID(),
        type: 'job.deleted.v1',
        version: 1,
        occurredAt: new Date().toISOString(),
        source: 'test',
        correlationId: 'c-1',
        data: { jobId: 'nope' },
      },
      'job.deleted.v1',
    );
    await waitFor(async () => ((await app.admin.messageCount(dlq)) ?? 0) >= before + 2, {
      timeoutMs: 10_000,
    });
    const [message] = await app.admin.peek(dlq, 1);
    expect(message?.properties.headers).toBeDefined();
  });
});
