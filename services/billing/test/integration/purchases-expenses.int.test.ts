import { randomUUID } from 'node:crypto';
import { JobAssigned } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { perthDate } from '@tyres/kernel';
import { outbox, seedJob, startTestBilling, technician, type TestBilling } from './helpers';

jest.setTimeout(120_000);

describe('purchase invoices and business expenses', () => {
  let svc: TestBilling;
  let token: string;
  const api = () => svc.http();
  const asAdmin = <T extends { set(k: string, v: string): T }>(req: T) => req.set('x-identity-token', token);

  beforeAll(async () => {
    svc = await startTestBilling('billing-purchases');
    token = svc.token(svc.admin);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  describe('purchase invoices', () => {
    const base = '/api/dashboard/purchase-invoices';

    it('validates with the spec messages', async () => {
      const job = await seedJob(svc);
      const post = (body: object) =>
        asAdmin(api().post(base)).send({
          jobId: job.jobId,
          invoiceNumber: 'S-1',
          supplierName: 'Tyre Wholesale',
          totalAmount: '110.00',
          ...body,
        });
      expect((await post({ invoiceNumber: '' })).body.message).toBe('Invoice number is required');
      expect((await post({ invoiceNumber: undefined })).body.message).toBe('Invoice number is required');
      expect((await post({ supplierName: '   ' })).body.message).toBe('Supplier name is required');
      expect((await post({ totalAmount: 0 })).body.message).toBe('Total must be greater than $0');
      expect((await post({ totalAmount: '-5' })).body.message).toBe('Total must be greater than $0');
      expect((await post({ totalAmount: 'abc' })).body.message).toBe('Total must be a valid number');
      expect((await post({ totalAmount: undefined })).body.message).toBe('Total must be a valid number');
      expect((await post({ totalAmount: '10.999' })).body.message).toBe('Must be a valid decimal amount');
      expect((await post({ invoiceDate: '31/31/2026' })).body.message).toBe('Invalid date format');
      const unknownJob = await asAdmin(api().post(base)).send({
        jobId: randomUUID(),
        invoiceNumber: 'S-1',
        supplierName: 'X',
        totalAmount: '1.00',
      });
      expect(unknownJob.status).toBe(404);
    });

    it('records a purchase invoice: category always cost-of-goods-sold, GST = total / 11, ex-GST = total − GST; emits PurchaseInvoiceRecorded', async () => {
      const job = await seedJob(svc);
      const res = await asAdmin(api().post(base)).send({
        jobId: job.jobId,
        invoiceNumber: 'TW-5531',
        supplierName: 'Tyre Wholesale Pty Ltd',
        invoiceDate: '2026-11-20',
        totalAmount: '100.00',
        gstAmount: '50.00', // ignored: derived
        category: 'fuel', // ignored: always cost-of-goods-sold
        isPaid: false,
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const p = res.body.purchaseInvoice;
      expect(p).toMatchObject({
        jobId: job.jobId,
        invoiceNumber: 'TW-5531',
        supplierName: 'Tyre Wholesale Pty Ltd',
        invoiceDate: '2026-11-20',
        totalAmount: '100.00',
        gstAmount: '9.09',
        subtotal: '90.91',
        category: 'cost-of-goods-sold',
        isPaid: false,
        paidAt: null,
      });
      const recorded = (await outbox(svc, 'purchase-invoice.recorded.v1')).find(
        (e) => e.data.purchaseInvoiceId === p.id,
      );
      expect(recorded?.data).toMatchObject({
        totalAmount: '100.00',
        gstAmount: '9.09',
        subtotal: '90.91',
        category: 'cost-of-goods-sold',
        jobId: job.jobId,
      });

      // The dialog's totalIncGst field is accepted too; invoice date defaults to today (Perth).
      const alias = await asAdmin(api().post(base)).send({
        jobId: job.jobId,
        invoiceNumber: 'TW-5532',
        supplierName: 'Tyre Wholesale',
        totalIncGst: 55,
      });
      expect(alias.body.purchaseInvoice).toMatchObject({
        totalAmount: '55.00',
        gstAmount: '5.00',
        subtotal: '50.00',
        invoiceDate: perthDate(),
      });

      const list = await asAdmin(api().get(`${base}/job/${job.jobId}`));
      expect(list.body.map((x: { invoiceNumber: string }) => x.invoiceNumber).sort()).toEqual([
        'TW-5531',
        'TW-5532',
      ]);
      expect((await asAdmin(api().get(`${base}/job/${randomUUID()}`))).status).toBe(404);
    });

    it('PATCH any of the fields; toggling paid sets paidAt now or null; emits PurchaseInvoiceUpdated; DELETE emits PurchaseInvoiceDeleted', async () => {
      const job = await seedJob(svc);
      const id = (
        await asAdmin(api().post(base)).send({
          jobId: job.jobId,
          invoiceNumber: 'A-1',
          supplierName: 'Battery World',
          totalAmount: '220.00',
        })
      ).body.purchaseInvoice.id;
      const total = await asAdmin(api().patch(`${base}/${id}`)).send({
        totalAmount: '330.00',
        gstAmount: '1.00',
      });
      expect(total.body.purchaseInvoice).toMatchObject({
        totalAmount: '330.00',
        gstAmount: '30.00',
        subtotal: '300.00',
      });
      const paid = await asAdmin(api().patch(`${base}/${id}`)).send({ isPaid: true });
      expect(paid.body.purchaseInvoice.isPaid).toBe(true);
      expect(Date.now() - Date.parse(paid.body.purchaseInvoice.paidAt)).toBeLessThan(60_000);
      const unpaid = await asAdmin(api().patch(`${base}/${id}`)).send({ isPaid: false });
      expect(unpaid.body.purchaseInvoice).toMatchObject({ isPaid: false, paidAt: null });
      const renamed = await asAdmin(api().patch(`${base}/${id}`)).send({
        invoiceNumber: 'A-1b',
        supplierName: 'Battery World WA',
      });
      expect(renamed.body.purchaseInvoice).toMatchObject({
        invoiceNumber: 'A-1b',
        supplierName: 'Battery World WA',
      });
      expect((await asAdmin(api().patch(`${base}/${id}`)).send({ supplierName: '' })).body.message).toBe(
        'Supplier name is required',
      );
      expect((await asAdmin(api().patch(`${base}/${id}`)).send({ totalAmount: 0 })).body.message).toBe(
        'Total must be greater than $0',
      );

      const updates = (await outbox(svc, 'purchase-invoice.updated.v1')).filter(
        (e) => e.data.purchaseInvoiceId === id,
      );
      expect(updates.map((e) => e.data.changedFields)).toEqual([
        ['totalAmount', 'gstAmount', 'subtotal'],
        ['isPaid', 'paidAt'],
        ['isPaid', 'paidAt'],
        ['invoiceNumber', 'supplierName'],
      ]);

      const del = await asAdmin(api().delete(`${base}/${id}`));
      expect(del.body.success).toBe(true);
      expect(
        (await outbox(svc, 'purchase-invoice.deleted.v1')).some((e) => e.data.purchaseInvoiceId === id),
      ).toBe(true);
      expect((await asAdmin(api().delete(`${base}/${id}`))).status).toBe(404);
    });

    it('technicians manage purchase invoices of their own jobs only', async () => {
      const tech = technician();
      const techToken = svc.token(tech);
      const mine = await seedJob(svc);
      const other = await seedJob(svc);
      await svc.publish(JobAssigned, {
        jobId: mine.jobId,
        jobNumber: mine.jobNumber,
        technicianId: tech.id,
        previousTechnicianId: null,
        scheduledDate: '2026-11-24',
        timeSlot: '10-12 AM',
        assignedBy: svc.admin.id,
        assignedAt: new Date().toISOString(),
      });
      await waitFor(
        async () =>
          (await svc.ctx.db.jobSnapshot.findUnique({ where: { jobId: mine.jobId } }))
            ?.assignedTechnicianId === tech.id,
      );
      const asTech = <T extends { set(k: string, v: string): T }>(req: T) =>
        req.set('x-identity-token', techToken);
      const body = { invoiceNumber: 'T-1', supplierName: 'Parts', totalAmount: '11.00' };
      const created = await asTech(api().post(base)).send({ ...body, jobId: mine.jobId });
      expect(created.status).toBe(201);
      expect((await asTech(api().get(`${base}/job/${mine.jobId}`))).body).toHaveLength(1);
      expect((await asTech(api().post(base)).send({ ...body, jobId: other.jobId })).status).toBe(404);
      expect((await asTech(api().get(`${base}/job/${other.jobId}`))).status).toBe(404);
      const adminOnOther = await asAdmin(api().post(base)).send({ ...body, jobId: other.jobId });
      expect(
        (await asTech(api().patch(`${base}/${adminOnOther.body.purchaseInvoice.id}`)).send({ isPaid: true }))
          .status,
      ).toBe(404);
      expect((await asTech(api().delete(`${base}/${adminOnOther.body.purchaseInvoice.id}`))).status).toBe(
        404,
      );
      expect(
        (await asTech(api().patch(`${base}/${created.body.purchaseInvoice.id}`)).send({ isPaid: true }))
          .status,
      ).toBe(200);
    });
  });

  describe('business expenses', () => {
    const base = '/api/dashboard/business-expenses';
    const valid = {
      supplierName: 'BP',
      description: 'Fuel for van',
      amount: '88.00',
      category: 'fuel',
      expenseDate: '2026-11-18',
    };

    it('validates with the spec messages (stored-data rules included)', async () => {
      const post = (body: object) => asAdmin(api().post(base)).send({ ...valid, ...body });
      expect((await post({ supplierName: '' })).body.message).toBe('Supplier name is required');
      expect((await post({ description: '' })).body.message).toBe('Description is required');
      expect((await post({ category: '' })).body.message).toBe('Category is required');
      expect((await post({ category: undefined })).body.message).toBe('Category is required');
      expect((await post({ category: 'snacks' })).body.message).toBe('Invalid category');
      expect((await post({ expenseDate: '' })).body.message).toBe('Expense date is required');
      expect((await post({ expenseDate: 'yesterday-ish' })).body.message).toBe('Invalid date format');
      expect((await post({ dueDate: 'whenever' })).body.message).toBe('Invalid date format');
      expect((await post({ amount: 0 })).body.message).toBe('Total must be greater than $0');
      expect((await post({ amount: 'NaN' })).body.message).toBe('Total must be a valid number');
      expect((await post({ amount: '1.234' })).body.message).toBe('Must be a valid decimal amount');
    });

    it('creates with GST = amount / 11 and optional fields empty → null; lists with category and paid filters; emits ExpenseRecorded', async () => {
      const res = await asAdmin(api().post(base)).send({
        ...valid,
        invoiceNumber: '',
        dueDate: '',
        notes: '',
        gstAmount: '0.00',
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const e = res.body.expense;
      expect(e).toMatchObject({
        supplierName: 'BP',
        description: 'Fuel for van',
        amount: '88.00',
        gstAmount: '8.00',
        category: 'fuel',
        expenseDate: '2026-11-18',
        dueDate: null,
        invoiceNumber: null,
        notes: null,
        isPaid: false,
      });
      const rent = await asAdmin(api().post(base)).send({
        ...valid,
        supplierName: 'Landlord',
        description: 'Workshop rent',
        amount: 1500,
        category: 'rent',
        expenseDate: '2026-11-01T00:00:00.000Z',
        dueDate: '2026-12-01',
        isPaid: true,
      });
      expect(rent.body.expense).toMatchObject({
        amount: '1500.00',
        gstAmount: '136.36',
        expenseDate: '2026-11-01',
        isPaid: true,
        paidAt: expect.any(String),
      });
      // Every storage category is accepted (cost-of-goods-sold included); the form just does not offer it.
      expect(
        (await asAdmin(api().post(base)).send({ ...valid, category: 'cost-of-goods-sold' })).status,
      ).toBe(201);

      const fuel = await asAdmin(api().get(`${base}?category=fuel`));
      expect(fuel.body.every((x: { category: string }) => x.category === 'fuel')).toBe(true);
      expect(fuel.body.some((x: { id: string }) => x.id === e.id)).toBe(true);
      const paid = await asAdmin(api().get(`${base}?paid=true`));
      expect(paid.body.map((x: { id: string }) => x.id)).toContain(rent.body.expense.id);
      expect(paid.body.map((x: { id: string }) => x.id)).not.toContain(e.id);
      const unpaid = await asAdmin(api().get(`${base}?paid=unpaid&category=all`));
      expect(unpaid.body.map((x: { id: string }) => x.id)).toContain(e.id);
      expect((await asAdmin(api().get(`${base}?category=snacks`))).status).toBe(400);

      const recorded = (await outbox(svc, 'expense.recorded.v1')).find((x) => x.data.expenseId === e.id);
      expect(recorded?.data).toMatchObject({
        amount: '88.00',
        gstAmount: '8.00',
        category: 'fuel',
        isPaid: false,
        invoiceNumber: null,
      });
    });

    it('PATCH, mark-paid and DELETE emit ExpenseUpdated / ExpenseDeleted', async () => {
      const id = (await asAdmin(api().post(base)).send(valid)).body.expense.id;
      const patched = await asAdmin(api().patch(`${base}/${id}`)).send({
        amount: '99.00',
        notes: 'Diesel',
        dueDate: '2026-12-15',
      });
      expect(patched.body.expense).toMatchObject({
        amount: '99.00',
        gstAmount: '9.00',
        notes: 'Diesel',
        dueDate: '2026-12-15',
      });
      const cleared = await asAdmin(api().patch(`${base}/${id}`)).send({ dueDate: '' });
      expect(cleared.body.expense.dueDate).toBeNull();
      expect((await asAdmin(api().patch(`${base}/${id}`)).send({ expenseDate: null })).body.message).toBe(
        'Expense date is required',
      );
      const paid = await asAdmin(api().patch(`${base}/${id}/mark-paid`));
      expect(paid.status).toBe(200);
      expect(paid.body.expense).toMatchObject({ isPaid: true, paidAt: expect.any(String) });
      const again = await asAdmin(api().patch(`${base}/${id}/mark-paid`));
      expect(again.body.expense.paidAt).toBe(paid.body.expense.paidAt);

      const updates = (await outbox(svc, 'expense.updated.v1')).filter((x) => x.data.expenseId === id);
      expect(updates.map((x) => x.data.changedFields)).toEqual([
        ['notes', 'dueDate', 'amount', 'gstAmount'],
        ['dueDate'],
        ['isPaid', 'paidAt'],
      ]);

      expect((await asAdmin(api().delete(`${base}/${id}`))).body.success).toBe(true);
      expect((await outbox(svc, 'expense.deleted.v1')).some((x) => x.data.expenseId === id)).toBe(true);
      expect((await asAdmin(api().patch(`${base}/${id}/mark-paid`))).status).toBe(404);
    });

    it('is admin only', async () => {
      const techToken = svc.token(technician());
      expect((await api().get(base).set('x-identity-token', techToken)).status).toBe(403);
      expect((await api().post(base).set('x-identity-token', techToken).send(valid)).status).toBe(403);
      expect((await api().get(base)).status).toBe(401);
    });
  });
});
