import { randomUUID } from 'node:crypto';
import {
  BookingCreated,
  createEvent,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
} from '@tyres/events';
import { waitFor, waitForExpect } from '@tyres/testkit';
import { bookingCreated, outbox, seedJob, startTestBilling, type TestBilling } from './helpers';

jest.setTimeout(120_000);

describe('events: the job projection, idempotent consumers, dead letters, outbox', () => {
  let svc: TestBilling;
  const snapshot = (jobId: string) => svc.ctx.db.jobSnapshot.findUnique({ where: { jobId } });
  const inboxRows = (eventId: string) => svc.ctx.db.inboxEvent.count({ where: { eventId } });

  beforeAll(async () => {
    svc = await startTestBilling('billing-events');
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('BookingCreated builds the job snapshot (customer, vehicle, service, tyres, value, number)', async () => {
    const data = await seedJob(svc, {
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      customerValue: '775.80',
    });
    const job = await snapshot(data.jobId);
    expect(job).toMatchObject({
      jobNumber: data.jobNumber,
      status: 'new',
      serviceType: 'new-tyres',
      tyreSize: '205/55R16',
      tyreQuantity: 4,
      tyreBrand: 'Michelin',
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      customerName: 'Jane Citizen',
      customerEmail: 'jane@example.com',
      vehicleMake: 'Toyota',
      vehicleRegistration: '1ABC234',
      assignedTechnicianId: null,
    });
    expect(job?.customerValue.toFixed(2)).toBe('775.80');
  });

  it('a re-emitted BookingCreated (another event) refreshes the booking details; an edited job keeps its edited fields', async () => {
    const data = await seedJob(svc, { customerValue: '300.00', notes: 'gate code 1234' });
    // Booking sends it again with a corrected name (a replay): the existing snapshot is updated.
    const renamed = { ...data, customer: { ...data.customer, name: 'Janet Citizen' } };
    await svc.publish(BookingCreated, renamed);
    await waitForExpect(async () => expect((await snapshot(data.jobId))?.customerName).toBe('Janet Citizen'));
    // Staff edited the price and notes (issue 19): a later replay with the booking's old ones leaves them.
    await svc.ctx.db.jobSnapshot.update({
      where: { jobId: data.jobId },
      data: { editVersion: 1, customerValue: '450.00', notes: 'edited by staff' },
    });
    await svc.publish(BookingCreated, { ...renamed, customer: { ...renamed.customer, name: 'Janet C' } });
    await waitForExpect(async () => expect((await snapshot(data.jobId))?.customerName).toBe('Janet C'));
    const job = await snapshot(data.jobId);
    expect(job?.customerValue.toFixed(2)).toBe('450.00');
    expect(job?.notes).toBe('edited by staff');
  });

  it('a duplicate delivery has one effect (inbox)', async () => {
    const data = bookingCreated();
    const event = createEvent(BookingCreated, data, { source: 'booking', correlationId: randomUUID() });
    await svc.publisher.publish(event);
    await svc.publisher.publish(event);
    await waitFor(() => snapshot(data.jobId));
    await waitForExpect(async () => expect(await inboxRows(event.id)).toBe(1));

    // The same JobStatusChanged(paid) twice: the invoice is settled once, one CustomerInvoiceUpdated.
    const token = svc.token(svc.admin);
    const gen = await svc
      .http()
      .post(`/api/dashboard/customer-invoices/generate/${data.jobId}`)
      .set('x-identity-token', token);
    const invoiceId = gen.body.customerInvoice.id;
    const paid = createEvent(
      JobStatusChanged,
      {
        jobId: data.jobId,
        jobNumber: data.jobNumber,
        from: 'invoiced',
        to: 'paid',
        changedAt: new Date().toISOString(),
        changedBy: null,
        assignedTechnicianId: null,
        serviceType: 'new-tyres',
        scheduledDate: data.scheduledDate,
        timeSlot: data.timeSlot,
        customerValue: data.customerValue,
      },
      { source: 'jobs', correlationId: randomUUID() },
    );
    await svc.publisher.publish(paid);
    await svc.publisher.publish(paid);
    await waitForExpect(async () => expect(await inboxRows(paid.id)).toBe(1), { timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 300));
    const updates = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
      (e) => e.data.invoiceId === invoiceId,
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      causationId: paid.id,
      correlationId: paid.correlationId,
      data: { status: 'paid' },
    });
  });

  it('a malformed event is dead-lettered', async () => {
    const dlq = `${svc.prefix}billing.dlq`;
    const exchange = `${svc.prefix}tyres.events`;
    await svc.rabbit.publish(exchange, 'booking.created.v1', 'this is not json');
    const invalid = {
      ...createEvent(BookingCreated, bookingCreated(), { source: 'booking', correlationId: randomUUID() }),
    };
    (invalid.data as { customerValue: string }).customerValue = '12.3456';
    await svc.rabbit.publish(exchange, 'booking.created.v1', JSON.stringify(invalid));
    await waitForExpect(async () => expect(await svc.rabbit.messageCount(dlq)).toBe(2), {
      timeoutMs: 10_000,
    });
    const dead = await svc.rabbit.drain(dlq);
    expect(dead.map((m) => m.properties.headers?.['x-dead-letter-reason']).sort()).toEqual([
      'invalid-data',
      'malformed-json',
    ]);
    expect(await snapshot((invalid.data as { jobId: string }).jobId)).toBeNull();
  });

  it('assignment, completion, reschedule and deletion update the snapshot; older events never overwrite newer ones', async () => {
    const data = await seedJob(svc);
    const tech = randomUUID();
    const later = new Date(Date.now() + 60_000).toISOString();
    const earlier = new Date(Date.now() - 60_000).toISOString();
    const assigned = (technicianId: string | null, assignedAt: string) =>
      svc.publish(JobAssigned, {
        jobId: data.jobId,
        jobNumber: data.jobNumber,
        technicianId,
        previousTechnicianId: null,
        scheduledDate: data.scheduledDate,
        timeSlot: data.timeSlot,
        assignedBy: null,
        assignedAt,
      });
    const laterId = await assigned(tech, later);
    await waitForExpect(async () => expect(await inboxRows(laterId)).toBe(1));
    const earlierId = await assigned(null, earlier);
    await waitForExpect(async () => expect(await inboxRows(earlierId)).toBe(1));
    expect((await snapshot(data.jobId))?.assignedTechnicianId).toBe(tech);

    await svc.publish(JobCompleted, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      serviceType: 'new-tyres',
      scheduledDate: data.scheduledDate,
      timeSlot: data.timeSlot,
      suburb: data.suburb,
      customerValue: data.customerValue,
      purchaseCost: null,
      assignedTechnicianId: tech,
      customer: data.customer,
      completedAt: new Date(Date.now() + 120_000).toISOString(),
    });
    await waitFor(async () => (await snapshot(data.jobId))?.status === 'completed');

    await svc.publish(JobRescheduled, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      from: { scheduledDate: data.scheduledDate, timeSlot: data.timeSlot },
      to: { scheduledDate: '2026-12-01', timeSlot: '2-4 PM' },
      assignedTechnicianId: tech,
      rescheduledBy: null,
      rescheduledAt: new Date(Date.now() + 180_000).toISOString(),
    });
    await waitFor(async () => (await snapshot(data.jobId))?.timeSlot === '2-4 PM');
    expect((await snapshot(data.jobId))?.scheduledDate.toISOString().slice(0, 10)).toBe('2026-12-01');

    await svc.publish(JobDeleted, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      scheduledDate: '2026-12-01',
      timeSlot: '2-4 PM',
      deletedBy: null,
      deletedAt: new Date().toISOString(),
    });
    await waitFor(async () => (await snapshot(data.jobId))?.deletedAt);
    const gen = await svc
      .http()
      .post(`/api/dashboard/customer-invoices/generate/${data.jobId}`)
      .set('x-identity-token', svc.token(svc.admin));
    expect(gen.status).toBe(404);
  });

  it('a job event that arrives before BookingCreated is retried until the job is known', async () => {
    const data = bookingCreated();
    const tech = randomUUID();
    const early = await svc.publish(JobAssigned, {
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      technicianId: tech,
      previousTechnicianId: null,
      scheduledDate: data.scheduledDate,
      timeSlot: data.timeSlot,
      assignedBy: null,
      assignedAt: new Date().toISOString(),
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await inboxRows(early)).toBe(0);
    await svc.publish(BookingCreated, data);
    // First retry after 1 s.
    await waitFor(async () => (await snapshot(data.jobId))?.assignedTechnicianId === tech, {
      timeoutMs: 15_000,
    });
  });

  it('writes the outbox row in the same transaction as each change, and the relay publishes it', async () => {
    const data = await seedJob(svc);
    const before = await svc.ctx.db.outboxEvent.count();
    const gen = await svc
      .http()
      .post(`/api/dashboard/customer-invoices/generate/${data.jobId}`)
      .set('x-identity-token', svc.token(svc.admin));
    expect(gen.status).toBe(201);
    const rows = await svc.ctx.db.outboxEvent.findMany({ orderBy: { createdAt: 'asc' }, skip: before });
    expect(rows.map((r) => r.type)).toEqual(['customer-invoice.issued.v2']);
    await waitFor(
      async () => (await svc.ctx.db.outboxEvent.findUnique({ where: { id: rows[0]!.id } }))?.publishedAt,
      { timeoutMs: 10_000 },
    );

    // A failed change writes no event: a refused second generate leaves the outbox as it was.
    const again = await svc
      .http()
      .post(`/api/dashboard/customer-invoices/generate/${data.jobId}`)
      .set('x-identity-token', svc.token(svc.admin));
    expect(again.status).toBe(409);
    expect(await svc.ctx.db.outboxEvent.count()).toBe(before + 1);
  });
});
