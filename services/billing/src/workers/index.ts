import { Worker, type Job } from 'bullmq';
import { createRedis, type Logger } from '@tyres/service-kit';
import type { EmailJobResult, InvoiceDocuments, PdfJobResult } from '../app/invoice-documents';
import type { Refunds } from '../app/refunds';
import { REFUND_QUEUE, type RefundJobData } from './refund-queue';
import { bullPrefix, EMAIL_QUEUE, PDF_QUEUE, type EmailJobData, type PdfJobData } from './queues';
import { queueTelemetry } from '@tyres/telemetry';

export type { EmailJobResult, PdfJobResult } from '../app/invoice-documents';

/** The `pdf` processor: thin, the work is InvoiceDocuments.pdfJob. */
export const pdfProcessor = (documents: InvoiceDocuments) => (job: Job<PdfJobData>) =>
  documents.pdfJob(job.data);

/** The `email` processor: thin; one delivery row per job id, so a retried job never sends twice. */
export const emailProcessor = (documents: InvoiceDocuments) => (job: Job<EmailJobData>) =>
  documents.emailJob(job.id ?? `${job.data.invoiceId}-${job.timestamp}`, job.data);

/** The `refund` processor: thin; the attempt number tells the last attempt, after which the refund is failed. */
export const refundProcessor = (refunds: Refunds) => (job: Job<RefundJobData>) =>
  refunds.refundJob(job.data.refundId, { number: job.attemptsMade + 1, of: job.opts.attempts ?? 1 });

export interface BillingWorkers {
  close(): Promise<void>;
}

export interface WorkerOptions {
  redisUrl: string;
  redisPrefix: string;
  pdfConcurrency: number;
  emailConcurrency: number;
  logger: Logger;
}

/** Starts the pdf, email and refund workers (own blocking connections, maxRetriesPerRequest null). */
export function startWorkers(
  documents: InvoiceDocuments,
  refunds: Refunds,
  options: WorkerOptions,
): BillingWorkers {
  const { logger } = options;
  const prefix = bullPrefix(options.redisPrefix);
  const pdfConnection = createRedis(options.redisUrl, 'worker');
  const emailConnection = createRedis(options.redisUrl, 'worker');
  const refundConnection = createRedis(options.redisUrl, 'worker');
  const connections = [pdfConnection, emailConnection, refundConnection];
  for (const c of connections)
    c.on('error', (err) => logger.warn({ err: err.message }, 'worker redis connection problem'));
  const pdf = new Worker<PdfJobData, PdfJobResult>(PDF_QUEUE, pdfProcessor(documents), {
    connection: pdfConnection,
    prefix,
    concurrency: options.pdfConcurrency,
    // Each job runs in a span continuing the request that asked for the PDF or the email.
    telemetry: queueTelemetry('billing'),
  });
  const email = new Worker<EmailJobData, EmailJobResult>(EMAIL_QUEUE, emailProcessor(documents), {
    connection: emailConnection,
    prefix,
    concurrency: options.emailConcurrency,
    telemetry: queueTelemetry('billing'),
  });
  const refund = new Worker<RefundJobData>(REFUND_QUEUE, refundProcessor(refunds), {
    connection: refundConnection,
    prefix,
    concurrency: 2,
    telemetry: queueTelemetry('billing'),
  });
  for (const worker of [pdf, email, refund]) {
    worker.on('error', (err) => logger.warn({ err: err.message, queue: worker.name }, 'worker error'));
    worker.on('failed', (job, err) =>
      logger.warn(
        { queue: worker.name, jobId: job?.id, attempt: job?.attemptsMade, err: err.message },
        'job attempt failed',
      ),
    );
  }
  return {
    async close() {
      // Waits for running jobs to finish; no new ones are taken. With Redis unreachable nothing can be running, and
      // BullMQ would wait for a connection that never comes: drop the connections and close without waiting.
      const reachable = connections.every((c) => c.status === 'ready');
      if (!reachable) for (const c of connections) c.disconnect();
      await Promise.allSettled([pdf.close(!reachable), email.close(!reachable), refund.close(!reachable)]);
      if (reachable) await Promise.allSettled(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}
