import { randomUUID } from 'node:crypto';
import {
  BookingCancelledV1,
  BookingCreated,
  BookingRescheduledV1,
  BookingUpdatedV1,
  createEvent,
  UserCreated,
  type EventEnvelope,
  type EventInput,
} from '@tyres/events';
import { weekdayName } from '@tyres/kernel';
import { sleep, waitFor } from '@tyres/testkit';
import { ADMIN, bookingData, nextFreeSlot, startHarness, type Harness } from './helpers';

jest.setTimeout(60_000);

const meta = { source: 'booking', correlationId: `c-${randomUUID()}` };
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

/**
 * Booking's changes after booking (issue 18): BookingRescheduled, BookingCancelled and BookingUpdated move, cancel
 * and correct the job, once each even when redelivered, in any order with each other and with BookingCreated.
 */
describe('jobs: booking changes (reschedule, cancel, corrections)', () => {
  let h: Harness;
  let admin: string;

  beforeAll(async () => {
    h = await startHarness('jobs-booking-changes');
    admin = h.token(ADMIN);
  });
  afterAll(async () => {
    if (h) {
      // Every change kept the list documents and counts right.
      expect(await h.runtime.repositories.jobs.staleDocuments()).toBe(0);
      expect(await h.runtime.repositories.jobs.wrongCounts()).toBe(0);
      expect(await h.admin.messageCount(h.runtime.bus.topology.deadLetterQueue)).toBe(0);
    }
    await h?.close();
  });

  const get = async (id: string) => {
    const res = await h.http.get(`/api/dashboard/jobs/${id}`).set('x-identity-token', admin);
    expect(res.status).toBe(200);
    return res.body;
  };
  const inboxCount = async (eventId: string) =>
    (await h.sql('SELECT 1 FROM jobs.inbox_events WHERE event_id = $1', [eventId])).length;
  const handled = (event: EventEnvelope) =>
    waitFor(async () => (await inboxCount(event.id)) > 0, { timeoutMs: 10_000, message: event.type });
  const outcome = async (eventId: string) =>
    (
      await h.sql<{ outcome: string }>('SELECT outcome FROM jobs.job_booking_changes WHERE event_id = $1', [
        eventId,
      ])
    )[0]?.outcome;
  /** Waits until everything published so far is consumed (a marker handled after it). */
  const settle = async () => {
    const marker = await h.publish(UserCreated, {
      userId: randomUUID(),
      username: `marker-${randomUUID().slice(0, 6)}`,
      email: null,
      role: 'admin',
      isActive: true,
      createdAt: new Date().toISOString(),
    });
    await waitFor(async () => (await inboxCount(marker.id)) === 1, { timeoutMs: 10_000 });
    await sleep(200);
  };
  const emitted = (jobId: string, type: string) =>
    h.sql<{ payload: { data: Record<string, unknown>; causationId?: string; correlationId: string } }>(
      `SELECT payload FROM jobs.outbox_events WHERE type = $1 AND payload->'data'->>'jobId' = $2 ORDER BY created_at`,
      [type, jobId],
    );

  const rescheduled = (
    job: { jobId: string; jobNumber: string; scheduledDate: string; timeSlot: string },
    to: { scheduledDate: string; timeSlot: string },
    at = new Date().toISOString(),
  ) =>
    createEvent(
      BookingRescheduledV1,
      {
        jobId: job.jobId,
        jobNumber: job.jobNumber,
        from: { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot },
        to,
        rescheduledBy: 'customer',
        rescheduledAt: at,
      } as EventInput<typeof BookingRescheduledV1>,
      meta,
    );
  const cancelled = (
    job: { jobId: string; jobNumber: string; scheduledDate: string; timeSlot: string },
    extra: Partial<EventInput<typeof BookingCancelledV1>> = {},
  ) =>
    createEvent(
      BookingCancelledV1,
      {
        jobId: job.jobId,
        jobNumber: job.jobNumber,
        slot: { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot },
        cancelledAt: new Date().toISOString(),
        cancelledBy: 'customer',
        reason: 'Car sold',
        band: 'full_refund',
        refundPercent: 100,
        refund: '0.00',
        fee: '0.00',
        feeWaived: false,
        paymentMethod: 'onsite',
        ...extra,
      } as EventInput<typeof BookingCancelledV1>,
      meta,
    );
  const updated = (
    job: { jobId: string; jobNumber: string },
    fields: Partial<EventInput<typeof BookingUpdatedV1>>,
    at = new Date().toISOString(),
  ) =>
    createEvent(
      BookingUpdatedV1,
      { jobId: job.jobId, jobNumber: job.jobNumber, updatedBy: 'customer', updatedAt: at, ...fields },
      meta,
    );

  it('BookingRescheduled moves the job once (redelivered), emits one JobRescheduled, and an older one is stale', async () => {
    const job = await h.createJob();
    const to = nextFreeSlot();
    const move = rescheduled(job, to, minutesAgo(1));
    await h.publishEnvelope(move);
    await handled(move);
    await h.publishEnvelope(move);
    // An older move delivered late (the customer moved it twice; retries reordered them) changes nothing.
    const older = rescheduled(job, nextFreeSlot(), minutesAgo(5));
    await h.publishEnvelope(older);
    await handled(older);
    await settle();

    const body = await get(job.jobId);
    expect(body).toMatchObject({
      scheduledDate: to.scheduledDate,
      timeSlot: to.timeSlot,
      scheduledDay: weekdayName(to.scheduledDate),
      status: 'new',
    });
    expect(await outcome(move.id)).toBe('applied');
    expect(await outcome(older.id)).toBe('stale');
    expect(await inboxCount(move.id)).toBe(1);
    const events = await emitted(job.jobId, 'job.rescheduled.v1');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload.data).toMatchObject({
      from: { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot },
      to,
      rescheduledBy: null,
      status: 'new',
    });
    expect(events[0]!.payload.causationId).toBe(move.id);
    // The schedule's by-day filter sees it on its new day.
    const day = await h.http
      .get('/api/dashboard/jobs-with-details')
      .query({ pageSize: 100 })
      .set('x-identity-token', admin);
    expect(day.body.find((j: { id: string }) => j.id === job.jobId)).toMatchObject({ timeSlot: to.timeSlot });
  });

  it('a staff reschedule after the customer’s move wins over it when the customer event is delivered late', async () => {
    const job = await h.createJob();
    const customerTo = nextFreeSlot();
    const late = rescheduled(job, customerTo, minutesAgo(2));
    const staffTo = nextFreeSlot();
    const res = await h.http
      .put(`/api/dashboard/jobs/${job.jobId}/reschedule`)
      .set('x-identity-token', admin)
      .send(staffTo);
    expect(res.status).toBe(200);
    await h.publishEnvelope(late);
    await handled(late);
    expect(await get(job.jobId)).toMatchObject(staffTo);
    expect(await outcome(late.id)).toBe('stale');
  });

  it('BookingCancelled cancels a new job once with booking’s time and reason, and counts follow', async () => {
    const job = await h.createJob();
    const before = await h.http
      .get('/api/dashboard/jobs')
      .query({ status: 'cancelled', pageSize: 1 })
      .set('x-identity-token', admin);
    const cancelledBefore = Number(before.headers['x-total-count']);
    const at = minutesAgo(1);
    const cancel = cancelled(job, { cancelledAt: at, reason: 'Found another tyre shop' });
    await h.publishEnvelope(cancel);
    await handled(cancel);
    await h.publishEnvelope(cancel);
    await settle();

    const body = await get(job.jobId);
    expect(body).toMatchObject({ status: 'cancelled', scheduleStatus: 'cancelled', cancelledAt: at });
    const [row] = await h.sql<{ cancellation_reason: string; cancelled_by: string | null }>(
      'SELECT cancellation_reason, cancelled_by FROM jobs.jobs WHERE id = $1',
      [job.jobId],
    );
    expect(row).toEqual({ cancellation_reason: 'Found another tyre shop', cancelled_by: null });
    const changes = await emitted(job.jobId, 'job.status-changed.v1');
    expect(changes).toHaveLength(1);
    expect(changes[0]!.payload.data).toMatchObject({
      from: 'new',
      to: 'cancelled',
      changedAt: at,
      changedBy: null,
    });
    expect(changes[0]!.payload.correlationId).toBe(cancel.correlationId);
    const after = await h.http
      .get('/api/dashboard/jobs')
      .query({ status: 'cancelled', pageSize: 1 })
      .set('x-identity-token', admin);
    expect(Number(after.headers['x-total-count'])).toBe(cancelledBefore + 1);
  });

  it('a staff cancel at booking records the staff member; an in-progress job is cancelled too', async () => {
    const job = await h.createJob();
    const start = await h.http
      .patch(`/api/dashboard/jobs/${job.jobId}/status`)
      .set('x-identity-token', admin)
      .send({ status: 'in-progress' });
    expect(start.status).toBe(200);
    const cancel = cancelled(job, {
      cancelledBy: 'staff',
      cancelledByUserId: ADMIN.id,
      reason: 'Customer phoned',
      band: 'no_refund',
      refundPercent: 0,
      fee: '675.80',
      feeWaived: true,
    } as Partial<EventInput<typeof BookingCancelledV1>>);
    await h.publishEnvelope(cancel);
    await handled(cancel);
    const body = await get(job.jobId);
    expect(body.status).toBe('cancelled');
    expect(new Date(body.cancelledAt).getTime()).toBeGreaterThan(
      new Date(start.body.inProgressAt).getTime() - 1,
    );
    const [row] = await h.sql<{ cancelled_by: string }>('SELECT cancelled_by FROM jobs.jobs WHERE id = $1', [
      job.jobId,
    ]);
    expect(row!.cancelled_by).toBe(ADMIN.id);
    const changes = await emitted(job.jobId, 'job.status-changed.v1');
    expect(changes.map((c) => [c.payload.data.from, c.payload.data.to])).toEqual([
      ['new', 'in-progress'],
      ['in-progress', 'cancelled'],
    ]);
  });

  it('a cancellation of a completed job does not un-complete it: recorded as not applied', async () => {
    const job = await h.createJob();
    for (const status of ['in-progress', 'completed'])
      expect(
        (
          await h.http
            .patch(`/api/dashboard/jobs/${job.jobId}/status`)
            .set('x-identity-token', admin)
            .send({ status })
        ).status,
      ).toBe(200);
    const cancel = cancelled(job);
    await h.publishEnvelope(cancel);
    await handled(cancel);
    expect((await get(job.jobId)).status).toBe('completed');
    expect(await outcome(cancel.id)).toBe('not_applied');
    expect((await emitted(job.jobId, 'job.status-changed.v1')).map((c) => c.payload.data.to)).toEqual([
      'in-progress',
      'completed',
    ]);
  });

  it('BookingUpdated corrects phone, notes and vehicle; an older correction of the same field is stale', async () => {
    const job = await h.createJob();
    const vehicle = { make: 'Mazda', model: 'CX-5', year: 2021, color: 'Red', registration: '1XYZ999' };
    const first = updated(job, { phone: '0499888777', vehicle }, minutesAgo(1));
    await h.publishEnvelope(first);
    await handled(first);
    await h.publishEnvelope(first);
    // Older: phone (stale: a newer phone is applied) and notes (applied: nothing newer).
    const older = updated(job, { phone: '0400000000', notes: 'Gate code 1234' }, minutesAgo(3));
    await h.publishEnvelope(older);
    await handled(older);
    await settle();
    const body = await get(job.jobId);
    expect(body.customer.phone).toBe('0499888777');
    expect(body.notes).toBe('Gate code 1234');
    expect(body.vehicle).toEqual({ make: 'Mazda', model: 'CX-5', year: 2021, registration: '1XYZ999' });
    const [row] = await h.sql<{ vehicle_color: string }>(
      'SELECT vehicle_color FROM jobs.jobs WHERE id = $1',
      [job.jobId],
    );
    expect(row!.vehicle_color).toBe('Red');
    expect(await outcome(first.id)).toBe('applied');
    expect(await outcome(older.id)).toBe('applied');
    // Clearing the notes.
    const cleared = updated(job, { notes: null });
    await h.publishEnvelope(cleared);
    await handled(cleared);
    expect((await get(job.jobId)).notes).toBeNull();
  });

  it('changes that arrive before BookingCreated wait, then apply in the order they happened: the job is created cancelled', async () => {
    const data = bookingData();
    h.booking.reserve(data.jobId, data.scheduledDate, data.timeSlot);
    const to = nextFreeSlot();
    const move = rescheduled(data, to, minutesAgo(10));
    const correct = updated(data, { phone: '0411222333' }, minutesAgo(8));
    const cancel = cancelled({ ...data, ...to }, { cancelledAt: minutesAgo(5) });
    // Newest first, the worst order.
    for (const event of [cancel, correct, move]) {
      await h.publishEnvelope(event);
      await handled(event);
      expect(await outcome(event.id)).toBe('waiting');
    }
    expect(await h.sql('SELECT 1 FROM jobs.jobs WHERE id = $1', [data.jobId])).toHaveLength(0);
    const created = createEvent(BookingCreated, data, meta);
    await h.publishEnvelope(created);
    await handled(created);
    await h.publishEnvelope(created);
    await h.publishEnvelope(cancel);
    await settle();

    const body = await get(data.jobId);
    expect(body).toMatchObject({
      status: 'cancelled',
      scheduledDate: to.scheduledDate,
      timeSlot: to.timeSlot,
      cancelledAt: cancel.data.cancelledAt,
      customer: { phone: '0411222333' },
    });
    for (const event of [move, correct, cancel]) expect(await outcome(event.id)).toBe('applied');
    expect(await emitted(data.jobId, 'job.rescheduled.v1')).toHaveLength(1);
    const changes = await emitted(data.jobId, 'job.status-changed.v1');
    expect(changes.map((c) => [c.payload.data.from, c.payload.data.to])).toEqual([['new', 'cancelled']]);
    expect(changes[0]!.payload.causationId).toBe(cancel.id);
  });

  it('a reschedule of a cancelled job is recorded and does not move it', async () => {
    const job = await h.createJob();
    const cancel = cancelled(job, { cancelledAt: minutesAgo(2) });
    const move = rescheduled(job, nextFreeSlot(), minutesAgo(1));
    await h.publishEnvelope(move);
    await h.publishEnvelope(cancel);
    await handled(move);
    await handled(cancel);
    const body = await get(job.jobId);
    expect(body.status).toBe('cancelled');
    // Whichever came first: a move applied before the cancel, or a move refused after it; never both lost.
    const moveOutcome = await outcome(move.id);
    if (moveOutcome === 'applied') expect(body.timeSlot).toBe(move.data.to.timeSlot);
    else expect([moveOutcome, body.timeSlot]).toEqual(['not_applied', job.timeSlot]);
  });
});
