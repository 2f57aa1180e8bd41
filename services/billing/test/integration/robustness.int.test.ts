import { randomUUID } from 'node:crypto';
import { JobAssigned } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { seedJob, startTestBilling, technician, type TestBilling } from './helpers';

jest.setTimeout(120_000);

/**
 * Bad input never answers 500: malformed JSON, wrong types, impossible dates, negative, 3-decimal or oversized money,
 * bad query strings. Technicians never reach another technician's invoices (404 on every route).
 */
describe('robustness: bad input is 400/404, never 500; technician scoping on every invoice route', () => {
  let svc: TestBilling;
  let adminToken: string;
  const api = () => svc.http();
  const asAdmin = <T extends { set(k: string, v: string): T }>(req: T) =>
    req.set('x-identity-token', adminToken);

  beforeAll(async () => {
    svc = await startTestBilling('billing-robust');
    adminToken = svc.token(svc.admin);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  async function newInvoice() {
    const job = await seedJob(svc);
    const gen = await asAdmin(api().post(`/api/dashboard/customer-invoices/generate/${job.jobId}`));
    expect(gen.status).toBe(201);
    return { job, invoice: gen.body.customerInvoice as { id: string; items: { id: string }[] } };
  }

  it('malformed JSON bodies answer 400 on every write route', async () => {
    const { job, invoice } = await newInvoice();
    const purchase = await asAdmin(api().post('/api/dashboard/purchase-invoices')).send({
      jobId: job.jobId,
      invoiceNumber: 'S-1',
      supplierName: 'Tyre Wholesale',
      totalAmount: '110.00',
    });
    const expense = await asAdmin(api().post('/api/dashboard/business-expenses')).send({
      supplierName: 'BP',
      description: 'Fuel',
      amount: '55.00',
      category: 'fuel',
      expenseDate: '2026-11-20',
    });
    const routes: [string, string][] = [
      ['post', '/api/dashboard/customer-invoices'],
      ['post', `/api/dashboard/customer-invoices/generate/${job.jobId}`],
      ['patch', `/api/dashboard/customer-invoices/${invoice.id}`],
      ['post', `/api/dashboard/customer-invoices/${invoice.id}/items`],
      ['patch', `/api/dashboard/customer-invoices/${invoice.id}/items/${invoice.items[0]!.id}`],
      ['post', `/api/dashboard/customer-invoices/${invoice.id}/email`],
      ['post', '/api/dashboard/purchase-invoices'],
      ['patch', `/api/dashboard/purchase-invoices/${purchase.body.purchaseInvoice.id}`],
      ['post', '/api/dashboard/business-expenses'],
      ['patch', `/api/dashboard/business-expenses/${expense.body.expense.id}`],
      ['post', '/api/create-payment-intent-token'],
      ['post', '/api/payments/test-mode/confirm'],
    ];
    for (const [method, path] of routes) {
      for (const body of ['{"jobId": ', '{bad json}', 'null', '"a string"']) {
        const req = method === 'post' ? api().post(path) : api().patch(path);
        const res = await asAdmin(req).set('content-type', 'application/json').send(body);
        expect({ method, path, body, status: res.status }).toEqual({ method, path, body, status: 400 });
      }
      // A JSON array or number is not an object: validation answers 400.
      for (const body of [[], [1, 2]]) {
        const req = method === 'post' ? api().post(path) : api().patch(path);
        const res = await asAdmin(req).send(body);
        expect({ method, path, body, status: res.status < 500 }).toEqual({
          method,
          path,
          body,
          status: true,
        });
      }
    }
  });

  it('customer invoices: wrong types, impossible dates, negative, 3-decimal and oversized amounts are 400 with the spec messages', async () => {
    const job = await seedJob(svc);
    const create = (body: Record<string, unknown>) =>
      asAdmin(api().post('/api/dashboard/customer-invoices')).send({
        jobId: job.jobId,
        dueDate: '2026-12-31',
        ...body,
      });
    const cases: [Record<string, unknown>, string][] = [
      [{ jobId: 42 }, 'Please select a job for this invoice.'],
      [{ jobId: null }, 'Please select a job for this invoice.'],
      [{ jobId: '' }, 'Please select a job for this invoice.'],
      [{ dueDate: null }, 'Due date is required'],
      [{ dueDate: '' }, 'Due date is required'],
      [{ dueDate: 20261231 }, 'Invalid date format'],
      [{ dueDate: { y: 2026 } }, 'Invalid date format'],
      [{ dueDate: '2026-02-30' }, 'Invalid date format'],
      [{ dueDate: '2026-02-30T00:00:00.000Z' }, 'Invalid date format'],
      [{ dueDate: '+010000-01-01T00:00:00Z' }, 'Invalid date format'],
      [{ dueDate: 'next tuesday-ish' }, 'Invalid date format'],
      [{ invoiceDate: '2026-13-01' }, 'Invalid date format'],
      [{ status: 'unpaid' }, 'Invalid status'],
      [{ status: 3 }, 'Invalid status'],
      [{ subtotalAmount: 'abc' }, 'Must be a valid decimal amount'],
      [{ subtotalAmount: '12.345' }, 'Must be a valid decimal amount'],
      [{ subtotalAmount: 12.345 }, 'Must be a valid decimal amount'],
      [{ subtotalAmount: true }, 'Must be a valid decimal amount'],
      [{ subtotalAmount: { amount: 1 } }, 'Must be a valid decimal amount'],
      [{ subtotalAmount: '-5.00' }, 'Amount cannot be negative'],
      [{ subtotalAmount: -5 }, 'Amount cannot be negative'],
      [{ gstAmount: '1.001' }, 'Must be a valid decimal amount'],
      [{ totalAmount: 1e20 }, 'Amount is too large'],
      // Fits the column, but GST on top would not.
      [{ subtotalAmount: '99999999.99' }, 'Amount is too large'],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    // Postgres refuses U+0000 in text: a 400, not a 500.
    expect((await create({ status: 'draft', dueDate: '2026-12-31\u0000' })).status).toBe(400);
    const nul = await asAdmin(api().post('/api/dashboard/business-expenses')).send({
      supplierName: 'B\u0000P',
      description: 'Fuel',
      amount: '55.00',
      category: 'fuel',
      expenseDate: '2026-11-20',
    });
    expect(nul.status).toBe(400);
    // Nothing was created by any of them.
    expect(await svc.ctx.db.customerInvoice.count({ where: { jobId: job.jobId } })).toBe(0);
    // The largest subtotal whose total still fits works.
    const max = await create({ subtotalAmount: '90909090.90' });
    expect(max.status).toBe(201);
    expect(max.body.customerInvoice).toMatchObject({
      subtotalAmount: '90909090.90',
      gstAmount: '9090909.09',
      totalAmount: '99999999.99',
    });

    const id = max.body.customerInvoice.id as string;
    const patch = (body: Record<string, unknown>) =>
      asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}`)).send(body);
    for (const [body, message] of [
      [{ status: 'bogus' }, 'Invalid status'],
      [{ dueDate: '' }, 'Due date is required'],
      [{ dueDate: '2026-02-29' }, 'Invalid date format'],
      [{ subtotalAmount: '1.999' }, 'Must be a valid decimal amount'],
      [{ subtotalAmount: '90909090.91' }, 'Amount is too large'],
    ] as [Record<string, unknown>, string][]) {
      const res = await patch(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
  });

  it('line items: quantity a positive whole number (bounded), unit price ≥ 0 with 2 places, totals that fit', async () => {
    const job = await seedJob(svc);
    // Tax exclusive: GST goes on top of the lines, so the total is the largest amount to check.
    const created = await asAdmin(api().post('/api/dashboard/customer-invoices')).send({
      jobId: job.jobId,
      dueDate: '2026-12-31',
      amountType: 'exclusive',
    });
    const id = created.body.customerInvoice.id as string;
    const add = (body: Record<string, unknown>) =>
      asAdmin(api().post(`/api/dashboard/customer-invoices/${id}/items`)).send({
        description: 'Valve',
        unitPrice: '5.00',
        ...body,
      });
    const cases: [Record<string, unknown>, string][] = [
      [{ description: '' }, 'Please enter a description for the line item.'],
      [{ description: '   ' }, 'Please enter a description for the line item.'],
      [{ description: 7 }, 'Please enter a description for the line item.'],
      [{ quantity: 0 }, 'Quantity must be a positive whole number'],
      [{ quantity: -1 }, 'Quantity must be a positive whole number'],
      [{ quantity: 1.5 }, 'Quantity must be a positive whole number'],
      [{ quantity: 'two' }, 'Quantity must be a positive whole number'],
      [{ quantity: [2] }, 'Quantity must be a positive whole number'],
      [{ quantity: 2_147_483_648 }, 'Quantity must be 10000 or fewer'],
      [{ unitPrice: '-0.01' }, 'Unit price cannot be negative'],
      [{ unitPrice: -1 }, 'Unit price cannot be negative'],
      [{ unitPrice: '1.005' }, 'Must be a valid decimal amount'],
      [{ unitPrice: 1.005 }, 'Must be a valid decimal amount'],
      [{ unitPrice: '' }, 'Unit price is required'],
      [{ unitPrice: null }, 'Unit price is required'],
      [{ unitPrice: 'free' }, 'Must be a valid decimal amount'],
      [{ category: 'parts' }, 'Invalid category'],
      // The card surcharge line is made by billing with a card payment, never by hand.
      [{ category: 'surcharge' }, 'Invalid category'],
      [{ gstFree: 'sometimes' }, 'gstFree must be true or false'],
      // quantity × unit price beyond Decimal(10,2)
      [{ quantity: 2, unitPrice: '99999999.99' }, 'Amount is too large'],
      // the line fits, the invoice total with GST on top does not
      [{ quantity: 1, unitPrice: '99999999.99' }, 'Amount is too large'],
    ];
    for (const [body, message] of cases) {
      const res = await add(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    const inv = await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}`));
    expect(inv.body).toMatchObject({ items: [], subtotalAmount: '0.00', totalAmount: '0.00' });

    // A number with float noise is its cent value: 19.99 × 3 computed in JS is 59.97000000000001.
    const ok = await add({ quantity: '3', unitPrice: 19.99 });
    expect(ok.status).toBe(201);
    expect(ok.body.item).toMatchObject({ quantity: 3, unitPrice: '19.99', totalPrice: '59.97' });
    expect(ok.body.customerInvoice).toMatchObject({
      subtotalAmount: '59.97',
      gstAmount: '6.00',
      totalAmount: '65.97',
    });
    const itemId = ok.body.item.id as string;
    for (const [body, message] of [
      [{ quantity: 0 }, 'Quantity must be a positive whole number'],
      [{ unitPrice: '3.333' }, 'Must be a valid decimal amount'],
      [{ description: '' }, 'Please enter a description for the line item.'],
      [{ quantity: 10_000, unitPrice: '99999.99' }, 'Amount is too large'],
    ] as [Record<string, unknown>, string][]) {
      const res = await asAdmin(api().patch(`/api/dashboard/customer-invoices/${id}/items/${itemId}`)).send(
        body,
      );
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    expect((await asAdmin(api().get(`/api/dashboard/customer-invoices/${id}`))).body.totalAmount).toBe(
      '65.97',
    );
  });

  it('purchase invoices and expenses: wrong types, impossible dates, negative and 3-decimal totals', async () => {
    const job = await seedJob(svc);
    const purchase = (body: Record<string, unknown>) =>
      asAdmin(api().post('/api/dashboard/purchase-invoices')).send({
        jobId: job.jobId,
        invoiceNumber: 'S-100',
        supplierName: 'Tyre Wholesale',
        totalAmount: '110.00',
        ...body,
      });
    for (const [body, message] of [
      [{ invoiceNumber: 12 }, 'Invoice number is required'],
      [{ supplierName: ['x'] }, 'Supplier name is required'],
      [{ totalAmount: -110 }, 'Total must be greater than $0'],
      [{ totalAmount: '0.00' }, 'Total must be greater than $0'],
      [{ totalAmount: 'ten' }, 'Total must be a valid number'],
      [{ totalAmount: {} }, 'Total must be a valid number'],
      [{ totalAmount: '110.001' }, 'Must be a valid decimal amount'],
      [{ totalAmount: 110.001 }, 'Must be a valid decimal amount'],
      [{ invoiceDate: '2026-04-31' }, 'Invalid date format'],
      [{ invoiceDate: '2026-04-31T08:00:00+08:00' }, 'Invalid date format'],
      [{ paidAt: 'whenever', isPaid: true }, 'Invalid date format'],
      [{ paidAt: '2026-02-30T10:00:00Z', isPaid: true }, 'Invalid date format'],
      [{ isPaid: 'yes' }, 'isPaid must be true or false'],
    ] as [Record<string, unknown>, string][]) {
      const res = await purchase(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    const expense = (body: Record<string, unknown>) =>
      asAdmin(api().post('/api/dashboard/business-expenses')).send({
        supplierName: 'BP',
        description: 'Fuel',
        amount: '55.00',
        category: 'fuel',
        expenseDate: '2026-11-20',
        ...body,
      });
    for (const [body, message] of [
      [{ amount: '-1' }, 'Total must be greater than $0'],
      [{ amount: '55.555' }, 'Must be a valid decimal amount'],
      [{ amount: 55.555 }, 'Must be a valid decimal amount'],
      [{ amount: false }, 'Total must be a valid number'],
      [{ expenseDate: '2026-02-30' }, 'Invalid date format'],
      [{ expenseDate: 5 }, 'Invalid date format'],
      [{ expenseDate: '' }, 'Expense date is required'],
      [{ dueDate: '31/31/2026' }, 'Invalid date format'],
      [{ category: 7 }, 'Invalid category'],
      [{ notes: { text: 'x' } }, 'Must be text'],
    ] as [Record<string, unknown>, string][]) {
      const res = await expense(body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
  });

  it('bad query strings and path ids are 400/404, never 500', async () => {
    for (const query of [
      'limit=abc',
      'limit=0',
      'limit=100000',
      'offset=-1',
      'offset=1.5',
      'status=bogus',
      'status=draft&status=paid',
      'search=a&search=b',
      `search=${'x'.repeat(201)}`,
      'jobId=not-a-uuid',
    ]) {
      const res = await asAdmin(api().get(`/api/dashboard/customer-invoices?${query}`));
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
    // LIKE wildcards are searched for literally.
    for (const query of ['search=%25', 'search=_', 'search=%5C', "search='"]) {
      const res = await asAdmin(api().get(`/api/dashboard/customer-invoices?${query}`));
      expect({ query, status: res.status, body: res.body }).toEqual({ query, status: 200, body: [] });
    }
    for (const query of ['category=parts', 'paid=maybe', 'isPaid=1']) {
      const res = await asAdmin(api().get(`/api/dashboard/business-expenses?${query}`));
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
    expect((await asAdmin(api().get('/api/dashboard/customer-invoices/email-log?limit=abc'))).status).toBe(
      200,
    );
    for (const path of [
      '/api/dashboard/customer-invoices/not-a-uuid',
      '/api/dashboard/customer-invoices/not-a-uuid/items',
      '/api/dashboard/customer-invoices/job/123',
      `/api/dashboard/customer-invoices/${randomUUID()}/pdf`,
      '/api/dashboard/purchase-invoices/job/%E0%A4%A',
      '/api/dashboard/business-expenses/1',
    ]) {
      const res = await asAdmin(api().get(path));
      expect({ path, status: res.status }).toEqual({ path, status: path.includes('%E0') ? 400 : 404 });
    }
  });

  it("a technician never reaches another technician's invoices: 404 on every route", async () => {
    const tech = technician();
    const other = technician();
    const asTech = <T extends { set(k: string, v: string): T }>(req: T) =>
      req.set('x-identity-token', svc.token(tech));
    const { job, invoice } = await newInvoice();
    await svc.publish(JobAssigned, {
      jobId: job.jobId,
      jobNumber: job.jobNumber,
      technicianId: other.id,
      previousTechnicianId: null,
      scheduledDate: job.scheduledDate,
      timeSlot: job.timeSlot,
      assignedBy: svc.admin.id,
      assignedAt: new Date().toISOString(),
    });
    await waitFor(
      async () =>
        (await svc.ctx.db.jobSnapshot.findUnique({ where: { jobId: job.jobId } }))?.assignedTechnicianId ===
        other.id,
      {
        timeoutMs: 10_000,
      },
    );
    // The PDF and an email exist, so every read route has something to reveal.
    expect((await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/pdf`))).status).toBe(
      200,
    );
    const emailed = await asAdmin(api().post(`/api/dashboard/customer-invoices/${invoice.id}/email`)).send(
      {},
    );
    expect(emailed.status).toBe(200);
    const itemId = invoice.items[0]!.id;
    const base = `/api/dashboard/customer-invoices/${invoice.id}`;
    const calls: [string, string, object?][] = [
      ['get', base],
      ['get', `${base}/items`],
      ['get', `${base}/pdf`],
      ['post', `${base}/pdf`],
      ['post', `${base}/email`, {}],
      ['get', `${base}/emails`],
      ['get', `${base}/emails/${emailed.body.deliveryId}/message`],
      ['post', `${base}/items`, { description: 'x', unitPrice: '1.00' }],
      ['patch', `${base}/items/${itemId}`, { unitPrice: '1.00' }],
      ['delete', `${base}/items/${itemId}`],
      ['get', `/api/dashboard/customer-invoices/job/${job.jobId}`],
      ['post', `/api/dashboard/customer-invoices/generate/${job.jobId}`],
      ['post', '/api/dashboard/customer-invoices', { jobId: job.jobId, dueDate: '2026-12-31' }],
      ['get', `/api/dashboard/purchase-invoices/job/${job.jobId}`],
      [
        'post',
        '/api/dashboard/purchase-invoices',
        { jobId: job.jobId, invoiceNumber: 'S', supplierName: 'X', totalAmount: '11.00' },
      ],
    ];
    for (const [method, path, body] of calls) {
      const req = (
        api() as unknown as Record<string, (p: string) => ReturnType<ReturnType<typeof api>['get']>>
      )[method]!(path);
      const res = await asTech(req).send(body ?? {});
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    // Admin-only routes are 403 for any technician; nothing changed.
    expect((await asTech(api().patch(base)).send({ status: 'paid' })).status).toBe(403);
    expect((await asTech(api().delete(base))).status).toBe(403);
    const after = await asAdmin(api().get(base));
    expect(after.body.items).toHaveLength(invoice.items.length);
  });
});
