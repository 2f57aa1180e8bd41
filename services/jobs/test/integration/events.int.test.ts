import { randomUUID } from 'node:crypto';
import {
  BookingCreated,
  BookingPhotoAdded,
  createEvent,
  CustomerInvoiceDeleted,
  CustomerInvoiceIssuedV1,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV1,
  CustomerInvoiceUpdatedV2,
  PaymentSucceeded,
  PurchaseInvoiceDeleted,
  PurchaseInvoiceRecorded,
  PurchaseInvoiceUpdated,
  UserCreated,
  UserStatusChanged,
  type AnyContract,
  type EventEnvelope,
  type EventInput,
} from '@tyres/events';
import { sleep, waitFor } from '@tyres/testkit';
import { ADMIN, bookingData, startHarness, type Harness } from './helpers';

jest.setTimeout(60_000);

/** The consumers: idempotent through the inbox, and bad messages end in the dead-letter queue. */
describe('jobs: event consumers', () => {
  let h: Harness;
  let admin: string;
  let dlq: string;

  beforeAll(async () => {
    h = await startHarness('jobs-events');
    admin = h.token(ADMIN);
    dlq = h.runtime.bus.topology.deadLetterQueue;
  });
  afterAll(async () => {
    await h?.close();
  });

  const get = (id: string) => h.http.get(`/api/dashboard/jobs/${id}`).set('x-identity-token', admin);
  const inboxCount = async (eventId: string) =>
    Number(
      (
        await h.sql<{ n: string }>('SELECT count(*) AS n FROM jobs.inbox_events WHERE event_id = $1', [
          eventId,
        ])
      )[0]?.n,
    );
  /** Waits until the service has consumed everything published so far (a marker event is handled last-ish). */
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

  it('a redelivered BookingCreated changes nothing', async () => {
    const data = bookingData();
    h.booking.reserve(data.jobId, data.scheduledDate, data.timeSlot);
    const event = createEvent(BookingCreated, data, { source: 'booking', correlationId: 'c-redeliver' });
    await h.publishEnvelope(event);
    await waitFor(async () => (await get(data.jobId)).status === 200, { timeoutMs: 10_000 });
    // Someone changes the job, then the same event arrives again (and once more under a new id, as booking's
    // outbox relay may re-send after a crash).
    expect(
      (
        await h.http
          .patch(`/api/dashboard/jobs/${data.jobId}/status`)
          .set('x-identity-token', admin)
          .send({ status: 'in-progress' })
      ).status,
    ).toBe(200);
    await h.publishEnvelope(event);
    await h.publishEnvelope(event);
    await h.publish(BookingCreated, data);
    await settle();
    expect(await h.sql('SELECT id FROM jobs.jobs WHERE id = $1', [data.jobId])).toHaveLength(1);
    expect((await get(data.jobId)).body.status).toBe('in-progress');
    expect(await inboxCount(event.id)).toBe(1);
    expect(await h.admin.messageCount(dlq)).toBe(0);
  });

  it('a redelivered CustomerInvoiceIssued moves the job once and emits one JobStatusChanged', async () => {
    const job = await h.createJob();
    for (const status of ['in-progress', 'completed']) {
      await h.http
        .patch(`/api/dashboard/jobs/${job.jobId}/status`)
        .set('x-identity-token', admin)
        .send({ status });
    }
    const now = new Date().toISOString();
    const event = createEvent(
      CustomerInvoiceIssuedV1,
      {
        invoiceId: randomUUID(),
        invoiceNumber: 'INV-9',
        jobId: job.jobId,
        jobNumber: job.jobNumber,
        customerName: 'Alex Driver',
        status: 'sent',
        invoiceDate: now.slice(0, 10),
        dueDate: null,
        subtotalAmount: '100.00',
        gstAmount: '10.00',
        totalAmount: '110.00',
        items: [],
        sentAt: now,
        paidAt: null,
        updatedAt: now,
        issuedAt: now,
      },
      { source: 'billing', correlationId: 'c-invoice' },
    );
    await h.publishEnvelope(event);
    await h.publishEnvelope(event);
    await waitFor(async () => (await get(job.jobId)).body.status === 'invoiced', { timeoutMs: 10_000 });
    await settle();
    const changes = await h.sql<{ to: string; causationId: string; correlationId: string }>(
      `SELECT payload->'data'->>'to' AS "to", payload->>'causationId' AS "causationId", payload->>'correlationId' AS "correlationId"
       FROM jobs.outbox_events WHERE type = 'job.status-changed.v1' AND payload->'data'->>'jobId' = $1 AND payload->'data'->>'to' = 'invoiced'`,
      [job.jobId],
    );
    // The emitted event is caused by the invoice event and carries its correlation id.
    expect(changes).toEqual([{ to: 'invoiced', causationId: event.id, correlationId: 'c-invoice' }]);
  });

  it('redelivered photo and payment events are stored once', async () => {
    const job = await h.createJob();
    const photo = createEvent(
      BookingPhotoAdded,
      {
        jobId: job.jobId,
        photoId: randomUUID(),
        type: 'tyre-condition',
        filename: 'a.jpg',
        originalName: 'a.jpg',
        mimeType: 'image/jpeg',
        size: 1,
        uploadedAt: new Date().toISOString(),
      },
      { source: 'booking', correlationId: 'c-photo' },
    );
    const payment = createEvent(
      PaymentSucceeded,
      {
        paymentId: randomUUID(),
        paymentIntentId: 'pi_x',
        quoteId: null,
        jobId: job.jobId,
        originalAmount: '10.00',
        surchargeAmount: '0.17',
        amount: '10.17',
        currency: 'AUD',
        mode: 'test',
        succeededAt: new Date().toISOString(),
      },
      { source: 'billing', correlationId: 'c-pay' },
    );
    for (let i = 0; i < 3; i++) {
      await h.publishEnvelope(photo);
      await h.publishEnvelope(payment);
    }
    await settle();
    expect((await get(job.jobId)).body.photos).toHaveLength(1);
    expect((await get(job.jobId)).body.paymentStatus).toBe('paid');
    expect(await h.sql('SELECT 1 FROM jobs.job_payments WHERE job_id = $1', [job.jobId])).toHaveLength(1);
  });

  it('events that arrive before their job are applied when it appears', async () => {
    const data = bookingData();
    await h.publish(BookingPhotoAdded, {
      jobId: data.jobId,
      photoId: randomUUID(),
      type: 'tyre-condition',
      filename: 'early.jpg',
      originalName: 'early.jpg',
      mimeType: 'image/png',
      size: 10,
      uploadedAt: new Date().toISOString(),
    });
    await h.publish(PaymentSucceeded, {
      paymentId: randomUUID(),
      paymentIntentId: 'pi_early',
      quoteId: null,
      jobId: data.jobId,
      originalAmount: '675.80',
      surchargeAmount: '11.49',
      amount: '687.29',
      currency: 'AUD',
      mode: 'test',
      succeededAt: new Date().toISOString(),
    });
    await settle();
    await h.publish(BookingCreated, data);
    await waitFor(async () => (await get(data.jobId)).status === 200, { timeoutMs: 10_000 });
    expect((await get(data.jobId)).body).toMatchObject({
      paymentStatus: 'paid',
      photos: [{ originalName: 'early.jpg' }],
    });
  });

  it('a payment handled at the same moment as its booking is never lost', async () => {
    const bookings = Array.from({ length: 10 }, () => bookingData());
    await Promise.all(
      bookings.flatMap((data) => [
        h.publish(PaymentSucceeded, {
          paymentId: randomUUID(),
          paymentIntentId: `pi_${data.jobId.slice(0, 8)}`,
          quoteId: null,
          jobId: data.jobId,
          originalAmount: '675.80',
          surchargeAmount: '11.49',
          amount: '687.29',
          currency: 'AUD',
          mode: 'test',
          succeededAt: new Date().toISOString(),
        }),
        h.publish(BookingCreated, data),
      ]),
    );
    await settle();
    const ids = bookings.map((b) => b.jobId);
    await waitFor(
      async () => (await h.sql('SELECT 1 FROM jobs.jobs WHERE id = ANY($1::uuid[])', [ids])).length === 10,
      { timeoutMs: 10_000 },
    );
    const statuses = await h.sql<{ payment_status: string }>(
      'SELECT payment_status FROM jobs.jobs WHERE id = ANY($1::uuid[])',
      [ids],
    );
    expect(statuses.map((r) => r.payment_status)).toEqual(Array(10).fill('paid'));
  });

  it('the technician directory ignores stale user events, in any arrival order', async () => {
    const userId = randomUUID();
    const created = new Date(Date.now() - 60_000).toISOString();
    await h.publish(UserCreated, {
      userId,
      username: 'dana',
      email: 'dana@example.com',
      role: 'technician',
      isActive: true,
      createdAt: created,
    });
    await h.publish(UserStatusChanged, {
      userId,
      username: 'dana',
      role: 'technician',
      isActive: false,
      changedAt: new Date().toISOString(),
    });
    await settle();
    // An older event delivered late does not reactivate her.
    await h.publish(UserStatusChanged, {
      userId,
      username: 'dana',
      role: 'technician',
      isActive: true,
      changedAt: created,
    });
    await settle();
    const list = await h.http.get('/api/dashboard/technicians').set('x-identity-token', admin);
    expect(list.body.map((t: { id: string }) => t.id)).not.toContain(userId);
    const [row] = await h.sql<{ is_active: boolean; email: string }>(
      'SELECT is_active, email FROM jobs.staff_directory WHERE user_id = $1',
      [userId],
    );
    expect(row).toEqual({ is_active: false, email: 'dana@example.com' });
  });

  it('every consumed event type, redelivered after later changes, changes nothing', async () => {
    const at = (ms: number) => new Date(Date.now() - 600_000 + ms).toISOString();
    const envelopes: EventEnvelope[] = [];
    /** Publishes a new event, keeps its envelope for the redelivery, and waits until the inbox has it. */
    const deliver = async <C extends AnyContract>(contract: C, data: EventInput<C>) => {
      const event = createEvent(contract, data, {
        source: 'test',
        correlationId: `c-all-${envelopes.length}`,
      });
      envelopes.push(event);
      await h.publishEnvelope(event);
      await waitFor(async () => (await inboxCount(event.id)) === 1, {
        timeoutMs: 10_000,
        message: event.type,
      });
    };
    const data = bookingData({ createdAt: at(0) });
    h.booking.reserve(data.jobId, data.scheduledDate, data.timeSlot);
    await deliver(BookingCreated, data);
    const techId = randomUUID();
    await deliver(UserCreated, {
      userId: techId,
      username: 'rhea',
      email: 'rhea@example.com',
      role: 'technician',
      isActive: true,
      createdAt: at(1),
    });
    const assigned = await h.http
      .patch(`/api/dashboard/jobs/${data.jobId}/assign`)
      .set('x-identity-token', admin)
      .send({ technicianId: techId });
    expect(assigned.status).toBe(200);
    const photoId = randomUUID();
    await deliver(BookingPhotoAdded, {
      jobId: data.jobId,
      photoId,
      type: 'tyre-condition',
      filename: `${photoId}.jpg`,
      originalName: 'tread.jpg',
      mimeType: 'image/jpeg',
      size: 2048,
      uploadedAt: at(2),
    });
    await deliver(PaymentSucceeded, {
      paymentId: randomUUID(),
      paymentIntentId: 'pi_all',
      quoteId: null,
      jobId: data.jobId,
      originalAmount: '675.80',
      surchargeAmount: '11.49',
      amount: '687.29',
      currency: 'AUD',
      mode: 'test',
      succeededAt: at(3),
    });
    const purchase = {
      purchaseInvoiceId: randomUUID(),
      jobId: data.jobId,
      invoiceNumber: 'SUP-ALL',
      supplierName: 'Tyre Wholesale',
      invoiceDate: at(4).slice(0, 10),
      dueDate: null,
      subtotal: '100.00',
      gstAmount: '10.00',
      totalAmount: '110.00',
      category: 'cost-of-goods-sold' as const,
      isPaid: false,
      paidAt: null,
      updatedAt: at(4),
    };
    await deliver(PurchaseInvoiceRecorded, { ...purchase, recordedAt: at(4) });
    await deliver(PurchaseInvoiceUpdated, {
      ...purchase,
      subtotal: '200.00',
      gstAmount: '20.00',
      totalAmount: '220.00',
      updatedAt: at(5),
      changedFields: ['totalAmount'],
    });
    for (const status of ['in-progress', 'completed']) {
      const res = await h.http
        .patch(`/api/dashboard/jobs/${data.jobId}/status`)
        .set('x-identity-token', admin)
        .send({ status });
      expect(res.status).toBe(200);
    }
    const invoice = {
      invoiceId: randomUUID(),
      invoiceNumber: 'INV-ALL',
      jobId: data.jobId,
      jobNumber: data.jobNumber,
      customerName: 'Alex Driver',
      status: 'sent' as const,
      invoiceDate: at(6).slice(0, 10),
      dueDate: null,
      subtotalAmount: '614.36',
      gstAmount: '61.44',
      totalAmount: '675.80',
      items: [],
      sentAt: at(6),
      paidAt: null,
      updatedAt: at(6),
    };
    await deliver(CustomerInvoiceIssuedV1, { ...invoice, issuedAt: at(6) });
    await deliver(CustomerInvoiceUpdatedV1, {
      ...invoice,
      status: 'paid',
      paidAt: at(7),
      updatedAt: at(7),
      changedFields: ['status'],
    });
    // A second invoice (extra work) in billing's current version.
    const extra = {
      ...invoice,
      invoiceId: randomUUID(),
      invoiceNumber: 'INV-ALL-2',
      amountType: 'inclusive' as const,
      paymentIntentId: null,
      updatedAt: at(7),
    };
    await deliver(CustomerInvoiceIssuedV2, { ...extra, issuedAt: at(7) });
    await deliver(CustomerInvoiceUpdatedV2, {
      ...extra,
      sentAt: at(8),
      updatedAt: at(8),
      changedFields: ['sentAt'],
    });
    for (const gone of [invoice, extra])
      await deliver(CustomerInvoiceDeleted, {
        invoiceId: gone.invoiceId,
        invoiceNumber: gone.invoiceNumber,
        jobId: data.jobId,
        deletedBy: ADMIN.id,
        deletedAt: at(8),
      });
    await deliver(PurchaseInvoiceDeleted, {
      purchaseInvoiceId: purchase.purchaseInvoiceId,
      jobId: data.jobId,
      invoiceNumber: 'SUP-ALL',
      deletedBy: ADMIN.id,
      deletedAt: at(9),
    });
    await deliver(UserStatusChanged, {
      userId: techId,
      username: 'rhea',
      role: 'technician',
      isActive: false,
      changedAt: at(10),
    });
    expect(new Set(envelopes.map((e) => e.type)).size).toBe(13); // every type the service consumes

    const state = async () => ({
      job: (await get(data.jobId)).body,
      rows: await h.sql(
        `SELECT to_jsonb(j) - 'doc' - 'doc_dashboard' AS job, j.doc::text AS doc,
           (SELECT jsonb_agg(to_jsonb(p)) FROM jobs.job_photos p WHERE p.job_id = j.id) AS photos,
           (SELECT jsonb_agg(to_jsonb(x)) FROM jobs.job_payments x WHERE x.job_id = j.id) AS payments,
           (SELECT jsonb_agg(to_jsonb(c)) FROM jobs.job_customer_invoices c WHERE c.job_id = j.id) AS invoices,
           (SELECT jsonb_agg(to_jsonb(pi)) FROM jobs.job_purchase_invoices pi WHERE pi.job_id = j.id) AS purchases,
           (SELECT to_jsonb(s) FROM jobs.staff_directory s WHERE s.user_id = $2) AS technician,
           (SELECT count(*)::int FROM jobs.outbox_events) AS outbox,
           (SELECT count(*)::int FROM jobs.inbox_events) AS inbox
         FROM jobs.jobs j WHERE j.id = $1`,
        [data.jobId, techId],
      ),
    });
    const before = await state();
    expect(before.job).toMatchObject({
      status: 'paid',
      paymentStatus: 'paid',
      purchaseCost: null,
      hasCustomerInvoice: false,
      photos: [{ id: photoId }],
    });

    // Every envelope again (same ids, as RabbitMQ redelivers), newest first and then oldest first.
    for (const event of [...envelopes].reverse()) await h.publishEnvelope(event);
    for (const event of envelopes) await h.publishEnvelope(event);
    await settle();
    const after = await state();
    // The settle marker adds one inbox row; nothing else moved.
    expect(after.rows[0]).toEqual({
      ...before.rows[0],
      inbox: (before.rows[0] as { inbox: number }).inbox + 1,
    });
    expect(after.job).toEqual(before.job);
    for (const event of envelopes) expect(await inboxCount(event.id)).toBe(1);
    expect(await h.admin.messageCount(dlq)).toBe(0);
  });

  describe('poison messages go to the dead-letter queue', () => {
    const deadLetters = async (n: number) => {
      await waitFor(async () => ((await h.admin.messageCount(dlq)) ?? 0) >= n, {
        timeoutMs: 10_000,
        message: 'dead letters',
      });
      return h.admin.drain(dlq);
    };

    it('malformed JSON, invalid data and unknown versions', async () => {
      const exchange = h.runtime.bus.topology.exchange;
      const valid = createEvent(BookingCreated, bookingData(), { source: 'booking', correlationId: 'c-bad' });
      const invalid: EventEnvelope = {
        ...valid,
        id: randomUUID(),
        data: { ...(valid.data as object), customerValue: 675.8 },
      };
      const futureVersion = { ...valid, id: randomUUID(), type: 'booking.created.v9', version: 9 };
      await h.admin.publish(exchange, 'booking.created.v1', '{ this is not json');
      await h.admin.publish(exchange, 'booking.created.v1', JSON.stringify(invalid));
      await h.admin.publish(exchange, 'booking.created.v1', JSON.stringify(futureVersion));
      const letters = await deadLetters(3);
      expect(letters.map((m) => m.properties.headers?.['x-dead-letter-reason']).sort()).toEqual(
        ['invalid-data', 'malformed-json', 'unknown-version'].sort(),
      );
      expect(
        await h.sql('SELECT 1 FROM jobs.jobs WHERE id = $1', [(valid.data as { jobId: string }).jobId]),
      ).toHaveLength(0);
    });

    it('a burst of bookings is adopted in batches: each job once, a redelivery in the same batch skipped, a clash dead-lettered alone', async () => {
      const first = await h.createJob();
      const bookings = Array.from({ length: 30 }, () => bookingData());
      const events = bookings.map((data) =>
        createEvent(BookingCreated, data, { source: 'booking', correlationId: 'c-burst' }),
      );
      const clash = bookingData({ jobNumber: first.jobNumber });
      // All at once (one batch, or a few), the 5th twice and a clash in the middle.
      await Promise.all([
        ...events.slice(0, 15).map((e) => h.publishEnvelope(e)),
        h.publishEnvelope(events[4] as EventEnvelope),
        h.publish(BookingCreated, clash),
        ...events.slice(15).map((e) => h.publishEnvelope(e)),
      ]);
      const letters = await deadLetters(1);
      expect(letters).toHaveLength(1);
      expect(letters[0]?.properties.headers?.['x-dead-letter-reason']).toBe('non-retryable');
      await waitFor(
        async () =>
          (await h.sql('SELECT id FROM jobs.jobs WHERE id = ANY($1::uuid[])', [bookings.map((b) => b.jobId)]))
            .length === bookings.length,
        { timeoutMs: 10_000, message: 'every booking adopted' },
      );
      await settle();
      const inbox = await h.sql<{ n: string }>(
        `SELECT count(*) AS n FROM jobs.inbox_events WHERE handler = 'jobs.onBookingCreated' AND event_id = ANY($1::uuid[])`,
        [events.map((e) => e.id)],
      );
      expect(Number(inbox[0]?.n)).toBe(events.length);
      expect(await h.sql('SELECT 1 FROM jobs.jobs WHERE id = $1', [clash.jobId])).toHaveLength(0);
      expect(await h.admin.messageCount(dlq)).toBe(0);
    });

    it('a booking whose job number belongs to another job is not retried', async () => {
      const first = await h.createJob();
      const clash = bookingData({ jobNumber: first.jobNumber });
      await h.publish(BookingCreated, clash);
      const letters = await deadLetters(1);
      expect(letters[0]?.properties.headers?.['x-dead-letter-reason']).toBe('non-retryable');
      expect(String(letters[0]?.properties.headers?.['x-last-error'])).toContain(first.jobNumber);
      expect(await h.sql('SELECT 1 FROM jobs.jobs WHERE id = $1', [clash.jobId])).toHaveLength(0);
    });
  });

  it("/metrics shows an operator how far behind jobs' pipeline is (the runtime adds it to every service)", async () => {
    const text = (await h.http.get('/metrics')).text;
    for (const name of [
      'outbox_backlog_events',
      'outbox_published_events_total',
      'event_consumer_queue_depth',
    ])
      expect([name, text.includes(`\n${name}`)]).toEqual([name, true]);
    expect(text).toMatch(/outbox_backlog_events\{service="jobs"\} \d+/);
  });

  it('the stored list documents and counts match the jobs (the triggers covered every change above)', async () => {
    expect(await h.runtime.repositories.jobs.staleDocuments()).toBe(0);
    expect(await h.runtime.repositories.jobs.wrongCounts()).toBe(0);
  });
});
