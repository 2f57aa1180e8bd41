import { Worker, UnrecoverableError, type Job } from 'bullmq';
import { createRedis, runWithContext } from '@tyres/service-kit';
import { randomUUID } from 'node:crypto';
import type { BillingContext } from '../context';
import { invoiceEmailContent } from '../domain/invoice-email';
import { bullPrefix, EMAIL_QUEUE, PDF_QUEUE, type EmailJobData, type PdfJobData } from './queues';
import { generateInvoicePdf } from './invoice-pdf';

export interface PdfJobResult {
  invoiceId: string;
  revision: number;
  filename: string;
  sizeBytes: number;
  skipped?: string;
}

export interface EmailJobResult {
  deliveryId?: string;
  transport?: 'smtp' | 'local';
  to?: string;
  messageId?: string | null;
  sentAt?: string;
  skipped?: string;
}

/** The `pdf` processor: thin, renders the invoice's current state and stores it. */
export function pdfProcessor(ctx: BillingContext) {
  return async (job: Job<PdfJobData>): Promise<PdfJobResult> => {
    const { invoiceId } = job.data;
    return runWithContext({ correlationId: job.data.correlationId ?? randomUUID() }, async () => {
      const pdf = await generateInvoicePdf(ctx, invoiceId);
      if (!pdf)
        return {
          invoiceId,
          revision: job.data.revision,
          filename: '',
          sizeBytes: 0,
          skipped: 'invoice deleted',
        };
      ctx.logger.info({ invoiceId, revision: pdf.revision, bytes: pdf.sizeBytes }, 'invoice pdf generated');
      return { invoiceId, revision: pdf.revision, filename: pdf.filename, sizeBytes: pdf.sizeBytes };
    });
  };
}

/**
 * The `email` processor: the invoice PDF (current revision, built if needed) to the customer with nodemailer,
 * logged in email_deliveries, then sentAt/status sent on the invoice (CustomerInvoiceUpdated through the outbox).
 * A retry after a successful send does not send again (the delivery row is keyed by the job id).
 */
export function emailProcessor(ctx: BillingContext) {
  return async (job: Job<EmailJobData>): Promise<EmailJobResult> => {
    const { invoiceId, to } = job.data;
    return runWithContext({ correlationId: job.data.correlationId ?? randomUUID() }, async () => {
      const invoice = await ctx.db.customerInvoice.findUnique({
        where: { id: invoiceId },
        include: { job: true, items: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] } },
      });
      if (!invoice) return { skipped: 'invoice deleted' };
      if (invoice.items.length === 0)
        throw new UnrecoverableError('Please add at least one line item to the invoice.');
      const content = invoiceEmailContent(invoice, ctx.business);
      const delivery = await ctx.emails.begin({
        jobKey: job.id ?? `${invoiceId}-${job.timestamp}`,
        customerInvoiceId: invoiceId,
        invoiceNumber: invoice.invoiceNumber,
        to,
        subject: content.subject,
        transport: ctx.mailer.transport,
        requestedBy: job.data.requestedBy,
      });
      let sentAt = delivery.sentAt;
      if (delivery.status !== 'sent') {
        const stored = await ctx.pdfs.current(invoiceId, invoice.revision);
        const pdf = stored
          ? { filename: stored.filename, content: Buffer.from(stored.content) }
          : await generateInvoicePdf(ctx, invoiceId);
        if (!pdf) return { skipped: 'invoice deleted' };
        const attachment = { filename: pdf.filename, content: pdf.content, contentType: 'application/pdf' };
        try {
          const sent = await ctx.mailer.send({
            from: ctx.config.EMAIL_FROM,
            to,
            ...content,
            attachments: [attachment],
          });
          sentAt = ctx.clock();
          await ctx.emails.markSent(delivery.id, {
            messageId: sent.messageId,
            ...(sent.raw !== undefined ? { raw: sent.raw } : {}),
            attachments: [
              {
                filename: attachment.filename,
                contentType: attachment.contentType,
                size: attachment.content.length,
              },
            ],
            at: sentAt,
          });
          if (ctx.mailer.transport === 'local') {
            ctx.logger.warn(
              { invoiceId, deliveryId: delivery.id },
              'invoice email recorded by the LOCAL transport (not delivered): set SMTP_URL to send email',
            );
          } else {
            ctx.logger.info(
              { invoiceId, deliveryId: delivery.id, messageId: sent.messageId },
              'invoice email sent',
            );
          }
        } catch (err) {
          await ctx.emails
            .markFailed(delivery.id, err instanceof Error ? err.message : String(err))
            .catch(() => undefined);
          throw err;
        }
      }
      await ctx.invoices.markSent(invoiceId, sentAt ?? ctx.clock());
      return {
        deliveryId: delivery.id,
        transport: ctx.mailer.transport,
        to,
        messageId: delivery.messageId,
        sentAt: (sentAt ?? ctx.clock()).toISOString(),
      };
    });
  };
}

export interface BillingWorkers {
  close(): Promise<void>;
}

/** Starts the pdf and email workers (own blocking connections, maxRetriesPerRequest null). */
export function startWorkers(ctx: BillingContext): BillingWorkers {
  const prefix = bullPrefix(ctx.config.REDIS_PREFIX);
  const pdfConnection = createRedis(ctx.config.REDIS_URL, 'worker');
  const emailConnection = createRedis(ctx.config.REDIS_URL, 'worker');
  const connections = [pdfConnection, emailConnection];
  for (const c of connections)
    c.on('error', (err) => ctx.logger.warn({ err: err.message }, 'worker redis connection problem'));
  const pdf = new Worker<PdfJobData, PdfJobResult>(PDF_QUEUE, pdfProcessor(ctx), {
    connection: pdfConnection,
    prefix,
    concurrency: ctx.config.PDF_CONCURRENCY,
  });
  const email = new Worker<EmailJobData, EmailJobResult>(EMAIL_QUEUE, emailProcessor(ctx), {
    connection: emailConnection,
    prefix,
    concurrency: ctx.config.EMAIL_CONCURRENCY,
  });
  for (const worker of [pdf, email]) {
    worker.on('error', (err) => ctx.logger.warn({ err: err.message, queue: worker.name }, 'worker error'));
    worker.on('failed', (job, err) =>
      ctx.logger.warn(
        { queue: worker.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
        'job attempt failed',
      ),
    );
  }
  return {
    async close() {
      // Waits for running jobs to finish; no new ones are taken.
      await Promise.allSettled([pdf.close(), email.close()]);
      await Promise.allSettled(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
