import { Router } from 'express';
import { idempotencyRequest, notFound, parseOr400, requireAdmin, requireStaff } from '@tyres/service-kit';
import {
  INVOICE_NOT_FOUND,
  JOB_NOT_FOUND,
  type CustomerInvoices,
  type InvoiceWithJobAndItems,
} from '../app/customer-invoices';
import type { InvoiceDocuments } from '../app/invoice-documents';
import { isUuid } from './fields';
import { identityOf, idParam, sendReplied } from './params';
import {
  createInvoiceSchema,
  createItemSchema,
  emailInvoiceSchema,
  listInvoicesQuery,
  M,
  updateInvoiceSchema,
  updateItemSchema,
} from './schemas';
import { emailDeliveryDto, invoiceDto, itemDto } from './serialize';

/**
 * /api/dashboard/customer-invoices (gateway: any staff member; here admin-only except what a technician's job
 * detail needs for jobs assigned to them: generate, create, read, items while draft, PDF, email). Parses and
 * serialises; the rules are src/app's.
 */
export function customerInvoiceRoutes(deps: {
  invoices: CustomerInvoices;
  documents: InvoiceDocuments;
}): Router {
  const { invoices, documents } = deps;
  const r = Router();
  const dto = (invoice: InvoiceWithJobAndItems) => invoiceDto(invoice, invoices.today(), { items: true });

  // --- admin: invoice management tab --------------------------------------------------------------------------
  r.get('/', requireAdmin, async (req, res) => {
    const q = parseOr400(listInvoicesQuery, req.query);
    const { json, total } = await invoices.list({
      ...(q.status ? { status: q.status } : {}),
      ...(q.search ? { search: q.search } : {}),
      ...(q.jobId ? { jobId: q.jobId } : {}),
      limit: q.limit,
      offset: q.offset,
    });
    res.setHeader('X-Total-Count', String(total));
    res.type('application/json').send(json);
  });

  /** The email log across invoices (local transport recordings and SMTP deliveries). */
  r.get('/email-log', requireAdmin, async (req, res) => {
    const limit = Math.min(200, Math.max(1, Number(req.query.limit) || 50));
    res.json((await documents.recentEmails(limit)).map(emailDeliveryDto));
  });

  // --- generate / create (Idempotency-Key: the first answer is replayed) ---------------------------------------
  r.post('/generate/:jobId', requireStaff, async (req, res) => {
    const jobId = idParam(req, 'jobId', JOB_NOT_FOUND);
    const replied = await invoices.generate(jobId, identityOf(req), {
      idempotency: idempotencyRequest(req, 'generate-invoice'),
      answer: (invoice) => ({
        statusCode: 201,
        body: {
          success: true,
          message: `Invoice ${invoice.invoiceNumber} generated successfully`,
          customerInvoice: dto(invoice),
        },
      }),
    });
    sendReplied(res, replied);
  });

  r.post('/', requireStaff, async (req, res) => {
    const body = parseOr400(createInvoiceSchema, req.body ?? {});
    if (!isUuid(body.jobId)) throw notFound(JOB_NOT_FOUND);
    const replied = await invoices.create(
      {
        jobId: body.jobId.toLowerCase(),
        status: body.status,
        dueDate: body.dueDate,
        invoiceDate: body.invoiceDate ?? null,
        amountType: body.amountType,
        ...(body.subtotalAmount !== undefined ? { subtotalAmount: body.subtotalAmount } : {}),
      },
      identityOf(req),
      {
        idempotency: idempotencyRequest(req, 'create-invoice'),
        answer: (invoice) => ({
          statusCode: 201,
          body: { success: true, message: 'Invoice created successfully', customerInvoice: dto(invoice) },
        }),
      },
    );
    sendReplied(res, replied);
  });

  r.get('/job/:jobId', requireStaff, async (req, res) => {
    const list = await invoices.listForJob(idParam(req, 'jobId', JOB_NOT_FOUND), identityOf(req));
    const today = invoices.today();
    res.json(list.map((i) => invoiceDto(i, today, { items: true })));
  });

  // --- one invoice ------------------------------------------------------------------------------------------------
  r.get('/:id', requireStaff, async (req, res) => {
    res.json(dto(await invoices.get(idParam(req, 'id', INVOICE_NOT_FOUND), identityOf(req))));
  });

  r.patch('/:id', requireAdmin, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const body = parseOr400(updateInvoiceSchema, req.body ?? {});
    const invoice = await invoices.update(
      id,
      {
        ...(body.jobId !== undefined ? { jobId: body.jobId.toLowerCase() } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
        ...(body.dueDate !== undefined ? { dueDate: body.dueDate } : {}),
        ...(body.invoiceDate !== undefined ? { invoiceDate: body.invoiceDate } : {}),
        ...(body.amountType !== undefined ? { amountType: body.amountType } : {}),
        ...(body.subtotalAmount !== undefined ? { subtotalAmount: body.subtotalAmount } : {}),
      },
      identityOf(req),
    );
    res.json({ success: true, message: 'Invoice updated successfully', customerInvoice: dto(invoice) });
  });

  r.delete('/:id', requireAdmin, async (req, res) => {
    await invoices.remove(idParam(req, 'id', INVOICE_NOT_FOUND), identityOf(req));
    res.json({ success: true, message: 'Invoice deleted successfully' });
  });

  // --- line items ---------------------------------------------------------------------------------------------------
  r.get('/:id/items', requireStaff, async (req, res) => {
    const invoice = await invoices.get(idParam(req, 'id', INVOICE_NOT_FOUND), identityOf(req));
    res.json(invoice.items.map(itemDto));
  });

  r.post('/:id/items', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', M.saveInvoiceFirst);
    const body = parseOr400(createItemSchema, req.body ?? {});
    const { item, invoice } = await invoices.addItem(id, body, identityOf(req));
    res.status(201).json({
      success: true,
      message: 'Line item added successfully',
      item: itemDto(item),
      customerInvoice: dto(invoice),
    });
  });

  r.patch('/:id/items/:itemId', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const itemId = idParam(req, 'itemId', 'Line item not found');
    const body = parseOr400(updateItemSchema, req.body ?? {});
    const { item, invoice } = await invoices.updateItem(
      id,
      itemId,
      {
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.category !== undefined ? { category: body.category } : {}),
        ...(body.quantity !== undefined ? { quantity: body.quantity } : {}),
        ...(body.unitPrice !== undefined ? { unitPrice: body.unitPrice } : {}),
        ...(body.gstFree !== undefined ? { gstFree: body.gstFree } : {}),
      },
      identityOf(req),
    );
    res.json({
      success: true,
      message: 'Line item updated successfully',
      item: itemDto(item),
      customerInvoice: dto(invoice),
    });
  });

  r.delete('/:id/items/:itemId', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const itemId = idParam(req, 'itemId', 'Line item not found');
    const { invoice } = await invoices.removeItem(id, itemId, identityOf(req));
    res.json({ success: true, message: 'Line item deleted successfully', customerInvoice: dto(invoice) });
  });

  // --- PDF (built by the `pdf` worker, stored in Postgres, downloaded here by staff) -------------------------------
  r.post('/:id/pdf', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const pdf = await documents.requestPdf(id, identityOf(req), req.correlationId);
    res.status(pdf.status === 'ready' ? 200 : 202).json(pdf);
  });

  r.get('/:id/pdf', requireStaff, async (req, res) => {
    const pdf = await documents.downloadPdf(idParam(req, 'id', INVOICE_NOT_FOUND), identityOf(req));
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `attachment; filename="${pdf.filename}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(Buffer.from(pdf.content));
  });

  // --- email (the invoice email action) ---------------------------------------------------------------------------
  r.post('/:id/email', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const identity = identityOf(req);
    // The invoice (404) and its lines (400) are checked before the body, as the dashboard's messages expect.
    await documents.assertEmailable(id, identity);
    const body = parseOr400(emailInvoiceSchema, req.body ?? {});
    const sent = await documents.requestEmail(id, identity, {
      to: body.to,
      idempotencyKey: req.header('idempotency-key'),
      correlationId: req.correlationId,
    });
    if (sent.state === 'pending') {
      res.status(202).json({
        success: true,
        queued: true,
        message: `Invoice email to ${sent.to} is queued`,
        to: sent.to,
        transport: sent.transport,
      });
      return;
    }
    const local = sent.result.transport === 'local';
    res.json({
      success: true,
      message: local
        ? `SMTP is not configured: the invoice email to ${sent.to} was recorded in the local email log, not delivered`
        : `Invoice emailed to ${sent.to}`,
      to: sent.to,
      transport: sent.result.transport,
      delivered: !local,
      deliveryId: sent.result.deliveryId,
      sentAt: sent.result.sentAt,
      ...(sent.invoice ? { customerInvoice: dto(sent.invoice) } : {}),
    });
  });

  r.get('/:id/emails', requireStaff, async (req, res) => {
    const list = await documents.emailsOf(idParam(req, 'id', INVOICE_NOT_FOUND), identityOf(req));
    res.json(list.map(emailDeliveryDto));
  });

  /** The recorded message (RFC 822, attachment included) of a local-transport delivery. */
  r.get('/:id/emails/:deliveryId/message', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const identity = identityOf(req);
    // An unknown invoice is "Invoice not found" whatever the delivery id.
    await invoices.get(id, identity);
    const deliveryId = idParam(req, 'deliveryId', 'Email not found');
    const email = await documents.recordedEmail(id, deliveryId, identity);
    res.setHeader('Content-Type', 'message/rfc822');
    res.setHeader('Content-Disposition', `attachment; filename="${email.invoiceNumber}-email.eml"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(email.rawMessage);
  });

  return r;
}
