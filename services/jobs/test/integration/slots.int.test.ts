import { randomUUID } from 'node:crypto';
import { CustomerInvoiceDeleted, CustomerInvoiceIssuedV1 } from '@tyres/events';
import { sleep, waitFor } from '@tyres/testkit';
import { BOOKING_UNAVAILABLE, SAVE_FAILED_AFTER_BOOKING } from '../../src/domain/messages';
import { ADMIN, nextFreeSlot, perthDatePlus, startHarness, type Harness } from './helpers';

jest.setTimeout(60_000);

/** Reschedule, cancel, delete and assignment: the changes that touch booking's slot reservations or the directory. */
describe('jobs: slots, deletes and assignment', () => {
  let h: Harness;
  let admin: string;

  beforeAll(async () => {
    h = await startHarness('jobs-slots');
    admin = h.token(ADMIN);
  });
  afterEach(() => {
    h.booking.intercept = undefined;
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (id: string, token = admin) =>
    h.http.get(`/api/dashboard/jobs/${id}`).set('x-identity-token', token);
  const reschedule = (id: string, body: object, token = admin) =>
    h.http.put(`/api/dashboard/jobs/${id}/reschedule`).set('x-identity-token', token).send(body);
  const row = async (id: string) =>
    (
      await h.sql<{
        scheduled_date: string;
        time_slot: string;
        status: string;
        deleted_at: Date | null;
        deleted_by: string | null;
      }>(
        `SELECT to_char(scheduled_date, 'YYYY-MM-DD') AS scheduled_date, time_slot, status, deleted_at, deleted_by
         FROM jobs.jobs WHERE id = $1`,
        [id],
      )
    )[0];

  describe('reschedule', () => {
    it('moves the reservation at booking and the job, and emits JobRescheduled', async () => {
      const job = await h.createJob();
      const to = nextFreeSlot();
      const res = await reschedule(job.jobId, to).set('x-request-id', 'req-reschedule-1');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: job.jobId,
        scheduledDate: to.scheduledDate,
        timeSlot: to.timeSlot,
      });
      expect(h.booking.slotOf(job.jobId)).toEqual(to);
      expect(h.booking.holderOf(job.scheduledDate, job.timeSlot)).toBeUndefined();
      // Booking got the caller's identity and request id.
      const call = h.booking.calls.filter((c) => c.jobId === job.jobId).at(-1);
      expect(call).toMatchObject({
        method: 'PUT',
        identity: 'admin',
        requestId: 'req-reschedule-1',
        body: to,
      });
      expect(await h.outboxTypes(job.jobId)).toEqual(['job.rescheduled.v1']);
      const [event] = await h.sql<{ payload: { data: Record<string, unknown>; correlationId: string } }>(
        `SELECT payload FROM jobs.outbox_events WHERE type = 'job.rescheduled.v1' AND payload->'data'->>'jobId' = $1`,
        [job.jobId],
      );
      expect(event?.payload.correlationId).toBe('req-reschedule-1');
      expect(event?.payload.data).toMatchObject({
        from: { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot },
        to,
        rescheduledBy: ADMIN.id,
      });
    });

    it('validates: both fields, real dates, known slots, nothing in the past', async () => {
      const job = await h.createJob();
      const cases: [object, string][] = [
        [{}, 'Please select both date and time slot'],
        [{ scheduledDate: perthDatePlus(5) }, 'Please select both date and time slot'],
        [{ timeSlot: '8-10 AM' }, 'Please select both date and time slot'],
        [{ scheduledDate: '', timeSlot: '8-10 AM' }, 'Please select both date and time slot'],
        [{ scheduledDate: '2026-02-30', timeSlot: '8-10 AM' }, 'Invalid date or time slot selected'],
        [{ scheduledDate: perthDatePlus(5), timeSlot: '4-6 PM' }, 'Invalid time slot'],
        [{ scheduledDate: perthDatePlus(-1), timeSlot: '8-10 AM' }, 'Cannot reschedule to a past date'],
      ];
      for (const [body, message] of cases) {
        const res = await reschedule(job.jobId, body);
        expect([body, res.status, res.body.message]).toEqual([body, 400, message]);
      }
      expect(h.booking.calls.filter((c) => c.jobId === job.jobId)).toHaveLength(0);
    });

    it("answers booking's 409 when the slot is taken or blocked, and changes nothing", async () => {
      const a = await h.createJob();
      const b = await h.createJob();
      const res = await reschedule(a.jobId, { scheduledDate: b.scheduledDate, timeSlot: b.timeSlot });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        'This time slot is no longer available. Please select a different time slot.',
      );
      const blocked = nextFreeSlot();
      h.booking.block(blocked.scheduledDate, blocked.timeSlot);
      expect((await reschedule(a.jobId, blocked)).status).toBe(409);
      expect(await row(a.jobId)).toMatchObject({ scheduled_date: a.scheduledDate, time_slot: a.timeSlot });
      expect(h.booking.slotOf(a.jobId)).toEqual({ scheduledDate: a.scheduledDate, timeSlot: a.timeSlot });
      expect(await h.outboxTypes(a.jobId)).toEqual([]);
    });

    it('race: two reschedules into one free slot, one wins', async () => {
      const a = await h.createJob();
      const b = await h.createJob();
      const free = nextFreeSlot();
      // Both requests reach booking before either is decided.
      h.booking.intercept = async () => {
        await sleep(50);
      };
      const [ra, rb] = await Promise.all([reschedule(a.jobId, free), reschedule(b.jobId, free)]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const winner = ra.status === 200 ? a : b;
      const loser = ra.status === 200 ? b : a;
      expect(h.booking.holderOf(free.scheduledDate, free.timeSlot)).toBe(winner.jobId);
      const inSlot = await h.sql(
        `SELECT id FROM jobs.jobs WHERE scheduled_date = $1 AND time_slot = $2 AND deleted_at IS NULL AND status <> 'cancelled'`,
        [free.scheduledDate, free.timeSlot],
      );
      expect(inSlot).toEqual([{ id: winner.jobId }]);
      expect(await row(loser.jobId)).toMatchObject({
        scheduled_date: loser.scheduledDate,
        time_slot: loser.timeSlot,
      });
      expect(h.booking.slotOf(loser.jobId)).toEqual({
        scheduledDate: loser.scheduledDate,
        timeSlot: loser.timeSlot,
      });
      expect(await h.outboxTypes(winner.jobId)).toEqual(['job.rescheduled.v1']);
      expect(await h.outboxTypes(loser.jobId)).toEqual([]);
    });

    it('two reschedules of one job run one after the other', async () => {
      const job = await h.createJob();
      const s1 = nextFreeSlot();
      const s2 = nextFreeSlot();
      h.booking.intercept = async () => {
        await sleep(30);
      };
      const [r1, r2] = await Promise.all([reschedule(job.jobId, s1), reschedule(job.jobId, s2)]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      const stored = await row(job.jobId);
      // Whichever ran last, booking and the job agree.
      expect(h.booking.slotOf(job.jobId)).toEqual({
        scheduledDate: stored?.scheduled_date,
        timeSlot: stored?.time_slot,
      });
    });

    it('booking unreachable: 503 with a clear message, nothing changed', async () => {
      const job = await h.createJob();
      await h.booking.pause();
      try {
        const res = await reschedule(job.jobId, nextFreeSlot());
        expect(res.status).toBe(503);
        expect(res.body.message).toBe(BOOKING_UNAVAILABLE);
        const del = await h.http.delete(`/api/dashboard/jobs/${job.jobId}`).set('x-identity-token', admin);
        expect(del.status).toBe(503);
        const cancel = await h.http
          .patch(`/api/dashboard/jobs/${job.jobId}/status`)
          .set('x-identity-token', admin)
          .send({ status: 'cancelled' });
        expect(cancel.status).toBe(503);
      } finally {
        await h.booking.resume();
      }
      expect(await row(job.jobId)).toMatchObject({
        scheduled_date: job.scheduledDate,
        time_slot: job.timeSlot,
        status: 'new',
        deleted_at: null,
      });
      expect(h.booking.slotOf(job.jobId)).toEqual({
        scheduledDate: job.scheduledDate,
        timeSlot: job.timeSlot,
      });
      expect(await h.outboxTypes(job.jobId)).toEqual([]);
    });

    it('booking times out after applying the move: the previous reservation is put back, 503', async () => {
      const job = await h.createJob();
      const to = nextFreeSlot();
      let first = true;
      h.booking.intercept = () => {
        if (!first) return;
        first = false;
        return { kind: 'after', run: () => sleep(h.config.BOOKING_TIMEOUT_MS + 500) };
      };
      const res = await reschedule(job.jobId, to);
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(BOOKING_UNAVAILABLE);
      await waitFor(() => h.booking.slotOf(job.jobId)?.timeSlot === job.timeSlot, { timeoutMs: 5000 });
      expect(h.booking.slotOf(job.jobId)).toEqual({
        scheduledDate: job.scheduledDate,
        timeSlot: job.timeSlot,
      });
      expect(h.booking.holderOf(to.scheduledDate, to.timeSlot)).toBeUndefined();
      expect(await row(job.jobId)).toMatchObject({
        scheduled_date: job.scheduledDate,
        time_slot: job.timeSlot,
      });
      expect(await h.outboxTypes(job.jobId)).toEqual([]);
    });

    it('booking applied the move but our write failed: booking is put back, 503, nothing changed', async () => {
      const job = await h.createJob();
      const to = nextFreeSlot();
      let first = true;
      h.booking.intercept = () => {
        if (!first) return;
        first = false;
        // The database connection holding the job's transaction dies while booking answers.
        return {
          kind: 'after',
          run: async () => {
            // That transaction's last statement was the outbox insert; it now waits for booking's answer.
            const killed = await h.sql(
              `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
               WHERE datname = current_database() AND pid <> pg_backend_pid()
                 AND state = 'idle in transaction' AND query LIKE 'INSERT INTO "jobs"."outbox_events"%'`,
            );
            expect(killed).toHaveLength(1);
          },
        };
      };
      const res = await reschedule(job.jobId, to);
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(SAVE_FAILED_AFTER_BOOKING);
      expect(h.booking.slotOf(job.jobId)).toEqual({
        scheduledDate: job.scheduledDate,
        timeSlot: job.timeSlot,
      });
      expect(await row(job.jobId)).toMatchObject({
        scheduled_date: job.scheduledDate,
        time_slot: job.timeSlot,
      });
      expect(await h.outboxTypes(job.jobId)).toEqual([]);
      // The service recovers: the next reschedule works.
      expect((await reschedule(job.jobId, to)).status).toBe(200);
    });

    it('only new and in-progress jobs can be rescheduled; the same slot is a no-op', async () => {
      const job = await h.createJob();
      const same = await reschedule(job.jobId, { scheduledDate: job.scheduledDate, timeSlot: job.timeSlot });
      expect(same.status).toBe(200);
      expect(h.booking.calls.filter((c) => c.jobId === job.jobId)).toHaveLength(0);
      for (const status of ['in-progress', 'completed']) {
        await h.http
          .patch(`/api/dashboard/jobs/${job.jobId}/status`)
          .set('x-identity-token', admin)
          .send({ status });
      }
      const res = await reschedule(job.jobId, nextFreeSlot());
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(`Job ${job.jobNumber} is completed and can no longer be rescheduled.`);
    });
  });

  describe('cancel', () => {
    it('frees the slot at booking and keeps the job as cancelled', async () => {
      const job = await h.createJob();
      const res = await h.http
        .patch(`/api/dashboard/jobs/${job.jobId}/status`)
        .set('x-identity-token', admin)
        .send({ status: 'cancelled' });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('cancelled');
      expect(res.body.scheduleStatus).toBe('cancelled');
      expect(res.body.cancelledAt).toEqual(expect.any(String));
      expect(h.booking.slotOf(job.jobId)).toBeUndefined();
      expect(h.booking.holderOf(job.scheduledDate, job.timeSlot)).toBeUndefined();
      const [event] = await h.sql<{ payload: { data: Record<string, unknown> } }>(
        `SELECT payload FROM jobs.outbox_events WHERE payload->'data'->>'jobId' = $1`,
        [job.jobId],
      );
      expect(event?.payload.data).toMatchObject({ from: 'new', to: 'cancelled', changedBy: ADMIN.id });
      // Cancelled is final.
      const again = await h.http
        .patch(`/api/dashboard/jobs/${job.jobId}/status`)
        .set('x-identity-token', admin)
        .send({ status: 'new' });
      expect(again.status).toBe(409);
    });
  });

  describe('delete', () => {
    it('soft-deletes with who and when, frees the slot, leaves every list', async () => {
      const job = await h.createJob();
      const res = await h.http.delete(`/api/dashboard/jobs/${job.jobId}`).set('x-identity-token', admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: `Job ${job.jobNumber} deleted`,
        id: job.jobId,
        jobNumber: job.jobNumber,
      });
      // Free as soon as the call returns.
      expect(h.booking.holderOf(job.scheduledDate, job.timeSlot)).toBeUndefined();
      expect((await get(job.jobId)).status).toBe(404);
      for (const path of [
        '/api/dashboard/jobs?pageSize=100',
        '/api/dashboard/jobs-with-details?pageSize=100',
      ]) {
        const list = await h.http.get(path).set('x-identity-token', admin);
        expect(list.body.map((j: { id: string }) => j.id)).not.toContain(job.jobId);
      }
      expect(await row(job.jobId)).toMatchObject({
        deleted_by: ADMIN.id,
        deleted_at: expect.any(Date),
        status: 'new',
      });
      expect(await h.outboxTypes(job.jobId)).toEqual(['job.deleted.v1']);
      expect(
        (await h.http.delete(`/api/dashboard/jobs/${job.jobId}`).set('x-identity-token', admin)).status,
      ).toBe(404);
    });

    it('is refused with 409 while the job has a customer invoice', async () => {
      const job = await h.createJob();
      const invoiceId = randomUUID();
      const now = new Date().toISOString();
      const snapshot = {
        invoiceId,
        invoiceNumber: 'INV-0042',
        jobId: job.jobId,
        jobNumber: job.jobNumber,
        customerName: 'Alex Driver',
        status: 'draft' as const,
        invoiceDate: now.slice(0, 10),
        dueDate: null,
        subtotalAmount: '100.00',
        gstAmount: '10.00',
        totalAmount: '110.00',
        items: [],
        sentAt: null,
        paidAt: null,
        updatedAt: now,
      };
      await h.publish(CustomerInvoiceIssuedV1, { ...snapshot, issuedAt: now });
      await waitFor(async () => (await get(job.jobId)).body.hasCustomerInvoice, { timeoutMs: 10_000 });
      const res = await h.http.delete(`/api/dashboard/jobs/${job.jobId}`).set('x-identity-token', admin);
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        `Job ${job.jobNumber} has a customer invoice (INV-0042) and cannot be deleted. Delete the invoice first.`,
      );
      expect(h.booking.slotOf(job.jobId)).toEqual({
        scheduledDate: job.scheduledDate,
        timeSlot: job.timeSlot,
      });
      expect(await row(job.jobId)).toMatchObject({ deleted_at: null });

      await h.publish(CustomerInvoiceDeleted, {
        invoiceId,
        invoiceNumber: 'INV-0042',
        jobId: job.jobId,
        deletedBy: null,
        deletedAt: new Date().toISOString(),
      });
      await waitFor(async () => (await get(job.jobId)).body.hasCustomerInvoice === false, {
        timeoutMs: 10_000,
      });
      expect(
        (await h.http.delete(`/api/dashboard/jobs/${job.jobId}`).set('x-identity-token', admin)).status,
      ).toBe(200);
    });

    it('deleting a cancelled job does not need booking', async () => {
      const job = await h.createJob();
      await h.http
        .patch(`/api/dashboard/jobs/${job.jobId}/status`)
        .set('x-identity-token', admin)
        .send({ status: 'cancelled' });
      await h.booking.pause();
      try {
        expect(
          (await h.http.delete(`/api/dashboard/jobs/${job.jobId}`).set('x-identity-token', admin)).status,
        ).toBe(200);
      } finally {
        await h.booking.resume();
      }
    });
  });

  describe('assignment', () => {
    it('admins assign active technicians only, and JobAssigned carries the facts billing needs', async () => {
      const tech = await h.createTechnician('tina');
      const inactive = await h.createTechnician('ivan', false);
      const job = await h.createJob();
      const assign = (technicianId: unknown) =>
        h.http
          .patch(`/api/dashboard/jobs/${job.jobId}/assign`)
          .set('x-identity-token', admin)
          .send({ technicianId });

      const ok = await assign(tech.id);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        assignedTechnicianId: tech.id,
        assignedTechnician: { id: tech.id, username: 'tina' },
        scheduleStatus: 'confirmed',
      });
      const [event] = await h.sql<{ payload: { data: Record<string, unknown> } }>(
        `SELECT payload FROM jobs.outbox_events WHERE type = 'job.assigned.v1' AND payload->'data'->>'jobId' = $1`,
        [job.jobId],
      );
      expect(event?.payload.data).toMatchObject({
        technicianId: tech.id,
        previousTechnicianId: null,
        assignedBy: ADMIN.id,
        status: 'new',
        serviceType: 'new-tyres',
        customerValue: '675.80',
        customer: { name: 'Alex Driver', email: 'alex@example.com', phone: '0412345678' },
      });

      for (const bad of [inactive.id, randomUUID(), 'nobody', ADMIN.id]) {
        const res = await assign(bad);
        expect([bad, res.status, res.body.message]).toEqual([
          bad,
          400,
          'Jobs can only be assigned to an active technician.',
        ]);
      }
      expect((await get(job.jobId)).body.assignedTechnicianId).toBe(tech.id);

      // Re-assigning the same technician changes nothing; null unassigns.
      await assign(tech.id);
      expect((await h.outboxTypes(job.jobId)).filter((t) => t === 'job.assigned.v1')).toHaveLength(1);
      const cleared = await assign(null);
      expect(cleared.body).toMatchObject({
        assignedTechnicianId: null,
        assignedTechnician: null,
        scheduleStatus: 'pending',
      });
      expect((await h.outboxTypes(job.jobId)).filter((t) => t === 'job.assigned.v1')).toHaveLength(2);
    });

    it('lists active technicians', async () => {
      const res = await h.http.get('/api/dashboard/technicians').set('x-identity-token', admin);
      expect(res.status).toBe(200);
      const names = res.body.map((t: { username: string }) => t.username);
      expect(names).toContain('tina');
      expect(names).not.toContain('ivan');
      expect(res.body[0]).toEqual({
        id: expect.any(String),
        username: expect.any(String),
        email: expect.any(String),
        role: 'technician',
        isActive: true,
      });
    });
  });

  it('the stored list documents and counts match the jobs (the triggers covered every change above)', async () => {
    expect(await h.runtime.repositories.jobs.staleDocuments()).toBe(0);
    expect(await h.runtime.repositories.jobs.wrongCounts()).toBe(0);
  });
});
