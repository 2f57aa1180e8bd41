/**
 * Issue 18, item 5 (privacy, APP 11.2): an admin erases a customer on request. The five services run for real
 * (in-process, one shared exchange, each with its own database), so CustomerErased goes from booking's outbox to
 * every other service's consumer. After the erasure no schema holds the customer's name, email, phone, address,
 * registration or notes; the invoice is still there with its amounts and "Erased customer"; an older event replayed
 * afterwards does not bring anything back. Photo retention: photos are deleted PHOTO_RETENTION_MONTHS after the job
 * was paid, not before.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { BookingCreated, BookingUpdated, JobDeleted, JobStatusChanged, type EventInput } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import type { BookingService } from '../../services/booking/src/service';
import { pdfText } from '../../services/billing/test/pdf-text';
import { call, startMultiService, type MultiServiceStack } from '../support/multi-service';

jest.setTimeout(180_000);

const SERVICES = ['booking', 'jobs', 'billing', 'reporting', 'notify'] as const;
type Service = (typeof SERVICES)[number];
type Stack = MultiServiceStack<Service> & { booking: BookingService };

async function startStack(label: string): Promise<Stack> {
  const stack = await startMultiService({
    label,
    services: SERVICES,
    bookingEnv: { BOOKING_HORIZON_DAYS: '3660', HOLD_SWEEP_INTERVAL_MS: '250', PHOTO_RETENTION_MONTHS: '12' },
    notifyEnv: { CONFIRMATION_LINK_WAIT_MS: '300' },
    // The middle of a Perth day: quiet hours never hold the messages of this suite.
    notifyNow: () => new Date(`${new Date().toISOString().slice(0, 10)}T04:00:00Z`),
  });
  return { ...stack, booking: stack.booking! };
}

/** Every row of every table of a schema, as text, that contains one of `needles` (case-insensitive). */
async function rowsContaining(pg: Pool, schema: string, needles: string[]): Promise<string[]> {
  const { rows: tables } = await pg.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations'`,
    [schema],
  );
  const found: string[] = [];
  for (const { table_name } of tables) {
    const { rows } = await pg.query<{ row: string }>(
      `SELECT t::text AS row FROM "${schema}"."${table_name}" t
        WHERE t::text ILIKE ANY($1::text[])`,
      [needles.map((n) => `%${n}%`)],
    );
    for (const r of rows) found.push(`${schema}.${table_name}: ${r.row.slice(0, 300)}`);
  }
  return found;
}

const SCHEMA: Record<Service, string> = {
  booking: 'booking',
  jobs: 'jobs',
  billing: 'billing',
  reporting: 'reporting',
  notify: 'notify',
};

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('erasure');
});
afterAll(async () => {
  await stack?.stop();
});

let dayCounter = 0;
/** A weekday in 2031 (inside the suite's 10-year horizon, never "today"). */
function nextDate(): string {
  let d = new Date(Date.UTC(2031, 1, 3) + dayCounter * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) {
    dayCounter += 1;
    d = new Date(Date.UTC(2031, 1, 3) + dayCounter * 86_400_000);
  }
  dayCounter += 1;
  return d.toISOString().slice(0, 10);
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 1)]);

async function uploadPhoto(jobId: string) {
  const form = new FormData();
  form.append('photos', new Blob([new Uint8Array(JPEG)], { type: 'image/jpeg' }), 'tyre.jpg');
  const res = await fetch(`${stack.url.booking}/api/bookings/${jobId}/photos`, {
    method: 'POST',
    body: form,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { photos: { id: string }[] };
}

/** A customer with strings found nowhere else, booked on the public form, with a photo. */
async function bookCustomer(tag: string) {
  const person = {
    name: `Zelda Quokkason${tag}`,
    email: `zelda.${tag.toLowerCase()}@example.com`,
    phone: `0413 ${String(Math.floor(Math.random() * 900) + 100)} ${String(Math.floor(Math.random() * 900) + 100)}`,
    registration: `ZQ${tag.slice(0, 4).toUpperCase()}`,
    street: `77 Numbat${tag} Street`,
    notes: `Side gate ${tag} Zelda`,
  };
  const res = await call(stack.url.booking, 'POST', '/api/bookings', {
    customer: { name: person.name, email: person.email, phone: person.phone },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: person.registration },
    job: {
      serviceType: 'new-tyres',
      scheduledDate: nextDate(),
      timeSlot: '10-12 AM',
      address: person.street,
      suburb: 'Mandurah',
      postcode: '6210',
      tyreSize: '205/55R16',
      tyreQuantity: 2,
      notes: person.notes,
      paymentMethod: 'onsite',
    },
  });
  expect(res.status).toBe(201);
  const jobId = res.body.jobId as string;
  const photo = await uploadPhoto(jobId);
  return { jobId, jobNumber: res.body.jobNumber as string, person, photoId: photo.photos[0]!.id };
}

const one = async (s: Service, sql: string, params: unknown[]) =>
  (await stack.pg[s].query(sql, params)).rows[0] as Record<string, unknown> | undefined;

describe('erasing a customer on request', () => {
  it('de-identifies the customer in every service, keeps the invoice, and a replay does not bring them back', async () => {
    const { jobId, jobNumber, person } = await bookCustomer(`Erz${Date.now().toString(36).slice(-4)}`);
    const admin = stack.identity('admin');

    // Every service has the customer.
    await waitFor(() => one('jobs', 'SELECT 1 FROM jobs.jobs WHERE id = $1', [jobId]), {
      message: 'jobs job',
      timeoutMs: 20_000,
    });
    await waitFor(() => one('billing', 'SELECT 1 FROM billing.job_snapshots WHERE job_id = $1', [jobId]), {
      message: 'billing snapshot',
      timeoutMs: 20_000,
    });
    await waitFor(() => one('notify', 'SELECT 1 FROM notify.booking_records WHERE job_id = $1', [jobId]), {
      message: 'notify record',
      timeoutMs: 20_000,
    });
    await waitFor(() => one('jobs', 'SELECT 1 FROM jobs.job_photos WHERE job_id = $1', [jobId]), {
      message: 'jobs photo',
      timeoutMs: 20_000,
    });
    // An invoice, emailed (billing's email log, reporting's GST row with the customer's name).
    const generated = await call(
      stack.url.billing,
      'POST',
      `/api/dashboard/customer-invoices/generate/${jobId}`,
      undefined,
      admin,
    );
    expect(generated.status).toBe(201);
    const invoice = generated.body.customerInvoice as {
      id: string;
      invoiceNumber: string;
      totalAmount: string;
    };
    expect(
      (
        await call(
          stack.url.billing,
          'POST',
          `/api/dashboard/customer-invoices/${invoice.id}/email`,
          {},
          admin,
        )
      ).status,
    ).toBe(200);
    await waitFor(
      () =>
        one(
          'reporting',
          'SELECT 1 FROM reporting.customer_invoice_facts WHERE job_id = $1 AND customer_name = $2',
          [jobId, person.name],
        ),
      { message: 'reporting GST row', timeoutMs: 20_000 },
    );
    const needles = [
      person.name,
      person.email,
      person.phone,
      person.phone.replace(/\D/g, '').slice(1),
      person.registration,
      person.street,
      person.notes,
    ];
    for (const s of SERVICES)
      expect((await rowsContaining(stack.pg[s], SCHEMA[s], needles)).length).toBeGreaterThan(0);

    // Who may erase, and what is asked.
    const path = `/api/dashboard/bookings/${jobId}/erase-customer`;
    const body = { reason: 'Email request 25 Nov 2026, ref PRIV-1', confirm: true };
    const technician = await call(stack.url.booking, 'POST', path, body, stack.identity('technician'));
    expect(technician.status).toBe(403);
    expect((await call(stack.url.booking, 'POST', path, body)).status).toBe(401);
    const unknown = await call(
      stack.url.booking,
      'POST',
      `/api/dashboard/bookings/${randomUUID()}/erase-customer`,
      body,
      admin,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No booking for this job');
    const noReason = await call(stack.url.booking, 'POST', path, { confirm: true }, admin);
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe('Please give the reason or request reference for the erasure');
    const unconfirmed = await call(stack.url.booking, 'POST', path, { reason: 'x' }, admin);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.message).toBe('Please confirm the erasure: it cannot be undone');
    // Nothing was erased by the refused requests.
    expect(
      await one('booking', 'SELECT erased_at FROM booking.customers WHERE name = $1', [person.name]),
    ).toEqual({ erased_at: null });

    const erased = await call(stack.url.booking, 'POST', path, body, admin);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ jobIds: [jobId], alreadyErased: false });
    // Idempotent: the same answer, nothing done twice.
    const again = await call(stack.url.booking, 'POST', path, body, admin);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...erased.body, alreadyErased: true });

    // Every service applied CustomerErased.
    for (const s of ['jobs', 'billing', 'reporting', 'notify'] as const)
      await waitFor(() => one(s, `SELECT 1 FROM ${SCHEMA[s]}.erased_jobs WHERE job_id = $1`, [jobId]), {
        message: `${s} tombstone`,
        timeoutMs: 20_000,
      });
    // Nothing of the customer left anywhere (the GST day blocks follow through reporting's day refresher).
    for (const s of SERVICES)
      await waitFor(
        async () => (await rowsContaining(stack.pg[s], SCHEMA[s], needles)).length === 0 || undefined,
        {
          message: `${s} without personal data: ${(await rowsContaining(stack.pg[s], SCHEMA[s], needles)).join('\n')}`,
          timeoutMs: 15_000,
        },
      ).catch(async (err) => {
        throw new Error(
          `${String(err)}\n${(await rowsContaining(stack.pg[s], SCHEMA[s], needles)).join('\n')}`,
        );
      });

    // The dashboard shows "Erased customer"; the photos are gone.
    const job = await call(stack.url.jobs, 'GET', `/api/dashboard/jobs/${jobId}`, undefined, admin);
    expect(job.status).toBe(200);
    expect(JSON.stringify(job.body)).toContain('Erased customer');
    expect(JSON.stringify(job.body)).not.toContain(person.name);
    expect(
      await one('booking', 'SELECT count(*)::int AS n FROM booking.job_photos WHERE job_id = $1', [jobId]),
    ).toEqual({ n: 0 });

    // The invoice is kept (tax records): number, amounts, GST, with the customer shown as erased.
    const kept = await call(
      stack.url.billing,
      'GET',
      `/api/dashboard/customer-invoices/${invoice.id}`,
      undefined,
      admin,
    );
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      invoiceNumber: invoice.invoiceNumber,
      totalAmount: invoice.totalAmount,
      jobNumber,
      customerName: 'Erased customer',
    });
    expect(Number(kept.body.gstAmount)).toBeGreaterThan(0);
    // Its stored PDF went with the personal data; built again, it shows the erased copy.
    const stale = await call(
      stack.url.billing,
      'GET',
      `/api/dashboard/customer-invoices/${invoice.id}/pdf`,
      undefined,
      admin,
    );
    expect(stale.status).toBe(404);
    const requested = await call(
      stack.url.billing,
      'POST',
      `/api/dashboard/customer-invoices/${invoice.id}/pdf`,
      {},
      admin,
    );
    expect([200, 202]).toContain(requested.status);
    const pdf = await waitFor(
      async () => {
        const res = await call(
          stack.url.billing,
          'GET',
          `/api/dashboard/customer-invoices/${invoice.id}/pdf`,
          undefined,
          admin,
        );
        return res.status === 200 ? res : undefined;
      },
      { message: 'the rebuilt PDF', timeoutMs: 20_000 },
    );
    const text = pdfText(pdf.buffer);
    expect(text).toContain(invoice.invoiceNumber);
    expect(text).toContain('Erased customer');
    expect(text).not.toContain(person.name);
    // The GST report row too.
    expect(
      await one(
        'reporting',
        'SELECT customer_name, total_amount::text FROM reporting.customer_invoice_facts WHERE job_id = $1',
        [jobId],
      ),
    ).toEqual({ customer_name: 'Erased customer', total_amount: invoice.totalAmount });

    // An older event replayed afterwards (redelivery, a replayed queue) does not re-identify the customer.
    const created = await stack.publish(BookingCreated, {
      jobId,
      jobNumber,
      customerId: erased.body.customerId,
      vehicleId: randomUUID(),
      serviceType: 'new-tyres',
      scheduledDate: '2031-02-03',
      timeSlot: '10-12 AM',
      address: person.street,
      suburb: 'Mandurah',
      postcode: '6210',
      tyreSize: '205/55R16',
      tyreQuantity: 2,
      tyreBrand: null,
      notes: person.notes,
      customerValue: invoice.totalAmount,
      paymentMethod: 'onsite',
      paymentStatus: 'pending',
      channel: 'online',
      customer: { name: person.name, email: person.email, phone: person.phone },
      vehicle: {
        make: 'Toyota',
        model: 'Corolla',
        year: 2018,
        color: null,
        registration: person.registration,
      },
      createdAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    const updated = await stack.publish(BookingUpdated, {
      jobId,
      jobNumber,
      phone: person.phone,
      notes: person.notes,
      updatedBy: 'customer',
      updatedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    for (const s of ['jobs', 'billing'] as const)
      await waitFor(() => one(s, `SELECT 1 FROM ${SCHEMA[s]}.inbox_events WHERE event_id = $1`, [created]), {
        message: `${s} handled the replay`,
        timeoutMs: 20_000,
      });
    await waitFor(() => one('reporting', 'SELECT 1 FROM reporting.events WHERE event_id = $1', [created]), {
      message: 'reporting stored the replay',
      timeoutMs: 20_000,
    });
    await waitFor(() => one('jobs', 'SELECT 1 FROM jobs.inbox_events WHERE event_id = $1', [updated]), {
      message: 'jobs handled the update',
      timeoutMs: 20_000,
    });
    // notify keeps no inbox row for these: give its consumer the same time the others needed, then look.
    await new Promise((r) => setTimeout(r, 2000));
    for (const s of SERVICES) expect(await rowsContaining(stack.pg[s], SCHEMA[s], needles)).toEqual([]);
  });
});

describe('photo retention', () => {
  it('deletes a job’s photos PHOTO_RETENTION_MONTHS (12) after it was paid, not before', async () => {
    const { jobId, jobNumber, photoId } = await bookCustomer(`Ret${Date.now().toString(36).slice(-4)}`);
    const admin = stack.identity('admin');
    const photoPath = `/api/dashboard/jobs/${jobId}/photos/${photoId}`;
    await waitFor(() => one('jobs', 'SELECT 1 FROM jobs.job_photos WHERE id = $1', [photoId]), {
      message: 'jobs lists the photo',
      timeoutMs: 20_000,
    });
    expect((await call(stack.url.booking, 'GET', photoPath, undefined, admin)).status).toBe(200);

    const paidAt = stack.clock.now();
    const statusChange = {
      jobId,
      jobNumber,
      from: 'invoiced',
      to: 'paid',
      changedAt: paidAt.toISOString(),
      changedBy: randomUUID(),
      assignedTechnicianId: null,
      serviceType: 'new-tyres',
      scheduledDate: '2031-02-03',
      timeSlot: '10-12 AM',
      customerValue: '300.00',
    } as EventInput<typeof JobStatusChanged>;
    await stack.publish(JobStatusChanged, statusChange);
    await waitFor(
      () => one('booking', 'SELECT paid_at FROM booking.photo_retention WHERE job_id = $1', [jobId]),
      {
        message: 'retention start recorded',
        timeoutMs: 20_000,
      },
    );

    // Eleven months later: kept.
    stack.clock.offsetMs = 335 * 86_400_000;
    await stack.booking.photoRetention.runOnce();
    expect((await call(stack.url.booking, 'GET', photoPath, undefined, admin)).status).toBe(200);

    // A year and a day after payment: deleted, bytes and all.
    stack.clock.offsetMs = 367 * 86_400_000;
    expect(await stack.booking.photoRetention.runOnce()).toBeGreaterThanOrEqual(1);
    expect((await call(stack.url.booking, 'GET', photoPath, undefined, admin)).status).toBe(404);
    expect(
      await one('booking', 'SELECT count(*)::int AS n FROM booking.photo_chunks WHERE photo_id = $1', [
        photoId,
      ]),
    ).toEqual({ n: 0 });
    expect(
      await one(
        'booking',
        'SELECT photos_deleted_at IS NOT NULL AS done FROM booking.photo_retention WHERE job_id = $1',
        [jobId],
      ),
    ).toEqual({ done: true });
    // The job detail stops listing it (BookingPhotosDeleted).
    await waitFor(
      async () =>
        (await one('jobs', 'SELECT 1 FROM jobs.job_photos WHERE id = $1', [photoId])) ? undefined : true,
      { message: 'jobs dropped the photo reference', timeoutMs: 20_000 },
    );
    stack.clock.offsetMs = 0;
  });

  it('photos of a job never paid go the same months after it was cancelled or deleted (docs/decisions.md)', async () => {
    const cancelled = await bookCustomer(`Can${Date.now().toString(36).slice(-4)}`);
    const deleted = await bookCustomer(`Del${Date.now().toString(36).slice(-4)}`);
    const admin = stack.identity('admin');
    const photoPath = (j: { jobId: string; photoId: string }) =>
      `/api/dashboard/jobs/${j.jobId}/photos/${j.photoId}`;
    const endedAt = stack.clock.now().toISOString();
    const slot = { scheduledDate: '2031-02-03', timeSlot: '10-12 AM' } as const;
    await stack.publish(JobStatusChanged, {
      jobId: cancelled.jobId,
      jobNumber: cancelled.jobNumber,
      from: 'new',
      to: 'cancelled',
      changedAt: endedAt,
      changedBy: randomUUID(),
      assignedTechnicianId: null,
      serviceType: 'new-tyres',
      ...slot,
      customerValue: '300.00',
    } as EventInput<typeof JobStatusChanged>);
    await stack.publish(JobDeleted, {
      jobId: deleted.jobId,
      jobNumber: deleted.jobNumber,
      ...slot,
      deletedBy: randomUUID(),
      deletedAt: endedAt,
    } as EventInput<typeof JobDeleted>);
    for (const j of [cancelled, deleted])
      await waitFor(
        () => one('booking', 'SELECT paid_at FROM booking.photo_retention WHERE job_id = $1', [j.jobId]),
        { message: 'retention start recorded for a job never paid', timeoutMs: 20_000 },
      );

    stack.clock.offsetMs = 335 * 86_400_000;
    await stack.booking.photoRetention.runOnce();
    for (const j of [cancelled, deleted])
      expect((await call(stack.url.booking, 'GET', photoPath(j), undefined, admin)).status).toBe(200);

    stack.clock.offsetMs = 367 * 86_400_000;
    expect(await stack.booking.photoRetention.runOnce()).toBeGreaterThanOrEqual(2);
    for (const j of [cancelled, deleted]) {
      expect((await call(stack.url.booking, 'GET', photoPath(j), undefined, admin)).status).toBe(404);
      expect(
        await one('booking', 'SELECT count(*)::int AS n FROM booking.job_photos WHERE job_id = $1', [
          j.jobId,
        ]),
      ).toEqual({ n: 0 });
    }
    stack.clock.offsetMs = 0;
  });
});
