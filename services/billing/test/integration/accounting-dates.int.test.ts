import { outbox, seedJob, startTestBilling, type TestBilling } from './helpers';

jest.setTimeout(120_000);

/**
 * Issue 14 item 6: accounting dates (invoice, due, expense, purchase invoice and paid dates) from 1 Jan 2000 to five
 * years after today in Perth; anything else is a 400 naming the field and the range, and nothing is written. Billing's
 * clock is fixed at 24 Nov 2026 (Perth), so the range ends 24 Nov 2031.
 */
describe('accounting dates are within 1 Jan 2000 … five years ahead (issue 14 item 6)', () => {
  let svc: TestBilling;
  let adminToken: string;
  const api = () => svc.http();
  const as = <T extends { set(k: string, v: string): T }>(req: T) => req.set('x-identity-token', adminToken);
  const RANGE = 'between 1 Jan 2000 and 24 Nov 2031';
  const outOfRange = (field: string) => ({
    message: `${field} must be ${RANGE}`,
    code: 'date_out_of_range',
  });

  beforeAll(async () => {
    svc = await startTestBilling('billing-dates', {}, { clock: () => new Date('2026-11-24T02:00:00.000Z') });
    adminToken = svc.token(svc.admin);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  /** Every billing table and event, to show a refused request wrote nothing. */
  const written = async () => ({
    invoices: await svc.ctx.db.customerInvoice.count(),
    purchases: await svc.ctx.db.purchaseInvoice.count(),
    expenses: await svc.ctx.db.businessExpense.count(),
    events: (await outbox(svc)).length,
  });

  it('customer invoices: create and edit refuse 9999-12-31 and dates before 2000; both ends are accepted', async () => {
    const job = await seedJob(svc);
    const before = await written();
    const create = (body: object) =>
      as(api().post('/api/dashboard/customer-invoices')).send({ jobId: job.jobId, ...body });
    for (const [body, field] of [
      [{ dueDate: '9999-12-31' }, 'Due date'],
      [{ dueDate: '2031-11-25' }, 'Due date'],
      [{ dueDate: '2026-12-24', invoiceDate: '9999-12-31' }, 'Invoice date'],
      [{ dueDate: '2026-12-24', invoiceDate: '1999-12-31' }, 'Invoice date'],
      [{ dueDate: '2026-12-24', invoiceDate: '1999-12-31T23:00:00+08:00' }, 'Invoice date'],
    ] as const) {
      const res = await create(body);
      expect({ body, status: res.status, answer: res.body }).toMatchObject({
        body,
        status: 400,
        answer: outOfRange(field),
      });
    }
    expect(await written()).toEqual(before);

    const ok = await create({ dueDate: '2031-11-24', invoiceDate: '2000-01-01' });
    expect(ok.status).toBe(201);
    expect(ok.body.customerInvoice).toMatchObject({ invoiceDate: '2000-01-01', dueDate: '2031-11-24' });
    const id = ok.body.customerInvoice.id as string;

    const afterCreate = await written();
    const patch = (body: object) => as(api().patch(`/api/dashboard/customer-invoices/${id}`)).send(body);
    expect((await patch({ dueDate: '9999-12-31' })).body).toMatchObject(outOfRange('Due date'));
    expect((await patch({ invoiceDate: '1970-01-01' })).body).toMatchObject(outOfRange('Invoice date'));
    expect(await written()).toEqual(afterCreate);
    const stored = await as(api().get(`/api/dashboard/customer-invoices/${id}`));
    expect(stored.body).toMatchObject({ invoiceDate: '2000-01-01', dueDate: '2031-11-24' });
    expect((await patch({ dueDate: '2026-12-31' })).status).toBe(200);
  });

  it('purchase invoices: invoice, due and paid dates', async () => {
    const job = await seedJob(svc);
    const before = await written();
    const base = {
      jobId: job.jobId,
      invoiceNumber: 'TW-9',
      supplierName: 'Tyre Wholesale',
      totalAmount: '110.00',
    };
    const create = (body: object) =>
      as(api().post('/api/dashboard/purchase-invoices')).send({ ...base, ...body });
    expect((await create({ invoiceDate: '9999-12-31' })).body).toMatchObject(outOfRange('Invoice date'));
    expect((await create({ dueDate: '2099-01-01' })).body).toMatchObject(outOfRange('Due date'));
    expect((await create({ isPaid: true, paidAt: '9999-12-31T10:00:00Z' })).body).toMatchObject(
      outOfRange('Paid date'),
    );
    expect(await written()).toEqual(before);

    const ok = await create({ invoiceDate: '2031-11-24', isPaid: true, paidAt: '2000-01-01' });
    expect(ok.status).toBe(201);
    const id = ok.body.purchaseInvoice.id as string;
    const patch = (body: object) => as(api().patch(`/api/dashboard/purchase-invoices/${id}`)).send(body);
    expect((await patch({ invoiceDate: '1899-12-31' })).body).toMatchObject(outOfRange('Invoice date'));
    expect((await patch({ dueDate: '9999-12-31' })).body).toMatchObject(outOfRange('Due date'));
    expect((await patch({ paidAt: '3000-01-01' })).body).toMatchObject(outOfRange('Paid date'));
    expect((await patch({ dueDate: '2027-01-31' })).status).toBe(200);
  });

  it('business expenses: expense and due dates', async () => {
    const before = await written();
    const base = { supplierName: 'BP', description: 'Fuel', amount: '55.00', category: 'fuel' };
    const create = (body: object) =>
      as(api().post('/api/dashboard/business-expenses')).send({ ...base, ...body });
    expect((await create({ expenseDate: '9999-12-31' })).body).toMatchObject(outOfRange('Expense date'));
    expect((await create({ expenseDate: '2026-11-20', dueDate: '2040-01-01' })).body).toMatchObject(
      outOfRange('Due date'),
    );
    expect(await written()).toEqual(before);

    const ok = await create({ expenseDate: '2000-01-01', dueDate: '2031-11-24' });
    expect(ok.status).toBe(201);
    const id = ok.body.expense.id as string;
    const res = await as(api().patch(`/api/dashboard/business-expenses/${id}`)).send({
      expenseDate: '9999-12-31',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(outOfRange('Expense date'));
    expect((await as(api().get(`/api/dashboard/business-expenses/${id}`))).body.expenseDate).toBe(
      '2000-01-01',
    );
  });
});
