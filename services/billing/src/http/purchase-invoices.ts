import { Router } from 'express';
import { notFound, parseOr400, requireStaff } from '@tyres/service-kit';
import type { PurchaseInvoices } from '../app/purchase-invoices';
import { isUuid } from './fields';
import { identityOf, idParam } from './params';
import { createPurchaseSchema, updatePurchaseSchema } from './schemas';
import { purchaseDto } from './serialize';

const NOT_FOUND = 'Purchase invoice not found';

/**
 * /api/dashboard/purchase-invoices: the job detail dialog's purchase invoices. Admins: every job. Technicians: the
 * jobs assigned to them (list, add, edit, delete); anything else is 404.
 */
export function purchaseInvoiceRoutes(purchases: PurchaseInvoices): Router {
  const r = Router();
  r.use(requireStaff);

  r.get('/job/:jobId', async (req, res) => {
    const list = await purchases.listForJob(idParam(req, 'jobId', 'Job not found'), identityOf(req));
    res.json(list.map(purchaseDto));
  });

  r.post('/', async (req, res) => {
    const body = parseOr400(createPurchaseSchema, req.body ?? {});
    if (!isUuid(body.jobId)) throw notFound('Job not found');
    const created = await purchases.create(
      {
        jobId: body.jobId.toLowerCase(),
        invoiceNumber: body.invoiceNumber,
        supplierName: body.supplierName,
        invoiceDate: body.invoiceDate ?? null,
        totalAmount: body.totalAmount,
        gstFree: body.gstFree,
        dueDate: body.dueDate ?? null,
        isPaid: body.isPaid,
        paidAt: body.paidAt ?? null,
        notes: body.notes ?? null,
      },
      identityOf(req),
    );
    res.status(201).json({
      success: true,
      message: 'Purchase invoice added successfully',
      purchaseInvoice: purchaseDto(created),
    });
  });

  r.patch('/:id', async (req, res) => {
    const id = idParam(req, 'id', NOT_FOUND);
    const body = parseOr400(updatePurchaseSchema, req.body ?? {});
    const updated = await purchases.update(
      id,
      {
        ...(body.invoiceNumber !== undefined ? { invoiceNumber: body.invoiceNumber } : {}),
        ...(body.supplierName !== undefined ? { supplierName: body.supplierName } : {}),
        ...(body.invoiceDate !== undefined ? { invoiceDate: body.invoiceDate } : {}),
        ...(body.totalAmount !== undefined ? { totalAmount: body.totalAmount } : {}),
        ...(body.gstFree !== undefined ? { gstFree: body.gstFree } : {}),
        ...(body.dueDate !== undefined ? { dueDate: body.dueDate } : {}),
        ...(body.isPaid !== undefined ? { isPaid: body.isPaid } : {}),
        ...(body.paidAt !== undefined ? { paidAt: body.paidAt } : {}),
        ...(body.notes !== undefined ? { notes: body.notes } : {}),
      },
      identityOf(req),
    );
    res.json({
      success: true,
      message: 'Purchase invoice updated successfully',
      purchaseInvoice: purchaseDto(updated),
    });
  });

  r.delete('/:id', async (req, res) => {
    await purchases.remove(idParam(req, 'id', NOT_FOUND), identityOf(req));
    res.json({ success: true, message: 'Purchase invoice deleted successfully' });
  });

  return r;
}
