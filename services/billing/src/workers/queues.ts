import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Queue, QueueEvents, type Job, type JobsOptions } from 'bullmq';
import { createRedis } from '@tyres/service-kit';
import type { Redis } from 'ioredis';
import { queueTelemetry } from '@tyres/telemetry';

/** Queue names (architecture section 5). */
export const PDF_QUEUE = 'pdf';
export const EMAIL_QUEUE = 'email';

/**
 * BullMQ key prefix: REDIS_PREFIX + "billing", so billing's `pdf`/`email` queues never share keys with another
 * service's queue of the same name (notify also has an `email` queue), and test suites never see each other's jobs.
 */
export const bullPrefix = (redisPrefix: string) => `${redisPrefix}billing`;

export interface PdfJobData {
  invoiceId: string;
  revision: number;
  correlationId?: string;
}

export interface EmailJobData {
  invoiceId: string;
  revision: number;
  to: string;
  requestedBy: string | null;
  correlationId?: string;
  /** A payment receipt (issue 18: the invoice paid through its pay link) rather than the invoice itself. */
  receiptForPaymentId?: string;
}

/** One receipt per payment. */
export const receiptJobId = (paymentId: string) => `invoice-receipt-${paymentId}`;

/** Deterministic job ids (no ':', BullMQ's separator): the same request collapses into one job. */
export const pdfJobId = (invoiceId: string, revision: number) => `invoice-pdf-${invoiceId}-r${revision}`;

export function emailJobId(invoiceId: string, revision: number, to: string, idempotencyKey?: string): string {
  const key = createHash('sha256')
    .update(`${to.toLowerCase()}\n${idempotencyKey ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  return `invoice-email-${invoiceId}-r${revision}-${key}`;
}

export function jobOptions(attempts: number): JobsOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

export interface BillingQueues {
  pdf: Queue<PdfJobData>;
  email: Queue<EmailJobData>;
  pdfEvents: QueueEvents;
  emailEvents: QueueEvents;
  /** Adds (or reuses) a pdf job and waits up to timeoutMs for it. */
  runPdf<R>(data: PdfJobData, jobId: string, timeoutMs: number): Promise<WaitResult<R>>;
  /** Adds (or reuses) an email job and waits up to timeoutMs for it. */
  runEmail<R>(data: EmailJobData, jobId: string, timeoutMs: number): Promise<WaitResult<R>>;
  /** Queues a payment receipt email (one job per payment), without waiting for it. */
  queueReceipt(data: EmailJobData & { receiptForPaymentId: string }): Promise<void>;
  /** Waits (bounded) for requests still waiting on a job, then closes the queues and their connections. */
  close(graceMs?: number): Promise<void>;
}

/** The job could not be queued or read back: Redis is unreachable (the producer fails fast, no offline queue). */
export class QueueUnavailable extends Error {
  constructor(cause: unknown) {
    super(`job queue unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'QueueUnavailable';
  }
}

/**
 * Producers fail fast while Redis is down; the QueueEvents listeners use blocking connections of their own and
 * connect in the background, so a Redis outage never blocks the service's boot (invoices, payments and the
 * Idempotency-Key do not need Redis; only PDFs and emails wait for it).
 */
export function createQueues(redisUrl: string, redisPrefix: string, attempts: number): BillingQueues {
  const prefix = bullPrefix(redisPrefix);
  const producer = createRedis(redisUrl, 'client');
  const connections: Redis[] = [producer];
  producer.on('error', () => undefined);
  // BullMQ's QueueEvents duplicates the connection it is given and, while Redis has never answered, waits for it
  // to connect before it can close: once closing, the duplicates stop reconnecting (the options are shared), so
  // they end and the process can exit.
  let closing = false;
  const listener = () => {
    const c = createRedis(redisUrl, 'worker', {
      retryStrategy: (times) => (closing ? null : Math.min(times * 200, 5000)),
    });
    c.on('error', () => undefined);
    connections.push(c);
    return c;
  };
  // Adding a job records a producer span and stores the trace context in the job, for the worker to continue.
  const telemetry = queueTelemetry('billing');
  const pdf = new Queue<PdfJobData>(PDF_QUEUE, {
    connection: producer,
    prefix,
    telemetry,
    defaultJobOptions: jobOptions(attempts),
  });
  const email = new Queue<EmailJobData>(EMAIL_QUEUE, {
    connection: producer,
    prefix,
    telemetry,
    defaultJobOptions: jobOptions(attempts),
  });
  const pdfEvents = new QueueEvents(PDF_QUEUE, { connection: listener(), prefix });
  const emailEvents = new QueueEvents(EMAIL_QUEUE, { connection: listener(), prefix });
  pdf.on('error', () => undefined);
  email.on('error', () => undefined);
  pdfEvents.on('error', () => undefined);
  emailEvents.on('error', () => undefined);
  const waiting = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    waiting.add(p);
    void p.finally(() => waiting.delete(p)).catch(() => undefined);
    return p;
  };
  return {
    pdf,
    email,
    pdfEvents,
    emailEvents,
    runPdf: (data, jobId, timeoutMs) =>
      track(addAndWait(pdf, pdfEvents, 'invoice-pdf', data, jobId, timeoutMs)),
    runEmail: (data, jobId, timeoutMs) =>
      track(addAndWait(email, emailEvents, 'invoice-email', data, jobId, timeoutMs)),
    async queueReceipt(data) {
      await addAndWait(
        email,
        emailEvents,
        'invoice-receipt',
        data,
        receiptJobId(data.receiptForPaymentId),
        0,
      );
    },
    async close(graceMs = 10_000) {
      closing = true;
      if (!connections.every((c) => c.status === 'ready')) {
        // Redis unreachable: no job can be running or awaited. Drop the connections; the listeners finish closing
        // in the background once their duplicates gave up (at the next retry), not holding up the shutdown.
        for (const c of connections) c.disconnect();
        void Promise.allSettled([pdfEvents.close(), emailEvents.close()]);
        await Promise.allSettled([pdf.close(), email.close()]);
        return;
      }
      if (waiting.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.allSettled([...waiting]),
          new Promise((resolve) => {
            timer = setTimeout(resolve, graceMs);
          }),
        ]);
        clearTimeout(timer);
      }
      await Promise.allSettled([pdfEvents.close(), emailEvents.close(), pdf.close(), email.close()]);
      await Promise.allSettled(connections.map((c) => c.quit().catch(() => c.disconnect())));
    },
  };
}

export type WaitResult<R> =
  { state: 'completed'; result: R } | { state: 'failed'; error: Error } | { state: 'pending' };

/**
 * Adds a job with a deterministic id (an existing one is reused; a permanently failed one is retried) and waits up
 * to `timeoutMs` for it to finish.
 */
export async function addAndWait<D, R>(
  queue: Queue<D>,
  events: QueueEvents,
  name: string,
  data: D,
  jobId: string,
  timeoutMs: number,
): Promise<WaitResult<R>> {
  let job: Job<D, R>;
  try {
    // Listening before the job can finish, so its completion is not missed; briefly, since a Redis that does not
    // answer in 2 s makes the add below fail at once anyway.
    if (timeoutMs > 0) {
      const waited = new AbortController();
      await Promise.race([
        events.waitUntilReady(),
        delay(Math.min(timeoutMs, 2000), undefined, { signal: waited.signal }).catch(() => undefined),
      ]).finally(() => waited.abort());
    }
    // BullMQ's Queue generics are loose about the job name type; the name is only a label here.
    job = (await (queue as unknown as Queue).add(name as never, data as never, {
      jobId,
    })) as unknown as Job<D, R>;
    if (await job.isFailed()) await job.retry('failed');
  } catch (err) {
    throw new QueueUnavailable(err);
  }
  if (timeoutMs <= 0) return { state: 'pending' };
  try {
    const result = (await job.waitUntilFinished(events, timeoutMs)) as R;
    return { state: 'completed', result };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Timed out, or the service is shutting down: the job stays queued and will still run.
    if (/timed out/i.test(message) || queue.closing || events.closing) return { state: 'pending' };
    return { state: 'failed', error: err instanceof Error ? err : new Error(message) };
  }
}
