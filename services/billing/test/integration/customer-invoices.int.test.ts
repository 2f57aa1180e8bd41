import { randomUUID } from 'node:crypto';
import { JobAssigned, JobStatusChanged } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { addDays, perthDate } from '@tyres/kernel';
import { outbox, seedJob, startTestBilling, technician, type TestBilling } from './helpers';

jest.setTimeout(120_000);

describe('customer invoices', () => {
  let svc: TestBilling;
  let adminToken: string;
  const api = () => svc.http();

  beforeAll(async () => {
    svc = await startTestBilling('billing-invoices');
    adminToken = svc.token(svc.admin);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const asAdmin = <T extends { set(k: string, v: string): T }>(req: T) =>
    req.set('x-identity-token', adminToken);

  async function assign(jobId: string, jobNumber: string, technicianId: string | null) {
    await svc.publish(JobAssigned, {
      jobId,
      jobNumber,
      technicianId,
      previousTechnicianId: null,
      scheduledDate: '2026-11-24',
      timeSlot: '10-12 AM',
      assignedBy: svc.admin.id,
      assignedAt: new Date().toISOString(),
    });
    await waitFor(
      async () =>
        (await svc.ctx.db.jobSnapshot.findUnique({ where: { jobId } }))?.assignedTechnicianId ===
        technicianId,
      {
        timeoutMs: 10_000,
      },
    );
  }

  describe('generate', () => {
    it('builds the invoice from the job: lines, INV number, draft, due in 30 days, tax inclusive (total = the job price, GST = total ÷ 11); emits CustomerInvoiceIssued v2', async () => {
      const job = await seedJob(svc);
      const res = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const inv = res.body.customerInvoice;
      expect(inv.invoiceNumber).toMatch(/^INV-\d{6}$/);
      expect(inv.status).toBe('draft');
      expect(inv.jobId).toBe(job.jobId);
      const today = perthDate();
      expect(inv.invoiceDate).toBe(today);
      expect(inv.dueDate).toBe(addDays(today, 30));
      // Issue 12: the job's price (805.80, GST-inclusive) is the invoice total; GST 805.80 ÷ 11 = 73.25 is in it.
      expect(inv.amountType).toBe('inclusive');
      expect(inv.paymentIntentId).toBeNull();
      expect(inv.subtotalAmount).toBe('732.55');
      expect(inv.gstAmount).toBe('73.25');
      expect(inv.totalAmount).toBe('805.80');
      expect(inv.jobNumber).toBe(job.jobNumber);
      expect(inv.customerName).toBe('Jane Citizen');
      expect(inv.items.map((i: { category: string }) => i.category)).toEqual([
        'callout',
        'tyre',
        'labour',
        'labour',
      ]);
      expect(inv.items[1]).toMatchObject({
        description: 'New tyre 205/55R16 (Michelin)',
        quantity: 4,
        unitPrice: '139.00',
        totalPrice: '556.00',
      });

      const issued = (await outbox(svc, 'customer-invoice.issued.v2')).find(
        (e) => e.data.invoiceId === inv.id,
      );
      expect(issued?.data).toMatchObject({
        invoiceNumber: inv.invoiceNumber,
        jobId: job.jobId,
        jobNumber: job.jobNumber,
        customerName: 'Jane Citizen',
        status: 'draft',
        amountType: 'inclusive',
        paymentIntentId: null,
        subtotalAmount: '732.55',
        gstAmount: '73.25',
        totalAmount: '805.80',
      });
      expect((issued?.data.items as { gstFree: boolean }[]).every((i) => i.gstFree === false)).toBe(true);
      // Billing emits v2 only.
      expect((await outbox(svc, 'customer-invoice.issued.v1')).length).toBe(0);
      expect((issued?.data.items as unknown[]).length).toBe(4);
    });

    it('refuses a second generate for the same job with 409', async () => {
      const job = await seedJob(svc, {
        serviceType: 'puncture-repair',
        customerValue: '129.80',
        tyreSize: null,
        tyreQuantity: null,
      });
      const first = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      expect(first.status).toBe(201);
      const second = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      expect(second.status).toBe(409);
      expect(second.body.message).toBe(
        `Job ${job.jobNumber} already has invoice ${first.body.customerInvoice.invoiceNumber}`,
      );
      expect(second.body.details).toMatchObject({
        invoiceId: first.body.customerInvoice.id,
        invoiceNumber: first.body.customerInvoice.invoiceNumber,
      });
    });

    it('numbers 20 concurrent generates uniquely and sequentially', async () => {
      const jobs = await Promise.all(Array.from({ length: 20 }, () => seedJob(svc)));
      const responses = await Promise.all(
        jobs.map((j) => asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${j.jobId}`))),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
      const numbers = responses.map((r) => r.body.customerInvoice.invoiceNumber as string);
      expect(new Set(numbers).size).toBe(20);
      const values = numbers.map((n) => Number(n.slice(4))).sort((a, b) => a - b);
      // Gap-free: 20 consecutive numbers.
      expect(values[19]! - values[0]!).toBe(19);
    });

    it('a race of generates for one job creates one invoice; the others get 409', async () => {
      const job = await seedJob(svc);
      const responses = await Promise.all(
        Array.from({ length: 6 }, () =>
          asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`)),
        ),
      );
      expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
      expect(responses.filter((r) => r.status === 409)).toHaveLength(5);
      expect(await svc.ctx.db.customerInvoice.count({ where: { jobId: job.jobId } })).toBe(1);
    });

    it('404 for an unknown job', async () => {
      const res = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${randomUUID()}`));
      expect(res.status).toBe(404);
      expect((await asAdmin(api().post('/api/dashboard/customer-invoices/generate/not-a-uuid'))).status).toBe(
        404,
      );
    });

    it('replays the first answer for a retried generate with the same Idempotency-Key', async () => {
      const job = await seedJob(svc);
      const key = `gen-${randomUUID()}`;
      const first = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`)).set(
        'Idempotency-Key',
        key,
      );
      const retry = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`)).set(
        'Idempotency-Key',
        key,
      );
      expect(first.status).toBe(201);
      expect(retry.status).toBe(201);
      expect(retry.body.customerInvoice.id).toBe(first.body.customerInvoice.id);
    });
  });

  describe('create (new invoice page) and line items', () => {
    it('validates with the spec messages', async () => {
      const post = (body: object) => asAdmin(api().post('/api/dashboard/customer-invoices')).send(body);
      expect((await post({})).body.message).toBe('Please select a job for this invoice.');
      expect((await post({ jobId: '' })).body.message).toBe('Please select a job for this invoice.');
      const job = await seedJob(svc);
      const noDue = await post({ jobId: job.jobId, status: 'draft', dueDate: null });
      expect(noDue.status).toBe(400);
      expect(noDue.body.message).toBe('Due date is required');
      expect((await post({ jobId: job.jobId, dueDate: 'soon' })).body.message).toBe('Invalid date format');
      expect(
        (await post({ jobId: job.jobId, dueDate: '2026-12-31', subtotalAmount: '10.123' })).body.message,
      ).toBe('Must be a valid decimal amount');
      expect((await post({ jobId: job.jobId, dueDate: '2026-12-31', status: 'bogus' })).body.message).toBe(
        'Invalid status',
      );
      expect((await post({ jobId: randomUUID(), dueDate: '2026-12-31' })).status).toBe(404);
    });

    it('creates an invoice, then items: line totals, totals recomputed on the server after every change', async () => {
      const job = await seedJob(svc);
      // A tax exclusive invoice (GST added on top of the lines, the spec's original rule).
      const created = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        status: 'draft',
        dueDate: '2026-12-31',
        amountType: 'exclusive',
        subtotalAmount: '100.00',
        gstAmount: '999.00', // ignored: derived on the server
        totalAmount: '1.00',
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ success: true, message: 'Invoice created successfully' });
      const id = created.body.customerInvoice.id as string;
      expect(created.body.customerInvoice).toMatchObject({
        subtotalAmount: '100.00',
        gstAmount: '10.00',
        totalAmount: '110.00',
        dueDate: '2026-12-31',
      });
      expect(created.body.customerInvoice.invoiceNumber).toMatch(/^INV-\d{6}$/);
      expect((await outbox(svc, 'customer-invoice.issued.v2')).some((e) => e.data.invoiceId === id)).toBe(
        true,
      );

      const items = `/api/dashboard/customer-invoices/${id}/items`;
      const bad = (body: object) => asAdmin(api().post(items)).send(body);
      expect((await bad({ description: '  ', quantity: 1, unitPrice: '1.00' })).body.message).toBe(
        'Please enter a description for the line item.',
      );
      expect((await bad({ description: 'x', quantity: 0, unitPrice: '1.00' })).body.message).toBe(
        'Quantity must be a positive whole number',
      );
      expect((await bad({ description: 'x', quantity: 1.5, unitPrice: '1.00' })).body.message).toBe(
        'Quantity must be a positive whole number',
      );
      expect((await bad({ description: 'x', quantity: 1, unitPrice: '-1.00' })).body.message).toBe(
        'Unit price cannot be negative',
      );
      expect((await bad({ description: 'x', quantity: 1, unitPrice: '1.001' })).body.message).toBe(
        'Must be a valid decimal amount',
      );
      expect(
        (await bad({ description: 'x', quantity: 1, unitPrice: '1', category: 'snacks' })).body.message,
      ).toBe('Invalid category');

      const a = await asAdmin(api().post(items)).send({
        description: 'Tyre 205/55R16',
        category: 'tyre',
        quantity: 3,
        unitPrice: '33.33',
        totalPrice: '1.00',
      });
      expect(a.status).toBe(201);
      expect(a.body.success).toBe(true);
      expect(a.body.item).toMatchObject({
        quantity: 3,
        unitPrice: '33.33',
        totalPrice: '99.99',
        category: 'tyre',
      });
      expect(a.body.customerInvoice).toMatchObject({
        subtotalAmount: '99.99',
        gstAmount: '10.00',
        totalAmount: '109.99',
      });

      const b = await asAdmin(api().post(items)).send({
        description: 'Callout',
        category: 'callout',
        unitPrice: 89.8,
      });
      expect(b.body.item).toMatchObject({ quantity: 1, totalPrice: '89.80' });
      expect(b.body.customerInvoice).toMatchObject({
        subtotalAmount: '189.79',
        gstAmount: '18.98',
        totalAmount: '208.77',
      });
      // Default category is labour.
      const c = await asAdmin(api().post(items)).send({ description: 'Note', quantity: '2', unitPrice: '0' });
      expect(c.body.item).toMatchObject({ category: 'labour', quantity: 2, totalPrice: '0.00' });

      const patched = await asAdmin(api().patch(`${items}/${a.body.item.id}`)).send({ quantity: 4 });
      expect(patched.status).toBe(200);
      expect(patched.body.item.totalPrice).toBe('133.32');
      expect(patched.body.customerInvoice).toMatchObject({
        subtotalAmount: '223.12',
        gstAmount: '22.31',
        totalAmount: '245.43',
      });

      const removed = await asAdmin(api().delete(`${items}/${b.body.item.id}`));
      expect(removed.status).toBe(200);
      expect(removed.body.customerInvoice).toMatchObject({
        subtotalAmount: '133.32',
        gstAmount: '13.33',
        totalAmount: '146.65',
      });

      const list = await asAdmin(api().get(items));
      expect(list.body.map((i: { description: string }) => i.description)).toEqual([
        'Tyre 205/55R16',
        'Note',
      ]);
      // Totals of the invoice follow its items; a PATCH of amounts cannot override them.
      const overwrite = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        subtotalAmount: '1.00',
      });
      expect(overwrite.body.customerInvoice.totalAmount).toBe('146.65');

      // Every item change wrote a CustomerInvoiceUpdated with the new totals.
      const updates = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
        (e) => e.data.invoiceId === id,
      );
      expect(updates.map((e) => e.data.totalAmount)).toEqual([
        '109.99',
        '208.77',
        '208.77',
        '245.43',
        '146.65',
      ]);
    });

    it('"Invoice must be saved first": items need a saved invoice', async () => {
      const res = await asAdmin(api().post(`/api/dashboard/customer-invoices/${randomUUID()}/items`)).send({
        description: 'x',
        quantity: 1,
        unitPrice: '1.00',
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Invoice must be saved first');
      expect(
        (
          await asAdmin(
            api().patch(`/api/dashboard/customer-invoices/${randomUUID()}/items/${randomUUID()}`),
          ).send({})
        ).status,
      ).toBe(404);
    });

    it('refuses a second active invoice for a job (manual create), allows one after cancelling', async () => {
      const job = await seedJob(svc);
      const gen = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      const dup = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        dueDate: '2026-12-31',
      });
      expect(dup.status).toBe(409);
      await asAdmin(api().patch(`/api/dashboard/customer-invoices/${gen.body.customerInvoice.id}`)).send({
        status: 'cancelled',
      });
      const again = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      expect(again.status).toBe(201);
      // Un-cancelling the first would make two active invoices.
      const back = await asAdmin(
        api().patch(`/api/dashboard/customer-invoices/${gen.body.customerInvoice.id}`),
      ).send({ status: 'draft' });
      expect(back.status).toBe(409);
    });
  });

  describe('edit, bulk status, overdue, delete, lists', () => {
    it('PATCH fields and {status}: paid sets paidAt, leaving paid clears it; emits CustomerInvoiceUpdated', async () => {
      const job = await seedJob(svc);
      const id = (await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`))).body
        .customerInvoice.id;
      const due = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        dueDate: '2027-01-15T00:00:00+08:00',
      });
      expect(due.status).toBe(200);
      expect(due.body).toMatchObject({ success: true, customerInvoice: { dueDate: '2027-01-15' } });
      expect(
        (await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({ dueDate: '' })).body
          .message,
      ).toBe('Due date is required');
      expect(
        (await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({ status: 'lost' }))
          .status,
      ).toBe(400);

      const paid = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        status: 'paid',
      });
      expect(paid.body.customerInvoice.status).toBe('paid');
      expect(paid.body.customerInvoice.paidAt).toEqual(expect.any(String));
      const sent = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        status: 'sent',
      });
      expect(sent.body.customerInvoice).toMatchObject({ status: 'sent', paidAt: null });
      expect(sent.body.customerInvoice.sentAt).toEqual(expect.any(String));

      const updates = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
        (e) => e.data.invoiceId === id,
      );
      expect(updates.map((e) => e.data.status)).toEqual(['draft', 'paid', 'sent']);
      expect(updates[1]?.data.changedFields).toEqual(['status', 'paidAt']);
    });

    it('reports an unpaid invoice past its due date as overdue (list, detail, status filter)', async () => {
      const job = await seedJob(svc);
      const created = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        status: 'sent',
        dueDate: '2020-01-31',
      });
      const id = created.body.customerInvoice.id;
      expect(created.body.customerInvoice).toMatchObject({ status: 'overdue', isOverdue: true });
      expect((await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}`))).body.status).toBe(
        'overdue',
      );
      const overdue = await asAdmin(api().get('/api/dashboard/customer-invoices?status=overdue&limit=500'));
      const listed = overdue.body.find((i: { id: string }) => i.id === id);
      const { items: _items, ...detail } = (
        await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}`))
      ).body;
      expect(listed).toEqual(detail);
      expect(listed).toMatchObject({
        status: 'overdue',
        isOverdue: true,
        sentAt: expect.any(String),
        daysUntilDue: expect.any(Number),
      });
      expect(listed.daysUntilDue).toBeLessThan(0);
      const sentOnly = await asAdmin(api().get('/api/dashboard/customer-invoices?status=sent&limit=500'));
      expect(sentOnly.body.some((i: { id: string }) => i.id === id)).toBe(false);
      const paid = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({
        status: 'paid',
      });
      expect(paid.body.customerInvoice).toMatchObject({ status: 'paid', isOverdue: false });
    });

    it('lists invoices with job number and customer name; search; per job; one invoice; its items', async () => {
      const job = await seedJob(svc, {
        customer: { name: 'Searchable Sam', email: 'sam@example.com', phone: '0400000000' },
      });
      const gen = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      const id = gen.body.customerInvoice.id;
      const list = await asAdmin(api().get('/api/dashboard/customer-invoices'));
      expect(list.status).toBe(200);
      expect(Number(list.headers['x-total-count'])).toBeGreaterThan(0);
      const row = list.body.find((i: { id: string }) => i.id === id);
      expect(row).toMatchObject({
        jobNumber: job.jobNumber,
        customerName: 'Searchable Sam',
        job: { jobNumber: job.jobNumber, customer: { name: 'Searchable Sam' } },
      });
      expect(row.items).toBeUndefined();
      const found = await asAdmin(api().get('/api/dashboard/customer-invoices?search=searchable'));
      expect(found.body.map((i: { id: string }) => i.id)).toEqual([id]);
      const byNumber = await asAdmin(
        api().get(`/api/dashboard/customer-invoices?search=${gen.body.customerInvoice.invoiceNumber}`),
      );
      expect(byNumber.body.map((i: { id: string }) => i.id)).toEqual([id]);

      const forJob = await asAdmin(api().get(`/api/dashboard/customer-invoices/job/${job.jobId}`));
      expect(forJob.body).toHaveLength(1);
      expect(forJob.body[0].items).toHaveLength(4);
      const none = await seedJob(svc);
      expect((await asAdmin(api().get(`/api/dashboard/customer-invoices/job/${none.jobId}`))).body).toEqual(
        [],
      );
      expect((await asAdmin(api().get(`/api/dashboard/customer-invoices/job/${randomUUID()}`))).status).toBe(
        404,
      );

      const one = await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}`));
      expect(one.body).toMatchObject({
        id,
        invoiceNumber: gen.body.customerInvoice.invoiceNumber,
        job: { customer: { email: 'sam@example.com' } },
      });
      // The list (built in SQL) and the detail (built in JS) describe an invoice identically.
      const { items: _items, ...detail } = one.body;
      expect(row).toEqual(detail);
      const items = await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}/items`));
      expect(items.body[0]).toEqual({
        id: expect.any(String),
        customerInvoiceId: id,
        description: 'Mobile callout fee',
        category: 'callout',
        quantity: 1,
        unitPrice: '89.80',
        totalPrice: '89.80',
        gstFree: false,
      });
      expect((await asAdmin(api().get(`/api/dashboard/customer-invoices/${randomUUID()}`))).status).toBe(404);
    });

    it('DELETE removes the invoice and its items and emits CustomerInvoiceDeleted', async () => {
      const job = await seedJob(svc);
      const gen = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
      const id = gen.body.customerInvoice.id;
      const del = await asAdmin(api().delete(`/api/dashboard/customer-invoices/${id}`));
      expect(del.body).toEqual({ success: true, message: 'Invoice deleted successfully' });
      expect((await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}`))).status).toBe(404);
      expect(await svc.ctx.db.customerInvoiceItem.count({ where: { customerInvoiceId: id } })).toBe(0);
      const deleted = (await outbox(svc, 'customer-invoice.deleted.v1')).find((e) => e.data.invoiceId === id);
      expect(deleted?.data).toMatchObject({
        invoiceNumber: gen.body.customerInvoice.invoiceNumber,
        jobId: job.jobId,
        deletedBy: svc.admin.id,
      });
      expect((await asAdmin(api().delete(`/api/dashboard/customer-invoices/${id}`))).status).toBe(404);
    });

    it('a job marked paid in the jobs service settles its open invoice', async () => {
      const job = await seedJob(svc);
      const id = (await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`))).body
        .customerInvoice.id;
      await svc.publish(JobStatusChanged, {
        jobId: job.jobId,
        jobNumber: job.jobNumber,
        from: 'invoiced',
        to: 'paid',
        changedAt: new Date().toISOString(),
        changedBy: svc.admin.id,
        assignedTechnicianId: null,
        serviceType: 'new-tyres',
        scheduledDate: '2026-11-24',
        timeSlot: '10-12 AM',
        customerValue: '805.80',
      });
      await waitFor(
        async () => (await svc.ctx.db.customerInvoice.findUnique({ where: { id } }))?.status === 'paid',
        { timeoutMs: 10_000 },
      );
      const updated = (await outbox(svc, 'customer-invoice.updated.v2')).filter(
        (e) => e.data.invoiceId === id,
      );
      expect(updated.at(-1)?.data).toMatchObject({ status: 'paid', changedFields: ['status', 'paidAt'] });
      expect(updated.at(-1)?.causationId).toEqual(expect.any(String));
    });
  });

  describe('access', () => {
    it('needs a verified identity', async () => {
      expect((await api().get('/api/dashboard/customer-invoices')).status).toBe(401);
      expect(
        (await api().get('/api/dashboard/customer-invoices').set('x-identity-token', 'forged')).status,
      ).toBe(401);
    });

    it("technicians: their own job's invoice (generate, read, items while draft, create); everything else 403/404", async () => {
      const tech = technician();
      const other = technician();
      const techToken = svc.token(tech);
      const asTech = <T extends { set(k: string, v: string): T }>(req: T) =>
        req.set('x-identity-token', techToken);
      const mine = await seedJob(svc);
      const theirs = await seedJob(svc);
      await assign(mine.jobId, mine.jobNumber, tech.id);
      await assign(theirs.jobId, theirs.jobNumber, other.id);

      expect((await asTech(api().get('/api/dashboard/customer-invoices'))).status).toBe(403);
      expect(
        (await asTech(api().post(`/api/dashboard/customer-invoices/generate/${theirs.jobId}`))).status,
      ).toBe(404);
      const gen = await asTech(api().post(`/api/dashboard/customer-invoices/generate/${mine.jobId}`));
      expect(gen.status).toBe(201);
      const id = gen.body.customerInvoice.id;
      expect((await asTech(api().get(`/api/dashboard/customer-invoices/${id}`))).status).toBe(200);
      expect(
        (await asTech(api().get(`/api/dashboard/customer-invoices/job/${mine.jobId}`))).body,
      ).toHaveLength(1);
      expect((await asTech(api().get(`/api/dashboard/customer-invoices/job/${theirs.jobId}`))).status).toBe(
        404,
      );
      const item = await asTech(api().post(`/api/dashboard/customer-invoices/${id}/items`)).send({
        description: 'Valve',
        unitPrice: '5.00',
      });
      expect(item.status).toBe(201);
      expect(
        (await asTech(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({ status: 'paid' })).status,
      ).toBe(403);
      // The new invoice page for another of their jobs: draft only; someone else's job does not exist.
      const third = await seedJob(svc);
      await assign(third.jobId, third.jobNumber, tech.id);
      const create = (jobId: string, status?: string) =>
        asTech(api().post('/api/dashboard/customer-invoices')).send({
          jobId,
          dueDate: '2026-12-31',
          ...(status ? { status } : {}),
        });
      expect((await create(third.jobId, 'paid')).status).toBe(403);
      expect((await create(theirs.jobId)).status).toBe(404);
      expect((await create(third.jobId)).status).toBe(201);
      expect((await asTech(api().delete(`/api/dashboard/customer-invoices/${id}`))).status).toBe(403);

      // Someone else's invoice does not exist for this technician.
      const theirsInvoice = await asAdmin(
        api().post(`/api/dashboard/customer-invoices/generate/${theirs.jobId}`),
      );
      const theirsId = theirsInvoice.body.customerInvoice.id;
      expect((await asTech(api().get(`/api/dashboard/customer-invoices/${theirsId}`))).status).toBe(404);
      expect((await asTech(api().get(`/api/dashboard/customer-invoices/${theirsId}/items`))).status).toBe(
        404,
      );
      expect(
        (
          await asTech(api().post(`/api/dashboard/customer-invoices/${theirsId}/items`)).send({
            description: 'x',
            unitPrice: '1',
          })
        ).status,
      ).toBe(404);
      expect((await asTech(api().post(`/api/dashboard/customer-invoices/${theirsId}/pdf`))).status).toBe(404);

      // Once sent, only an admin changes the items.
      await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send({ status: 'sent' });
      expect(
        (
          await asTech(api().post(`/api/dashboard/customer-invoices/${id}/items`)).send({
            description: 'x',
            unitPrice: '1',
          })
        ).status,
      ).toBe(403);

      // Unassigned from the job: the invoice disappears for the technician.
      await assign(mine.jobId, mine.jobNumber, null);
      expect((await asTech(api().get(`/api/dashboard/customer-invoices/${id}`))).status).toBe(404);
    });
  });
});
