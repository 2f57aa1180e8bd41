/**
 * Issue 19, item 6: an admin edits a job after booking (price, address, vehicle, notes, tyre details) with a reason.
 * Jobs, billing and reporting run for real (in-process, one shared exchange, each with its own database): the edit
 * goes from jobs' outbox as JobUpdated to billing's job projection (the generated invoice uses the new price) and to
 * reporting's facts (the P&L's job revenue moves, and a rebuild from the stored events gives the same figures).
 * Done when: "an edited job's new price reaches the generated invoice".
 */
import { randomUUID } from 'node:crypto';
import { BookingCreated, BookingUpdated, CustomerErased, UserCreated, type EventInput } from '@tyres/events';
import { perthToday } from '@tyres/kernel';
import { waitFor } from '@tyres/testkit';
import { createDb as reportingDb } from '../../services/reporting/src/db/client';
import { rebuildProjections } from '../../services/reporting/src/app/rebuild';
import { call, startMultiService, type MultiServiceStack } from '../support/multi-service';

jest.setTimeout(180_000);

const SERVICES = ['jobs', 'billing', 'reporting'] as const;
type Service = (typeof SERVICES)[number];
type Stack = MultiServiceStack<Service>;

const startStack = (label: string): Promise<Stack> =>
  startMultiService({ label, services: SERVICES, publisherName: `${label}-test` });

let stack: Stack;
let admin: Record<string, string>;
beforeAll(async () => {
  stack = await startStack('job-edit');
  admin = stack.identity('admin');
});
afterAll(async () => {
  await stack?.stop();
});

const one = async (s: Service, sql: string, params: unknown[]) =>
  (await stack.pg[s].query(sql, params)).rows[0] as Record<string, unknown> | undefined;

let counter = 0;
/** A booked job (BookingCreated as booking publishes it), present in jobs and billing. */
async function bookJob(over: Partial<EventInput<typeof BookingCreated>> = {}) {
  counter += 1;
  const jobId = randomUUID();
  const jobNumber = `JOB-E${Date.now().toString(36).slice(-5)}${counter}`;
  await stack.publish(BookingCreated, {
    jobId,
    jobNumber,
    customerId: randomUUID(),
    vehicleId: randomUUID(),
    serviceType: 'battery-service',
    scheduledDate: '2031-03-04',
    timeSlot: '8-10 AM',
    address: '1 Hay Street',
    suburb: 'Perth',
    postcode: '6000',
    tyreSize: null,
    tyreQuantity: null,
    tyreBrand: null,
    notes: null,
    customerValue: '0.00',
    paymentMethod: 'onsite',
    paymentStatus: 'pending',
    channel: 'online',
    customer: { name: 'Bea Battery', email: 'bea@example.com', phone: '0400 111 222' },
    vehicle: { make: 'Toyota', model: 'Corolla', year: 2018, registration: '1ABC234' },
    createdAt: new Date().toISOString(),
    ...over,
  });
  await waitFor(() => one('jobs', 'SELECT 1 FROM jobs.jobs WHERE id = $1', [jobId]), {
    message: 'jobs job',
    timeoutMs: 20_000,
  });
  await waitFor(() => one('billing', 'SELECT 1 FROM billing.job_snapshots WHERE job_id = $1', [jobId]), {
    message: 'billing snapshot',
    timeoutMs: 20_000,
  });
  return { jobId, jobNumber };
}

async function moveTo(jobId: string, ...statuses: string[]) {
  for (const status of statuses) {
    const res = await call(stack.url.jobs, 'PATCH', `/api/dashboard/jobs/${jobId}/status`, { status }, admin);
    expect(res.status).toBe(200);
  }
}

const edit = (jobId: string, body: unknown, who = admin) =>
  call(stack.url.jobs, 'PATCH', `/api/dashboard/jobs/${jobId}`, body, who);

const today = () => perthToday(new Date());
async function pl() {
  const res = await call(
    stack.url.reporting,
    'GET',
    `/api/dashboard/reports/enhanced-pl?startDate=${today()}&endDate=${today()}`,
    undefined,
    admin,
  );
  expect(res.status).toBe(200);
  return res.body as { revenue: { jobRevenue: string; customerInvoices: string; totalRevenue: string } };
}
const cents = (money: string) => Math.round(Number(money) * 100);

describe('an admin edits a job after booking', () => {
  it("prices a completed battery job: the history shows it, billing's invoice and reporting's revenue use it", async () => {
    const { jobId, jobNumber } = await bookJob();
    await moveTo(jobId, 'in-progress', 'completed');
    await waitFor(
      () =>
        one('billing', `SELECT 1 FROM billing.job_snapshots WHERE job_id = $1 AND status = 'completed'`, [
          jobId,
        ]),
      { message: 'billing sees the job completed', timeoutMs: 20_000 },
    );
    // The job is worth 0.00 so far: whether reporting has folded its completion yet does not move the figure.
    const before = await pl();

    const res = await edit(jobId, {
      customerValue: '189.50',
      reason: 'Battery supplied: Century 55D23L',
      version: 0,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: jobId, customerValue: '189.50', status: 'completed' });

    // The history: who, when, why, before and after.
    const history = await call(
      stack.url.jobs,
      'GET',
      `/api/dashboard/jobs/${jobId}/history`,
      undefined,
      admin,
    );
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({
      jobId,
      jobNumber,
      version: 1,
      edits: [
        {
          version: 1,
          reason: 'Battery supplied: Century 55D23L',
          changes: [{ field: 'customerValue', before: '0.00', after: '189.50' }],
        },
      ],
    });
    expect(history.body.edits[0].editedBy.username).toMatch(/^admin-/);

    // Billing: the projection takes the price; the generated invoice totals it, GST = 189.50 ÷ 11 = 17.23.
    await waitFor(
      () =>
        one(
          'billing',
          `SELECT 1 FROM billing.job_snapshots WHERE job_id = $1 AND customer_value = 189.50 AND edit_version = 1`,
          [jobId],
        ),
      { message: 'billing applies JobUpdated', timeoutMs: 20_000 },
    );
    const generated = await call(
      stack.url.billing,
      'POST',
      `/api/dashboard/customer-invoices/generate/${jobId}`,
      undefined,
      admin,
    );
    expect(generated.status).toBe(201);
    expect(generated.body.customerInvoice).toMatchObject({ totalAmount: '189.50', gstAmount: '17.23' });

    // Reporting: the job's revenue moves by its ex-GST value (189.50 − 17.23 = 172.27); a rebuild agrees.
    await waitFor(
      async () => cents((await pl()).revenue.jobRevenue) - cents(before.revenue.jobRevenue) === 17227,
      {
        message: 'reporting revenue reflects the edit',
        timeoutMs: 20_000,
      },
    );
    const live = await pl();
    const db = reportingDb(stack.dbUrl.reporting, 2);
    try {
      await rebuildProjections(db);
    } finally {
      await db.$disconnect();
    }
    expect(await pl()).toEqual(live);

    // The invoice now exists: the price is the invoice's business (change it there, or cancel and regenerate).
    const locked = await edit(jobId, { customerValue: '200.00', reason: 'Try again', version: 1 });
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe(
      `Job ${jobNumber} has invoice ${generated.body.customerInvoice.invoiceNumber}, so its price cannot change here. Change the amount on the invoice, or cancel the invoice, change the price and generate the invoice again.`,
    );
    // Other details may still be corrected.
    const notes = await edit(jobId, {
      notes: 'Old battery taken for recycling',
      reason: 'Record',
      version: 1,
    });
    expect(notes.status).toBe(200);
    expect(notes.body.notes).toBe('Old battery taken for recycling');
  });

  it('is admin only: a technician gets 403 for their own job and 404 for anyone else’s', async () => {
    const techId = randomUUID();
    await stack.publish(UserCreated, {
      userId: techId,
      username: `tech-${techId.slice(0, 6)}`,
      email: `tech-${techId.slice(0, 6)}@example.com`,
      role: 'technician',
      isActive: true,
      createdAt: new Date().toISOString(),
    });
    await waitFor(() => one('jobs', 'SELECT 1 FROM jobs.staff_directory WHERE user_id = $1', [techId]), {
      message: 'technician in the directory',
      timeoutMs: 20_000,
    });
    const mine = await bookJob();
    const other = await bookJob();
    const assigned = await call(
      stack.url.jobs,
      'PATCH',
      `/api/dashboard/jobs/${mine.jobId}/assign`,
      { technicianId: techId },
      admin,
    );
    expect(assigned.status).toBe(200);
    const tech = stack.identity('technician', techId);
    const body = { customerValue: '99.00', reason: 'I quoted it', version: 0 };
    const own = await edit(mine.jobId, body, tech);
    expect(own).toMatchObject({ status: 403, body: { message: 'Only an admin can do that' } });
    expect((await edit(other.jobId, body, tech)).status).toBe(404);
    // A technician may read the history of their own job.
    const history = await call(
      stack.url.jobs,
      'GET',
      `/api/dashboard/jobs/${mine.jobId}/history`,
      undefined,
      tech,
    );
    expect(history).toMatchObject({ status: 200, body: { version: 0, edits: [] } });
    expect(
      await one('jobs', 'SELECT customer_value::text AS v FROM jobs.jobs WHERE id = $1', [mine.jobId]),
    ).toEqual({
      v: '0.00',
    });
  });

  it('refuses invalid input with 400 and an unknown job with 404, changing nothing', async () => {
    const { jobId } = await bookJob();
    const price = 'Price must be an amount of 0 or more with at most 2 decimal places, e.g. "189.50"';
    for (const customerValue of ['-5', '12.345', 'abc', 189.5])
      expect(await edit(jobId, { customerValue, reason: 'x', version: 0 })).toMatchObject({
        status: 400,
        body: { message: price },
      });
    expect((await edit(jobId, { customerValue: '10', version: 0 })).body.message).toBe(
      'Please give a reason for the change',
    );
    expect((await edit(jobId, { reason: 'x', version: 0 })).body.message).toBe('Change at least one field');
    expect((await edit(jobId, { customerValue: '0.00', reason: 'x', version: 0 })).body.message).toBe(
      'Nothing changed: the job already has these values',
    );
    expect((await edit(randomUUID(), { customerValue: '1', reason: 'x', version: 0 })).status).toBe(404);
    const history = await call(
      stack.url.jobs,
      'GET',
      `/api/dashboard/jobs/${jobId}/history`,
      undefined,
      admin,
    );
    expect(history.body).toMatchObject({ version: 0, edits: [] });
  });

  it('never loses an update: of two edits made against the same version, one wins and the other is 409', async () => {
    const { jobId, jobNumber } = await bookJob();
    const [a, b] = await Promise.all([
      edit(jobId, { customerValue: '150.00', reason: 'Quote A', version: 0 }),
      edit(jobId, { customerValue: '175.00', reason: 'Quote B', version: 0 }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const lost = a.status === 409 ? a : b;
    const won = a.status === 200 ? a : b;
    expect(lost.body).toMatchObject({
      code: 'edit_conflict',
      message: `Job ${jobNumber} was changed by someone else since you opened it. Reload it and try again.`,
    });
    const history = await call(
      stack.url.jobs,
      'GET',
      `/api/dashboard/jobs/${jobId}/history`,
      undefined,
      admin,
    );
    expect(history.body.version).toBe(1);
    expect(history.body.edits).toHaveLength(1);
    expect(history.body.edits[0].changes[0].after).toBe(won.body.customerValue);
    // The loser reloads (version 1) and edits again: both edits are in the history.
    const again = await edit(jobId, { customerValue: '160.00', reason: 'Agreed in the middle', version: 1 });
    expect(again.status).toBe(200);
    const after = await call(stack.url.jobs, 'GET', `/api/dashboard/jobs/${jobId}/history`, undefined, admin);
    expect(after.body.edits.map((e: { version: number }) => e.version)).toEqual([2, 1]);
    // Billing keeps the newest version.
    await waitFor(
      () =>
        one(
          'billing',
          `SELECT 1 FROM billing.job_snapshots WHERE job_id = $1 AND customer_value = 160.00 AND edit_version = 2`,
          [jobId],
        ),
      { message: 'billing has version 2', timeoutMs: 20_000 },
    );
  });

  it("last writer wins per field between a customer's correction and a staff edit", async () => {
    const { jobId, jobNumber } = await bookJob();
    const beforeEdit = new Date(Date.now() - 60_000).toISOString();
    const res = await edit(jobId, {
      notes: 'Staff: call on arrival',
      address: '9 Murray Street',
      reason: 'Customer rang the office',
      version: 0,
    });
    expect(res.status).toBe(200);
    // A customer's correction made before the staff edit, delivered after it: notes stay the staff's.
    await stack.publish(BookingUpdated, {
      jobId,
      jobNumber,
      notes: 'Customer: old note',
      phone: '0400 999 888',
      updatedBy: 'customer',
      updatedAt: beforeEdit,
    });
    await waitFor(
      () => one('jobs', `SELECT 1 FROM jobs.jobs WHERE id = $1 AND customer_phone = '0400 999 888'`, [jobId]),
      {
        message: 'the phone correction applied',
        timeoutMs: 20_000,
      },
    );
    expect(await one('jobs', 'SELECT notes, address FROM jobs.jobs WHERE id = $1', [jobId])).toEqual({
      notes: 'Staff: call on arrival',
      address: '9 Murray Street',
    });
    // A correction made after the staff edit wins.
    await stack.publish(BookingUpdated, {
      jobId,
      jobNumber,
      notes: 'Customer: gate code 4321',
      updatedBy: 'customer',
      updatedAt: new Date(Date.now() + 1000).toISOString(),
    });
    await waitFor(
      () =>
        one('jobs', `SELECT 1 FROM jobs.jobs WHERE id = $1 AND notes = 'Customer: gate code 4321'`, [jobId]),
      { message: 'the newer correction applied', timeoutMs: 20_000 },
    );
  });

  it("an erased customer's edits lose the personal values and the reason; a later edit stores the erased values", async () => {
    const { jobId } = await bookJob();
    const first = await edit(jobId, {
      address: '12 Private Lane',
      notes: 'Ring Zelda on arrival',
      customerValue: '95.00',
      reason: 'Zelda rang about her battery',
      version: 0,
    });
    expect(first.status).toBe(200);
    await stack.publish(CustomerErased, {
      customerId: randomUUID(),
      erasedAt: new Date().toISOString(),
      erasedByUserId: randomUUID(),
      jobIds: [jobId],
      bookingIds: [randomUUID()],
    });
    await waitFor(() => one('jobs', 'SELECT 1 FROM jobs.erased_jobs WHERE job_id = $1', [jobId]), {
      message: 'jobs erased the job',
      timeoutMs: 20_000,
    });
    const history = await call(
      stack.url.jobs,
      'GET',
      `/api/dashboard/jobs/${jobId}/history`,
      undefined,
      admin,
    );
    expect(history.body.edits[0]).toMatchObject({
      reason: 'Erased',
      changes: [
        { field: 'customerValue', before: '0.00', after: '95.00' },
        { field: 'address', before: null, after: null, erased: true },
        { field: 'notes', before: null, after: null, erased: true },
      ],
    });
    expect(JSON.stringify(history.body)).not.toMatch(/Zelda|Private Lane/);
    // An edit of the erased job goes through the erasure triggers: the personal values stay erased.
    const later = await edit(jobId, { address: '99 New Road', reason: 'Moved', version: 1 });
    expect(later.status).toBe(200);
    expect(later.body.address).toBe('Erased');
  });
});

describe('a price edit racing Generate Invoice (issue 19: concurrency is correctness)', () => {
  const invoiceOf = (jobId: string) =>
    stack.pg.billing.query<{ status: string; total: string; lines: string | null }>(
      `SELECT i.status, i.total_amount::text AS total,
              (SELECT sum(total_price)::text FROM billing.customer_invoice_items WHERE customer_invoice_id = i.id) AS lines
         FROM billing.customer_invoices i WHERE i.job_id = $1 AND i.status <> 'cancelled'`,
      [jobId],
    );

  const generateInvoice = (jobId: string) =>
    call(stack.url.billing, 'POST', `/api/dashboard/customer-invoices/generate/${jobId}`, undefined, admin);

  /** One round: the edit and Generate sent together (one of them up to 300 ms later, at random); the outcome. */
  async function round(n: number) {
    const { jobId, jobNumber } = await bookJob({ customerValue: '100.00' });
    const price = `${150 + n}.${String(n % 100).padStart(2, '0')}`;
    const generate = () => generateInvoice(jobId);
    const priceEdit = () => edit(jobId, { customerValue: price, reason: `Race ${n}`, version: 0 });
    const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Positive: the edit goes that many ms after Generate (up to 300: sometimes after jobs has heard of the invoice,
    // then it is refused); negative: Generate goes after the edit.
    const skew = Math.floor(Math.random() * 330) - 30;
    const [edited, generated] = await Promise.all([
      delay(Math.max(0, skew)).then(priceEdit),
      delay(Math.max(0, -skew)).then(generate),
    ]);
    expect(generated.status).toBe(201);
    if (edited.status === 409) {
      // Refused: jobs already knew of the invoice. Job and invoice both keep the old price.
      expect(edited.body.message).toMatch(new RegExp(`^Job ${jobNumber} has invoice `));
      expect(
        (await one('jobs', 'SELECT customer_value::text AS v FROM jobs.jobs WHERE id = $1', [jobId]))?.v,
      ).toBe('100.00');
    } else {
      expect(edited.status).toBe(200);
      // Accepted: once billing has applied the edit (whichever committed first), the invoice is at the new price.
      await waitFor(
        () =>
          one('billing', 'SELECT 1 FROM billing.job_snapshots WHERE job_id = $1 AND edit_version = 1', [
            jobId,
          ]),
        { message: `billing applies the edit of round ${n}`, timeoutMs: 20_000 },
      );
    }
    const final = edited.status === 200 ? price : '100.00';
    const { rows } = await invoiceOf(jobId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({ status: 'draft', total: final, lines: final });
    return edited.status === 200 ? 'edited' : 'refused';
  }

  it('ends with the invoice at the job’s final price, or the edit refused, every time', async () => {
    const outcomes: string[] = [];
    const rounds = 30;
    for (let start = 0; start < rounds; start += 5)
      outcomes.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(5, rounds - start) }, (_, i) => round(start + i)),
        )),
      );
    expect(outcomes).toHaveLength(rounds);
  });

  it('an invoice Generate made first follows an edit jobs accepted before it knew of it', async () => {
    // Generate first, the edit sent before jobs hears of the invoice: simulated by editing immediately.
    const { jobId } = await bookJob({ customerValue: '100.00' });
    const generated = await generateInvoice(jobId);
    expect(generated.status).toBe(201);
    const edited = await edit(jobId, { customerValue: '120.00', reason: 'Extra valve', version: 0 });
    if (edited.status === 200) {
      await waitFor(async () => (await invoiceOf(jobId)).rows[0]?.total === '120.00', {
        message: 'the draft follows the edit',
        timeoutMs: 20_000,
      });
      // jobs hears of the updated invoice too: a second price edit is now refused.
      await waitFor(
        async () =>
          (await edit(jobId, { customerValue: '130.00', reason: 'Again', version: 1 })).status === 409,
        { message: 'jobs refuses once it knows of the invoice', timeoutMs: 20_000 },
      );
    } else expect(edited.status).toBe(409);
  });
});
