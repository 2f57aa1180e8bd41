import { perthDate } from '@tyres/kernel';
import {
  badRequest,
  HttpError,
  notFound,
  runWithContext,
  serviceUnavailable,
  type Identity,
  type Logger,
} from '@tyres/service-kit';
import { UnrecoverableError } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { findInvoice, type InvoiceWithJobAndItems } from '../db/customer-invoices';
import type { EmailDeliveryRepository } from '../db/email-deliveries';
import type { CustomerInvoicePdf, EmailDelivery } from '../db/generated/client';
import type { Db } from '../db/client';
import { pdfDownloadPath, type PdfStore } from '../db/pdfs';
import { invoiceDocument, invoiceFilename, type BusinessDetails } from '../domain/invoice-document';
import { invoiceEmailContent, receiptEmailContent } from '../domain/invoice-email';
import { findPayment } from '../db/payments';
import type { Mailer } from '../workers/mailer';
import {
  emailJobId,
  pdfJobId,
  QueueUnavailable,
  type BillingQueues,
  type EmailJobData,
  type PdfJobData,
} from '../workers/queues';
import type { CustomerInvoices } from './customer-invoices';

/** The spec's message when a PDF or email is asked for an invoice without lines. */
export const ADD_LINE_ITEM = 'Please add at least one line item to the invoice.';

/**
 * Issue 18 (privacy): an erased customer's invoice is kept for the tax records but is never emailed: their address
 * is gone (an undeliverable placeholder), and sending it anywhere else would re-identify them.
 */
export const CUSTOMER_ERASED_NO_EMAIL =
  "This invoice's customer was erased on request, so it cannot be emailed. Download the PDF to keep a copy.";

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

export interface GeneratedPdf {
  invoiceId: string;
  revision: number;
  filename: string;
  sizeBytes: number;
  content: Buffer;
}

/** The answer to "make the PDF": ready (built for the current revision) or still pending in the queue. */
export interface PdfRequest {
  downloadUrl: string;
  filename: string;
  invoiceNumber: string;
  status: 'ready' | 'pending';
}

export type EmailRequest =
  | { state: 'pending'; to: string; transport: 'smtp' | 'local' }
  | {
      state: 'sent';
      to: string;
      result: EmailJobResult;
      /** The invoice after the send (status sent, sentAt), unless it was deleted meanwhile. */
      invoice: InvoiceWithJobAndItems | undefined;
    };

export interface InvoiceDocumentDeps {
  db: Db;
  invoices: Pick<CustomerInvoices, 'get' | 'find' | 'markSent'>;
  pdfs: PdfStore;
  emails: EmailDeliveryRepository;
  queues: BillingQueues;
  mailer: Mailer;
  renderPdf: (doc: ReturnType<typeof invoiceDocument>) => Promise<Buffer>;
  business: BusinessDetails;
  emailFrom: string;
  /** The "Pay now" links printed on invoice emails and PDFs (issue 18); none without it. */
  payLinks?: { issueLink(invoice: InvoiceWithJobAndItems): Promise<string | undefined> };
  /** How long a request waits for its pdf/email job before answering "still queued". */
  jobWaitMs: number;
  logger: Logger;
  clock: () => Date;
}

/**
 * The invoice PDF (built by the `pdf` worker, stored in Postgres so every replica serves it) and the invoice email
 * (sent by the `email` worker, logged in email_deliveries). Requests queue a job with a deterministic id (a double
 * click is one job) and wait a bounded time for it; the workers' processors call `buildPdf` and `deliverEmail`.
 */
export class InvoiceDocuments {
  constructor(private readonly deps: InvoiceDocumentDeps) {}

  /** Redis (the pdf/email queues) unreachable: 503 with Retry-After, never 500. */
  private async queued<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof QueueUnavailable)) throw err;
      this.deps.logger.warn({ err: err.message }, 'invoice pdf/email queue unavailable');
      throw serviceUnavailable(
        'Invoice PDFs and emails are unavailable right now. Please try again in a minute.',
        30,
        'queue_unavailable',
      );
    }
  }

  private async invoiceWithLines(id: string, identity: Identity): Promise<InvoiceWithJobAndItems> {
    const invoice = await this.deps.invoices.get(id, identity);
    if (invoice.items.length === 0) throw badRequest(ADD_LINE_ITEM, undefined, 'no_line_items');
    return invoice;
  }

  /** Whether the job's customer was erased on request (billing's tombstone from CustomerErased). */
  private async customerErased(jobId: string | null): Promise<boolean> {
    if (!jobId) return false;
    return (await this.deps.db.erasedJob.findUnique({ where: { jobId }, select: { jobId: true } })) !== null;
  }

  /**
   * 404 for an invoice the identity cannot see, 400 when it has no lines: what PDF and email refuse first; 409 when
   * its customer was erased (an email has no one to go to).
   */
  async assertEmailable(id: string, identity: Identity): Promise<void> {
    const invoice = await this.invoiceWithLines(id, identity);
    if (await this.customerErased(invoice.jobId))
      throw new HttpError(409, CUSTOMER_ERASED_NO_EMAIL, 'customer_erased');
  }

  /** POST …/pdf: ready when the current revision's PDF exists or is built within the wait, else pending. */
  async requestPdf(id: string, identity: Identity, correlationId: string | undefined): Promise<PdfRequest> {
    const invoice = await this.invoiceWithLines(id, identity);
    const answer = {
      downloadUrl: pdfDownloadPath(invoice.id),
      filename: invoiceFilename(invoice.invoiceNumber),
      invoiceNumber: invoice.invoiceNumber,
    };
    if ((await this.deps.pdfs.revisionOf(invoice.id)) === invoice.revision)
      return { ...answer, status: 'ready' };
    const result = await this.queued(() =>
      this.deps.queues.runPdf<PdfJobResult>(
        { invoiceId: invoice.id, revision: invoice.revision, ...(correlationId ? { correlationId } : {}) },
        pdfJobId(invoice.id, invoice.revision),
        this.deps.jobWaitMs,
      ),
    );
    if (result.state === 'failed') {
      this.deps.logger.error({ invoiceId: invoice.id, err: result.error.message }, 'invoice pdf failed');
      throw new HttpError(500, 'Failed to generate the invoice PDF. Please try again.', 'pdf_failed');
    }
    return { ...answer, status: result.state === 'completed' ? 'ready' : 'pending' };
  }

  /** GET …/pdf: the current revision's PDF (waiting for a running build of it); 404 when none was built. */
  async downloadPdf(id: string, identity: Identity): Promise<CustomerInvoicePdf> {
    const invoice = await this.deps.invoices.get(id, identity);
    let pdf = await this.deps.pdfs.current(invoice.id, invoice.revision);
    if (!pdf) {
      // A generation for this revision may be running: wait for it rather than fail the download.
      const { queues } = this.deps;
      const job = await this.queued(() =>
        queues.pdf.getJob(pdfJobId(invoice.id, invoice.revision)).catch((err: unknown) => {
          throw new QueueUnavailable(err);
        }),
      );
      if (job && !(await job.isCompleted()) && !(await job.isFailed())) {
        await job.waitUntilFinished(queues.pdfEvents, this.deps.jobWaitMs).catch(() => undefined);
        pdf = await this.deps.pdfs.current(invoice.id, invoice.revision);
      }
    }
    if (!pdf)
      throw notFound(
        'No PDF has been generated for the current version of this invoice. Generate the PDF first.',
      );
    return pdf;
  }

  /**
   * POST …/email: the invoice's PDF to the customer (or `to`) from the `email` job. The same recipient, revision and
   * Idempotency-Key make the same job, so a double click sends once.
   */
  async requestEmail(
    id: string,
    identity: Identity,
    request: {
      to?: string | undefined;
      idempotencyKey?: string | undefined;
      correlationId?: string | undefined;
    },
  ): Promise<EmailRequest> {
    const invoice = await this.invoiceWithLines(id, identity);
    if (await this.customerErased(invoice.jobId))
      throw new HttpError(409, CUSTOMER_ERASED_NO_EMAIL, 'customer_erased');
    const to = request.to ?? invoice.job.customerEmail;
    const result = await this.queued(() =>
      this.deps.queues.runEmail<EmailJobResult>(
        {
          invoiceId: invoice.id,
          revision: invoice.revision,
          to,
          requestedBy: identity.id,
          ...(request.correlationId ? { correlationId: request.correlationId } : {}),
        },
        emailJobId(invoice.id, invoice.revision, to, request.idempotencyKey),
        this.deps.jobWaitMs,
      ),
    );
    if (result.state === 'failed')
      throw new HttpError(502, `Failed to send the invoice email: ${result.error.message}`, 'email_failed');
    if (result.state === 'pending') return { state: 'pending', to, transport: this.deps.mailer.transport };
    return {
      state: 'sent',
      to,
      result: result.result,
      invoice: await this.deps.invoices.find(invoice.id, identity),
    };
  }

  async emailsOf(id: string, identity: Identity): Promise<EmailDelivery[]> {
    const invoice = await this.deps.invoices.get(id, identity);
    return this.deps.emails.listForInvoice(invoice.id);
  }

  /** The recorded message (RFC 822, attachment included) of a local-transport delivery of the invoice. */
  async recordedEmail(
    id: string,
    deliveryId: string,
    identity: Identity,
  ): Promise<{ invoiceNumber: string; rawMessage: string }> {
    const invoice = await this.deps.invoices.get(id, identity);
    const delivery = await this.deps.emails.get(deliveryId);
    if (!delivery || delivery.customerInvoiceId !== invoice.id || !delivery.rawMessage)
      throw notFound('Email not found');
    return { invoiceNumber: invoice.invoiceNumber, rawMessage: delivery.rawMessage };
  }

  /** The email log across invoices (local transport recordings and SMTP deliveries). */
  recentEmails(limit: number): Promise<EmailDelivery[]> {
    return this.deps.emails.recent(limit);
  }

  // --- the workers' side -------------------------------------------------------------------------------------------

  /** Builds the invoice's PDF from its current state and stores it; undefined when the invoice is gone. */
  async buildPdf(invoiceId: string): Promise<GeneratedPdf | undefined> {
    const invoice = await findInvoice(this.deps.db, invoiceId);
    if (!invoice) return undefined;
    const payUrl = await this.deps.payLinks?.issueLink(invoice);
    const content = await this.deps.renderPdf(
      invoiceDocument(invoice, this.deps.business, perthDate(this.deps.clock()), payUrl),
    );
    const filename = invoiceFilename(invoice.invoiceNumber);
    if (!(await this.deps.pdfs.save(invoice.id, invoice.revision, filename, content))) return undefined;
    return { invoiceId, revision: invoice.revision, filename, sizeBytes: content.length, content };
  }

  /** The `pdf` job: renders the invoice's current state and stores it. */
  pdfJob(data: PdfJobData): Promise<PdfJobResult> {
    const { invoiceId } = data;
    return runWithContext({ correlationId: data.correlationId ?? randomUUID() }, async () => {
      const pdf = await this.buildPdf(invoiceId);
      if (!pdf)
        return { invoiceId, revision: data.revision, filename: '', sizeBytes: 0, skipped: 'invoice deleted' };
      this.deps.logger.info(
        { invoiceId, revision: pdf.revision, bytes: pdf.sizeBytes },
        'invoice pdf generated',
      );
      return { invoiceId, revision: pdf.revision, filename: pdf.filename, sizeBytes: pdf.sizeBytes };
    });
  }

  /**
   * The `email` job: the invoice PDF (current revision, built if needed) to the customer with nodemailer, logged in
   * email_deliveries, then sentAt/status sent on the invoice (CustomerInvoiceUpdated through the outbox). A retry
   * after a successful send does not send again (the delivery row is keyed by the job id).
   */
  emailJob(jobKey: string, data: EmailJobData): Promise<EmailJobResult> {
    const { invoiceId, to } = data;
    const { emails, mailer, logger, clock } = this.deps;
    return runWithContext({ correlationId: data.correlationId ?? randomUUID() }, async () => {
      const invoice = await findInvoice(this.deps.db, invoiceId);
      if (!invoice) return { skipped: 'invoice deleted' };
      if (invoice.items.length === 0) throw new UnrecoverableError(ADD_LINE_ITEM);
      // Erased after the email was queued: nothing goes out (a receipt is skipped quietly, an invoice email fails).
      if (await this.customerErased(invoice.jobId)) {
        if (data.receiptForPaymentId) return { skipped: 'customer erased' };
        throw new UnrecoverableError(CUSTOMER_ERASED_NO_EMAIL);
      }
      const receiptOf = data.receiptForPaymentId
        ? await findPayment(this.deps.db, data.receiptForPaymentId)
        : undefined;
      if (data.receiptForPaymentId && !receiptOf) return { skipped: 'payment not found' };
      const content = receiptOf
        ? receiptEmailContent(invoice, receiptOf, this.deps.business)
        : invoiceEmailContent(invoice, this.deps.business, await this.deps.payLinks?.issueLink(invoice));
      const delivery = await emails.begin({
        jobKey,
        customerInvoiceId: invoiceId,
        invoiceNumber: invoice.invoiceNumber,
        to,
        subject: content.subject,
        transport: mailer.transport,
        requestedBy: data.requestedBy,
      });
      let sentAt = delivery.sentAt;
      if (delivery.status !== 'sent') {
        const stored = await this.deps.pdfs.current(invoiceId, invoice.revision);
        const pdf = stored
          ? { filename: stored.filename, content: Buffer.from(stored.content) }
          : await this.buildPdf(invoiceId);
        if (!pdf) return { skipped: 'invoice deleted' };
        const attachment = { filename: pdf.filename, content: pdf.content, contentType: 'application/pdf' };
        try {
          const sent = await mailer.send({
            from: this.deps.emailFrom,
            to,
            ...content,
            attachments: [attachment],
          });
          sentAt = clock();
          await emails.markSent(delivery.id, {
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
          if (mailer.transport === 'local') {
            logger.warn(
              { invoiceId, deliveryId: delivery.id },
              'invoice email recorded by the LOCAL transport (not delivered): set SMTP_URL to send email',
            );
          } else {
            logger.info(
              { invoiceId, deliveryId: delivery.id, messageId: sent.messageId },
              'invoice email sent',
            );
          }
        } catch (err) {
          await emails
            .markFailed(delivery.id, err instanceof Error ? err.message : String(err))
            .catch(() => undefined);
          throw err;
        }
      }
      // A receipt is not the invoice being sent: its status and sentAt stay as they are.
      if (!receiptOf) await this.deps.invoices.markSent(invoiceId, sentAt ?? clock());
      return {
        deliveryId: delivery.id,
        transport: mailer.transport,
        to,
        messageId: delivery.messageId,
        sentAt: (sentAt ?? clock()).toISOString(),
      };
    });
  }
}
