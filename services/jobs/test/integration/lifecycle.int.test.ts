import { randomUUID } from 'node:crypto';
import {
  BookingPhotoAdded,
  CustomerInvoiceIssuedV1,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV1,
  CustomerInvoiceUpdatedV2,
  PaymentSucceeded,
  PurchaseInvoiceRecorded,
  type EventInput,
} from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { JOB_STATUSES, canTransition, type JobStatus } from '../../src/domain/status';
import { ADMIN, startHarness, type Harness } from './helpers';

jest.setTimeout(60_000);

describe('jobs: from booking to paid', () => {
  let h: Harness;
  let adminToken: string;

  beforeAll(async () => {
    h = await startHarness('jobs-lifecycle');
    adminToken = h.token(ADMIN);
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (id: string, token = adminToken) =>
    h.http.get(`/api/dashboard/jobs/${id}`).set('x-identity-token', token);
  const setStatus = (id: string, body: object, token = adminToken) =>
    h.http.patch(`/api/dashboard/jobs/${id}/status`).set('x-identity-token', token).send(body);

  it('a booking becomes a job in the dashboard shape', async () => {
    const booking = await h.createJob({
      serviceType: 'puncture-repair',
      customerValue: '129.80',
      tyreSize: null,
      tyreQuantity: null,
    });
    const photoId = randomUUID();
    await h.publish(BookingPhotoAdded, {
      jobId: booking.jobId,
      photoId,
      type: 'tyre-condition',
      filename: `${photoId}.jpg`,
      originalName: 'left-front.jpg',
      mimeType: 'image/jpeg',
      size: 12345,
      uploadedAt: new Date().toISOString(),
    });
    await waitFor(async () => (await get(booking.jobId)).body.photos?.length === 1, { timeoutMs: 10_000 });

    const res = await get(booking.jobId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: booking.jobId,
      jobNumber: booking.jobNumber,
      status: 'new',
      serviceType: 'puncture-repair',
      tyreSize: null,
      tyreQuantity: null,
      address: '12 Example Street',
      suburb: 'Rockingham',
      postcode: '6168',
      scheduledDate: booking.scheduledDate,
      timeSlot: booking.timeSlot,
      customerValue: '129.80',
      assignedTechnicianId: null,
      createdAt: booking.createdAt,
      inProgressAt: null,
      completedAt: null,
      invoicedAt: null,
      paidAt: null,
      customer: { name: 'Alex Driver', phone: '0412345678', email: 'alex@example.com' },
      vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
      photos: [{ id: photoId, type: 'tyre-condition', originalName: 'left-front.jpg' }],
      paymentStatus: 'pending',
      scheduleStatus: 'pending',
      hasCustomerInvoice: false,
      lineItems: [],
    });

    const list = await h.http.get('/api/dashboard/jobs').set('x-identity-token', adminToken);
    expect(list.status).toBe(200);
    const listed = list.body.find((j: { id: string }) => j.id === booking.jobId);
    // GET /api/dashboard/jobs answers exactly the spec's "Job (dashboard)" fields.
    expect(Object.keys(listed).sort()).toEqual(
      [
        'id',
        'jobNumber',
        'status',
        'serviceType',
        'tyreSize',
        'tyreQuantity',
        'address',
        'suburb',
        'postcode',
        'scheduledDate',
        'timeSlot',
        'customerValue',
        'assignedTechnicianId',
        'createdAt',
        'inProgressAt',
        'completedAt',
        'invoicedAt',
        'paidAt',
        'customer',
        'vehicle',
        'photos',
      ].sort(),
    );
  });

  it('a prepaid booking is paid from the start; PaymentSucceeded marks an onsite one paid', async () => {
    const prepaid = await h.createJob({
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      stripePaymentIntentId: 'pi_123',
    });
    expect((await get(prepaid.jobId)).body.paymentStatus).toBe('paid');

    const onsite = await h.createJob();
    await h.publish(PaymentSucceeded, {
      paymentId: randomUUID(),
      paymentIntentId: 'pi_456',
      quoteId: null,
      jobId: onsite.jobId,
      originalAmount: '675.80',
      surchargeAmount: '11.49',
      amount: '687.29',
      currency: 'AUD',
      mode: 'test',
      succeededAt: new Date().toISOString(),
    });
    await waitFor(async () => (await get(onsite.jobId)).body.paymentStatus === 'paid', { timeoutMs: 10_000 });
    // Payment status is not job status.
    expect((await get(onsite.jobId)).body.status).toBe('new');
  });

  it('walks new → in-progress → completed → invoiced → paid with timestamps and events', async () => {
    const booking = await h.createJob();
    const id = booking.jobId;

    const started = await setStatus(id, { status: 'in-progress' });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('in-progress');
    expect(started.body.inProgressAt).toEqual(expect.any(String));
    expect(started.body.smsRequested).toBe(false);

    const completed = await setStatus(id, { status: 'completed' });
    expect(completed.body).toMatchObject({ status: 'completed', completedAt: expect.any(String) });

    const invoiced = await setStatus(id, { status: 'invoiced' });
    expect(invoiced.body).toMatchObject({ status: 'invoiced', invoicedAt: expect.any(String) });

    const paid = await setStatus(id, { status: 'paid' });
    expect(paid.body).toMatchObject({ status: 'paid', paidAt: expect.any(String), paymentStatus: 'paid' });
    for (const field of ['inProgressAt', 'completedAt', 'invoicedAt', 'paidAt'] as const) {
      expect(Date.parse(paid.body[field])).not.toBeNaN();
    }

    // The outbox row is written with each change, in order.
    // (Rows of one transaction share created_at and sort by type.)
    expect(await h.outboxTypes(id)).toEqual([
      'job.status-changed.v1',
      'job.completed.v1',
      'job.status-changed.v1',
      'job.status-changed.v1',
      'job.status-changed.v1',
    ]);
    const [changed] = await h.sql<{ payload: { data: Record<string, unknown>; correlationId: string } }>(
      `SELECT payload FROM jobs.outbox_events WHERE type = 'job.status-changed.v1' AND payload->'data'->>'jobId' = $1
       ORDER BY created_at LIMIT 1`,
      [id],
    );
    expect(changed?.payload.data).toMatchObject({
      jobId: id,
      from: 'new',
      to: 'in-progress',
      changedBy: ADMIN.id,
      customerValue: '675.80',
      serviceType: 'new-tyres',
      customer: { name: 'Alex Driver', email: 'alex@example.com', phone: '0412345678' },
    });
    const [completedEvent] = await h.sql<{ payload: { data: Record<string, unknown> } }>(
      `SELECT payload FROM jobs.outbox_events WHERE type = 'job.completed.v1' AND payload->'data'->>'jobId' = $1`,
      [id],
    );
    expect(completedEvent?.payload.data).toMatchObject({
      jobId: id,
      customerValue: '675.80',
      purchaseCost: null,
      assignedTechnicianId: null,
    });

    // The relay publishes them (nothing stays pending).
    await waitFor(
      async () =>
        (
          await h.sql(
            `SELECT 1 FROM jobs.outbox_events WHERE published_at IS NULL AND payload->'data'->>'jobId' = $1`,
            [id],
          )
        ).length === 0,
      { timeoutMs: 10_000, message: 'outbox relay' },
    );
  });

  it('refuses every illegal transition with 409 naming the current status', async () => {
    const illegal: [JobStatus, JobStatus][] = [];
    for (const from of JOB_STATUSES) {
      for (const to of JOB_STATUSES) if (!canTransition(from, to)) illegal.push([from, to]);
    }
    // One job per starting status, driven there through legal moves.
    const paths: Record<JobStatus, JobStatus[]> = {
      new: [],
      'in-progress': ['in-progress'],
      completed: ['in-progress', 'completed'],
      invoiced: ['in-progress', 'completed', 'invoiced'],
      paid: ['in-progress', 'completed', 'invoiced', 'paid'],
      cancelled: ['cancelled'],
    };
    const jobs = {} as Record<JobStatus, string>;
    for (const status of JOB_STATUSES) {
      const booking = await h.createJob();
      for (const step of paths[status])
        expect((await setStatus(booking.jobId, { status: step })).status).toBe(200);
      jobs[status] = booking.jobId;
    }
    for (const [from, to] of illegal) {
      const before = await h.outboxTypes(jobs[from]);
      const res = await setStatus(jobs[from], { status: to });
      expect([from, to, res.status]).toEqual([from, to, 409]);
      expect(res.body.message).toContain(`currently ${from}`);
      expect(res.body.details).toEqual({ currentStatus: from });
      expect((await get(jobs[from])).body.status).toBe(from);
      expect(await h.outboxTypes(jobs[from])).toEqual(before);
    }
  });

  it('validates the status body', async () => {
    const booking = await h.createJob();
    const res = await setStatus(booking.jobId, { status: 'done' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Status must be one of');
    expect((await setStatus(booking.jobId, {})).status).toBe(400);
    expect((await setStatus(booking.jobId, { status: 'in_progress' })).body.status).toBe('in-progress');
    expect((await setStatus(randomUUID(), { status: 'in-progress' })).status).toBe(404);
    expect((await setStatus('not-a-uuid', { status: 'in-progress' })).status).toBe(404);
  });

  it('starting work can request the customer SMS with an ETA 30 minutes from now (Perth time)', async () => {
    const booking = await h.createJob({
      customer: { name: 'Sam Lee', email: 'sam@example.com', phone: '0400 111 222' },
    });
    const before = Date.now();
    const res = await setStatus(booking.jobId, { status: 'in-progress', notifyCustomer: true });
    expect(res.status).toBe(200);
    expect(res.body.smsRequested).toBe(true);
    const [sms] = await h.sql<{ payload: { data: Record<string, string> } }>(
      `SELECT payload FROM jobs.outbox_events WHERE type = 'sms.requested.v1' AND payload->'data'->>'jobId' = $1`,
      [booking.jobId],
    );
    const eta = new Intl.DateTimeFormat('en-AU', {
      timeZone: 'Australia/Perth',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
    const candidates = [0, 1].map((m) =>
      eta
        .format(new Date(before + (30 + m) * 60_000))
        .replace(/\s?([ap])m$/i, (_, x: string) => ` ${x.toUpperCase()}M`),
    );
    expect(sms?.payload.data).toMatchObject({
      to: '0400111222',
      purpose: 'technician-en-route',
      jobId: booking.jobId,
      requestedBy: ADMIN.id, // notify tells this staff member's dashboard how the delivery ended
    });
    expect(candidates.some((c) => sms?.payload.data.body?.includes(`Estimated arrival: ${c}`))).toBe(true);

    // Only when starting work.
    const other = await h.createJob();
    expect((await setStatus(other.jobId, { status: 'cancelled', notifyCustomer: true })).status).toBe(400);
  });

  it('CustomerInvoiceIssued (v1) moves a completed job to invoiced; an updated paid invoice makes it paid', async () => {
    const booking = await h.createJob();
    const id = booking.jobId;
    await setStatus(id, { status: 'in-progress' });
    await setStatus(id, { status: 'completed' });
    const invoiceId = randomUUID();
    const issuedAt = new Date().toISOString();
    const snapshot = {
      invoiceId,
      invoiceNumber: `INV-${invoiceId.slice(0, 6)}`,
      jobId: id,
      jobNumber: booking.jobNumber,
      customerName: 'Alex Driver',
      status: 'sent' as const,
      invoiceDate: issuedAt.slice(0, 10),
      dueDate: null,
      subtotalAmount: '614.36',
      gstAmount: '61.44',
      totalAmount: '675.80',
      items: [],
      sentAt: null,
      paidAt: null,
      updatedAt: issuedAt,
    };
    await h.publish(CustomerInvoiceIssuedV1, { ...snapshot, issuedAt });
    await waitFor(async () => (await get(id)).body.status === 'invoiced', { timeoutMs: 10_000 });
    const invoiced = (await get(id)).body;
    expect(invoiced.invoicedAt).toBe(issuedAt);
    expect(invoiced.hasCustomerInvoice).toBe(true);
    const [changed] = await h.sql<{ payload: { data: Record<string, unknown>; causationId: string } }>(
      `SELECT payload FROM jobs.outbox_events WHERE type = 'job.status-changed.v1' AND payload->'data'->>'to' = 'invoiced'
         AND payload->'data'->>'jobId' = $1`,
      [id],
    );
    expect(changed?.payload.data).toMatchObject({ from: 'completed', to: 'invoiced', changedBy: null });

    const paidAt = new Date(Date.now() + 1000).toISOString();
    const update: EventInput<typeof CustomerInvoiceUpdatedV1> = {
      ...snapshot,
      status: 'paid',
      paidAt,
      updatedAt: paidAt,
      changedFields: ['status'],
    };
    await h.publish(CustomerInvoiceUpdatedV1, update);
    await waitFor(async () => (await get(id)).body.status === 'paid', { timeoutMs: 10_000 });
    expect((await get(id)).body).toMatchObject({ paidAt, paymentStatus: 'paid' });

    // An invoice for a job that is not completed yet does not move it.
    const early = await h.createJob();
    const earlyInvoice = randomUUID();
    await h.publish(CustomerInvoiceIssuedV1, {
      ...snapshot,
      invoiceId: earlyInvoice,
      invoiceNumber: 'INV-EARLY',
      jobId: early.jobId,
      issuedAt,
    });
    await waitFor(async () => (await get(early.jobId)).body.hasCustomerInvoice === true, {
      timeoutMs: 10_000,
    });
    expect((await get(early.jobId)).body.status).toBe('new');
  });

  /** A v2 invoice snapshot (billing's current events): tax inclusive unless said otherwise. */
  const v2Invoice = (
    job: { jobId: string; jobNumber: string },
    over: Partial<EventInput<typeof CustomerInvoiceIssuedV2>> = {},
  ) => {
    const at = new Date().toISOString();
    const invoiceId = randomUUID();
    return {
      invoiceId,
      invoiceNumber: `INV-${invoiceId.slice(0, 6)}`,
      jobId: job.jobId,
      jobNumber: job.jobNumber,
      customerName: 'Alex Driver',
      status: 'draft' as const,
      amountType: 'inclusive' as const,
      invoiceDate: at.slice(0, 10),
      dueDate: null,
      subtotalAmount: '118.00',
      gstAmount: '11.80',
      totalAmount: '129.80',
      items: [
        {
          id: randomUUID(),
          description: 'Mobile callout fee',
          category: 'callout' as const,
          quantity: 1,
          unitPrice: '89.80',
          totalPrice: '89.80',
          gstFree: false,
        },
      ],
      paymentIntentId: null,
      sentAt: null,
      paidAt: null,
      updatedAt: at,
      issuedAt: at,
      ...over,
    };
  };
  const statusChanges = (jobId: string) =>
    h.sql<{ from: string; to: string; changedAt: string; changedBy: string | null }>(
      `SELECT payload->'data'->>'from' AS "from", payload->'data'->>'to' AS "to",
              payload->'data'->>'changedAt' AS "changedAt", payload->'data'->>'changedBy' AS "changedBy"
       FROM jobs.outbox_events WHERE type = 'job.status-changed.v1' AND payload->'data'->>'jobId' = $1
       ORDER BY created_at, payload->'data'->>'changedAt'`,
      [jobId],
    );

  it('v2 invoices move a completed job the same way: issued → invoiced, updated paid → paid', async () => {
    const booking = await h.createJob();
    await setStatus(booking.jobId, { status: 'in-progress' });
    await setStatus(booking.jobId, { status: 'completed' });
    const invoice = v2Invoice(booking, { status: 'sent' });
    await h.publish(CustomerInvoiceIssuedV2, invoice);
    await waitFor(async () => (await get(booking.jobId)).body.status === 'invoiced', { timeoutMs: 10_000 });
    expect((await get(booking.jobId)).body.invoicedAt).toBe(invoice.issuedAt);
    const paidAt = new Date(Date.now() + 1000).toISOString();
    const { issuedAt: _issued, ...snapshot } = invoice;
    await h.publish(CustomerInvoiceUpdatedV2, {
      ...snapshot,
      status: 'paid',
      paidAt,
      updatedAt: paidAt,
      changedFields: ['status', 'paidAt'],
    });
    await waitFor(async () => (await get(booking.jobId)).body.status === 'paid', { timeoutMs: 10_000 });
    expect((await get(booking.jobId)).body).toMatchObject({ paidAt, paymentStatus: 'paid' });
  });

  it("a prepaid booking's invoice, paid at booking, does not move the job; completing the work closes it as paid", async () => {
    const bookedAt = new Date(Date.now() - 3_600_000).toISOString();
    const booking = await h.createJob({
      serviceType: 'new-tyres',
      tyreQuantity: 2,
      customerValue: '417.80',
      paymentMethod: 'prepaid',
      paymentStatus: 'paid',
      stripePaymentIntentId: 'test_pi_prepaid_1',
    });
    const id = booking.jobId;
    await h.publish(
      CustomerInvoiceIssuedV2,
      v2Invoice(booking, {
        status: 'paid',
        paidAt: bookedAt,
        updatedAt: bookedAt,
        issuedAt: bookedAt,
        paymentIntentId: 'test_pi_prepaid_1',
        subtotalAmount: '386.27',
        gstAmount: '38.63',
        totalAmount: '424.90',
      }),
    );
    await waitFor(async () => (await get(id)).body.hasCustomerInvoice === true, { timeoutMs: 10_000 });
    // The work has not been done: the job stays new, not invoiced or paid.
    expect((await get(id)).body).toMatchObject({ status: 'new', invoicedAt: null, paidAt: null });
    expect((await setStatus(id, { status: 'in-progress' })).body.status).toBe('in-progress');
    expect((await get(id)).body.status).toBe('in-progress');

    // Complete Work: the invoice already paid takes effect now; no second invoice is needed.
    const done = await setStatus(id, { status: 'completed' });
    expect(done.status).toBe(200);
    const job = (await get(id)).body;
    expect(job).toMatchObject({ status: 'paid', paymentStatus: 'paid' });
    expect(Date.parse(job.invoicedAt)).toBe(Date.parse(job.completedAt) + 1);
    expect(Date.parse(job.paidAt)).toBe(Date.parse(job.completedAt) + 2);
    const changes = await statusChanges(id);
    expect(changes.map((c) => `${c.from}→${c.to}`)).toEqual([
      'new→in-progress',
      'in-progress→completed',
      'completed→invoiced',
      'invoiced→paid',
    ]);
    expect(changes.every((c) => c.changedBy === ADMIN.id)).toBe(true);
  });

  it('an invoice generated before the work was done makes the job invoiced when it is completed', async () => {
    const booking = await h.createJob();
    await h.publish(CustomerInvoiceIssuedV2, v2Invoice(booking, { status: 'draft' }));
    await waitFor(async () => (await get(booking.jobId)).body.hasCustomerInvoice === true, {
      timeoutMs: 10_000,
    });
    await setStatus(booking.jobId, { status: 'in-progress' });
    expect((await get(booking.jobId)).body.status).toBe('in-progress');
    await setStatus(booking.jobId, { status: 'completed' });
    expect((await get(booking.jobId)).body.status).toBe('invoiced');
    // A cancelled invoice does not count.
    const other = await h.createJob();
    await h.publish(CustomerInvoiceIssuedV2, v2Invoice(other, { status: 'cancelled' }));
    await waitFor(async () => (await get(other.jobId)).body.hasCustomerInvoice === true, {
      timeoutMs: 10_000,
    });
    await setStatus(other.jobId, { status: 'in-progress' });
    await setStatus(other.jobId, { status: 'completed' });
    expect((await get(other.jobId)).body.status).toBe('completed');
  });

  it('a paid invoice that arrives after the job was completed closes it, its steps after the completion', async () => {
    const booking = await h.createJob({ paymentMethod: 'prepaid', paymentStatus: 'paid' });
    await setStatus(booking.jobId, { status: 'in-progress' });
    await setStatus(booking.jobId, { status: 'completed' });
    const completedAt = (await get(booking.jobId)).body.completedAt as string;
    const paidAt = new Date(Date.parse(completedAt) - 3_600_000).toISOString();
    await h.publish(
      CustomerInvoiceIssuedV2,
      v2Invoice(booking, { status: 'paid', paidAt, updatedAt: paidAt, issuedAt: paidAt }),
    );
    await waitFor(async () => (await get(booking.jobId)).body.status === 'paid', { timeoutMs: 10_000 });
    const job = (await get(booking.jobId)).body;
    expect(Date.parse(job.invoicedAt)).toBe(Date.parse(completedAt) + 1);
    expect(Date.parse(job.paidAt)).toBe(Date.parse(completedAt) + 2);
    expect((await statusChanges(booking.jobId)).slice(-2)).toMatchObject([
      { from: 'completed', to: 'invoiced', changedBy: null },
      { from: 'invoiced', to: 'paid', changedBy: null },
    ]);
  });

  it('keeps the purchase cost from purchase invoices', async () => {
    const booking = await h.createJob();
    const base = {
      jobId: booking.jobId,
      supplierName: 'Tyre Wholesale',
      invoiceDate: new Date().toISOString().slice(0, 10),
      dueDate: null,
      category: 'cost-of-goods-sold' as const,
      isPaid: false,
      paidAt: null,
    };
    const now = new Date().toISOString();
    await h.publish(PurchaseInvoiceRecorded, {
      ...base,
      purchaseInvoiceId: randomUUID(),
      invoiceNumber: 'SUP-1',
      subtotal: '100.00',
      gstAmount: '10.00',
      totalAmount: '110.00',
      updatedAt: now,
      recordedAt: now,
    });
    await h.publish(PurchaseInvoiceRecorded, {
      ...base,
      purchaseInvoiceId: randomUUID(),
      invoiceNumber: 'SUP-2',
      subtotal: '20.10',
      gstAmount: '2.01',
      totalAmount: '22.11',
      updatedAt: now,
      recordedAt: now,
    });
    await waitFor(async () => (await get(booking.jobId)).body.purchaseCost === '132.11', {
      timeoutMs: 10_000,
    });
  });

  it('the stored list documents and counts match the jobs (the triggers covered every change above)', async () => {
    expect(await h.runtime.repositories.jobs.staleDocuments()).toBe(0);
    expect(await h.runtime.repositories.jobs.wrongCounts()).toBe(0);
  });
});
