import { Router, type Request } from 'express';
import {
  badRequest,
  forbidden,
  HttpError,
  notFound,
  parseOr400,
  requireAdmin,
  requireStaff,
} from '@tyres/service-kit';
import type { Redis } from 'ioredis';
import type { BillingContext } from '../context';
import { pdfDownloadPath } from '../db/pdfs';
import { perthDate } from '../domain/dates';
import { invoiceFilename } from '../domain/invoice-document';
import type { EmailJobResult, PdfJobResult } from '../workers';
import { emailJobId, pdfJobId } from '../workers/queues';
import { isUuid } from './fields';
import { idempotent } from './idempotency';
import { identityOf, idParam } from './params';
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

const INVOICE_NOT_FOUND = 'Invoice not found';

/**
 * /api/dashboard/customer-invoices (gateway: any staff member; here admin-only except what a technician's job
 * detail needs for jobs assigned to them: generate, create, read, items while draft, PDF, email).
 */
export function customerInvoiceRoutes(ctx: BillingContext, redis: Redis): Router {
  const r = Router();
  const today = () => perthDate(ctx.clock());

  // --- admin: invoice management tab --------------------------------------------------------------------------
  r.get('/', requireAdmin, async (req, res) => {
    const q = parseOr400(listInvoicesQuery, req.query);
    const { json, total } = await ctx.invoices.list({
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
    res.json((await ctx.emails.recent(limit)).map(emailDeliveryDto));
  });

  // --- generate / create ----------------------------------------------------------------------------------------
  r.post(
    '/generate/:jobId',
    requireStaff,
    idempotent(redis, ctx.config.REDIS_PREFIX, 'generate-invoice'),
    async (req, res) => {
      const jobId = idParam(req, 'jobId', 'Job not found');
      const invoice = await ctx.invoices.generate(jobId, identityOf(req));
      res.status(201).json({
        success: true,
        message: `Invoice ${invoice.invoiceNumber} generated successfully`,
        customerInvoice: invoiceDto(invoice, today(), { items: true }),
      });
    },
  );

  r.post(
    '/',
    requireStaff,
    idempotent(redis, ctx.config.REDIS_PREFIX, 'create-invoice'),
    async (req, res) => {
      const body = parseOr400(createInvoiceSchema, req.body ?? {});
      if (!isUuid(body.jobId)) throw notFound('Job not found');
      if (identityOf(req).role !== 'admin' && body.status !== 'draft')
        throw forbidden('Only an admin can set the status of an invoice');
      const invoice = await ctx.invoices.create(
        {
          jobId: body.jobId.toLowerCase(),
          status: body.status,
          dueDate: body.dueDate,
          invoiceDate: body.invoiceDate ?? null,
          ...(body.subtotalAmount !== undefined ? { subtotalAmount: body.subtotalAmount } : {}),
        },
        identityOf(req),
      );
      res.status(201).json({
        success: true,
        message: 'Invoice created successfully',
        customerInvoice: invoiceDto(invoice, today(), { items: true }),
      });
    },
  );

  r.get('/job/:jobId', requireStaff, async (req, res) => {
    const jobId = idParam(req, 'jobId', 'Job not found');
    const invoices = await ctx.invoices.listForJob(jobId, identityOf(req));
    if (!invoices) throw notFound('Job not found');
    const t = today();
    res.json(invoices.map((i) => invoiceDto(i, t, { items: true })));
  });

  // --- one invoice ------------------------------------------------------------------------------------------------
  const load = async (req: Request) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const invoice = await ctx.invoices.get(id, identityOf(req));
    if (!invoice) throw notFound(INVOICE_NOT_FOUND);
    return invoice;
  };

  r.get('/:id', requireStaff, async (req, res) => {
    res.json(invoiceDto(await load(req), today(), { items: true }));
  });

  r.patch('/:id', requireAdmin, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const body = parseOr400(updateInvoiceSchema, req.body ?? {});
    if (body.jobId !== undefined) {
      const current = await ctx.invoices.get(id, identityOf(req));
      if (!current) throw notFound(INVOICE_NOT_FOUND);
      if (body.jobId.toLowerCase() !== current.jobId)
        throw badRequest('An invoice cannot be moved to another job');
    }
    const invoice = await ctx.invoices.update(
      id,
      {
        ...(body.status !== undefined ? { status: body.status } : {}),
        ...(body.dueDate !== undefined ? { dueDate: body.dueDate } : {}),
        ...(body.invoiceDate !== undefined ? { invoiceDate: body.invoiceDate } : {}),
        ...(body.subtotalAmount !== undefined ? { subtotalAmount: body.subtotalAmount } : {}),
      },
      identityOf(req),
    );
    res.json({
      success: true,
      message: 'Invoice updated successfully',
      customerInvoice: invoiceDto(invoice, today(), { items: true }),
    });
  });

  r.delete('/:id', requireAdmin, async (req, res) => {
    await ctx.invoices.remove(idParam(req, 'id', INVOICE_NOT_FOUND), identityOf(req));
    res.json({ success: true, message: 'Invoice deleted successfully' });
  });

  // --- line items ---------------------------------------------------------------------------------------------------
  r.get('/:id/items', requireStaff, async (req, res) => {
    res.json((await load(req)).items.map(itemDto));
  });

  r.post('/:id/items', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', M.saveInvoiceFirst);
    const body = parseOr400(createItemSchema, req.body ?? {});
    const { item, invoice } = await ctx.invoices.addItem(id, body, identityOf(req));
    res.status(201).json({
      success: true,
      message: 'Line item added successfully',
      item: itemDto(item),
      customerInvoice: invoiceDto(invoice, today(), { items: true }),
    });
  });

  r.patch('/:id/items/:itemId', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const itemId = idParam(req, 'itemId', 'Line item not found');
    const body = parseOr400(updateItemSchema, req.body ?? {});
    const { item, invoice } = await ctx.invoices.updateItem(
      id,
      itemId,
      {
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.category !== undefined ? { category: body.category } : {}),
        ...(body.quantity !== undefined ? { quantity: body.quantity } : {}),
        ...(body.unitPrice !== undefined ? { unitPrice: body.unitPrice } : {}),
      },
      identityOf(req),
    );
    res.json({
      success: true,
      message: 'Line item updated successfully',
      item: itemDto(item),
      customerInvoice: invoiceDto(invoice, today(), { items: true }),
    });
  });

  r.delete('/:id/items/:itemId', requireStaff, async (req, res) => {
    const id = idParam(req, 'id', INVOICE_NOT_FOUND);
    const itemId = idParam(req, 'itemId', 'Line item not found');
    const { invoice } = await ctx.invoices.removeItem(id, itemId, identityOf(req));
    res.json({
      success: true,
      message: 'Line item deleted successfully',
      customerInvoice: invoiceDto(invoice, today(), { items: true }),
    });
  });

  // --- PDF (built by the `pdf` worker, stored in Postgres, downloaded here by staff) -------------------------------
  r.post('/:id/pdf', requireStaff, async (req, res) => {
    const invoice = await load(req);
    if (invoice.items.length === 0) throw badRequest(M.addLineItem, undefined, 'no_line_items');
    const answer = {
      downloadUrl: pdfDownloadPath(invoice.id),
      filename: invoiceFilename(invoice.invoiceNumber),
      invoiceNumber: invoice.invoiceNumber,
    };
    if ((await ctx.pdfs.revisionOf(invoice.id)) === invoice.revision) {
      res.json({ ...answer, status: 'ready' });
      return;
    }
    const result = await ctx.queues.runPdf<PdfJobResult>(
      { invoiceId: invoice.id, revision: invoice.revision, correlationId: req.correlationId },
      pdfJobId(invoice.id, invoice.revision),
      ctx.config.JOB_WAIT_MS,
    );
    if (result.state === 'failed') {
      ctx.logger.error({ invoiceId: invoice.id, err: result.error.message }, 'invoice pdf failed');
      throw new HttpError(500, 'Failed to generate the invoice PDF. Please try again.', 'pdf_failed');
    }
    res
      .status(result.state === 'completed' ? 200 : 202)
      .json({ ...answer, status: result.state === 'completed' ? 'ready' : 'pending' });
  });

  r.get('/:id/pdf', requireStaff, async (req, res) => {
    const invoice = await load(req);
    let pdf = await ctx.pdfs.current(invoice.id, invoice.revision);
    if (!pdf) {
      // A generation for this revision may be running: wait for it rather than fail the download.
      const job = await ctx.queues.pdf.getJob(pdfJobId(invoice.id, invoice.revision));
      if (job && !(await job.isCompleted()) && !(await job.isFailed())) {
        await job.waitUntilFinished(ctx.queues.pdfEvents, ctx.config.JOB_WAIT_MS).catch(() => undefined);
        pdf = await ctx.pdfs.current(invoice.id, invoice.revision);
      }
    }
    if (!pdf) {
      throw notFound(
        'No PDF has been generated for the current version of this invoice. Generate the PDF first.',
      );
    }
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Disposition', `attachment; filename="${pdf.filename}"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(Buffer.from(pdf.content));
  });

  // --- email (the invoice email action) ---------------------------------------------------------------------------
  r.post('/:id/email', requireStaff, async (req, res) => {
    const invoice = await load(req);
    if (invoice.items.length === 0) throw badRequest(M.addLineItem, undefined, 'no_line_items');
    const body = parseOr400(emailInvoiceSchema, req.body ?? {});
    const to = body.to ?? invoice.job.customerEmail;
    const jobId = emailJobId(invoice.id, invoice.revision, to, req.header('idempotency-key'));
    const result = await ctx.queues.runEmail<EmailJobResult>(
      {
        invoiceId: invoice.id,
        revision: invoice.revision,
        to,
        requestedBy: identityOf(req).id,
        correlationId: req.correlationId,
      },
      jobId,
      ctx.config.JOB_WAIT_MS,
    );
    if (result.state === 'failed') {
      throw new HttpError(502, `Failed to send the invoice email: ${result.error.message}`, 'email_failed');
    }
    if (result.state === 'pending') {
      res.status(202).json({
        success: true,
        queued: true,
        message: `Invoice email to ${to} is queued`,
        to,
        transport: ctx.mailer.transport,
      });
      return;
    }
    const updated = await ctx.invoices.get(invoice.id, identityOf(req));
    const local = result.result.transport === 'local';
    res.json({
      success: true,
      message: local
        ? `SMTP is not configured: the invoice email to ${to} was recorded in the local email log, not delivered`
        : `Invoice emailed to ${to}`,
      to,
      transport: result.result.transport,
      delivered: !local,
      deliveryId: result.result.deliveryId,
      sentAt: result.result.sentAt,
      ...(updated ? { customerInvoice: invoiceDto(updated, today(), { items: true }) } : {}),
    });
  });

  r.get('/:id/emails', requireStaff, async (req, res) => {
    const invoice = await load(req);
    res.json((await ctx.emails.listForInvoice(invoice.id)).map(emailDeliveryDto));
  });

  /** The recorded message (RFC 822, attachment included) of a local-transport delivery. */
  r.get('/:id/emails/:deliveryId/message', requireStaff, async (req, res) => {
    const invoice = await load(req);
    const deliveryId = idParam(req, 'deliveryId', 'Email not found');
    const delivery = await ctx.emails.get(deliveryId);
    if (!delivery || delivery.customerInvoiceId !== invoice.id || !delivery.rawMessage)
      throw notFound('Email not found');
    res.setHeader('Content-Type', 'message/rfc822');
    res.setHeader('Content-Disposition', `attachment; filename="${invoice.invoiceNumber}-email.eml"`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.send(delivery.rawMessage);
  });

  return r;
}
