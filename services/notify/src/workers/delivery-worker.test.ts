import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import pino from 'pino';
import type { Delivery, DeliveryRepository } from '../db/deliveries';
import type { DeliveryJobData } from './queues';
import { deliveryProcessor, smsSender } from './delivery-worker';
import type { SmsTransport } from './transports';

function delivery(overrides: Partial<Delivery> = {}): Delivery {
  const now = new Date();
  return {
    id: 'd1',
    key: 'sms-r1',
    channel: 'sms',
    purpose: 'technician-en-route',
    recipient: '0412 345 678',
    normalizedTo: null,
    subject: null,
    body: 'hello',
    html: null,
    replyTo: null,
    headers: null,
    jobId: null,
    requestedBy: null,
    status: 'queued',
    transport: null,
    attempts: 0,
    maxAttempts: 3,
    lastError: null,
    nextAttemptAt: null,
    providerMessageId: null,
    rawMessage: null,
    sourceEventId: null,
    correlationId: 'c1',
    requestedAt: now,
    createdAt: now,
    updatedAt: now,
    sentAt: null,
    failedAt: null,
    ...overrides,
  };
}

function fakeRepo(row: Delivery) {
  const calls: { op: string; args: unknown[] }[] = [];
  const repo = {
    get: async () => row,
    // Like the SQL: taken unless sent, or `sending` and updated within the lease; returns the row as taken.
    claim: async (id: string, transport: string, leaseMs: number) => {
      if (row.status === 'sent') return null;
      if (row.status === 'sending' && row.updatedAt.getTime() > Date.now() - leaseMs) return null;
      calls.push({ op: 'start', args: [id, transport] });
      row.status = 'sending';
      row.updatedAt = new Date();
      row.attempts += 1;
      return { ...row };
    },
    markSent: async (...args: unknown[]) => {
      calls.push({ op: 'sent', args });
    },
    markRetrying: async (...args: unknown[]) => {
      calls.push({ op: 'retrying', args });
    },
    markFailed: async (...args: unknown[]) => {
      calls.push({ op: 'failed', args });
    },
  };
  return { repo: repo as unknown as DeliveryRepository, calls };
}

const delayedTo: number[] = [];
const job = (attemptsMade: number, attempts = 3) =>
  ({
    id: 'sms-r1',
    data: { deliveryId: 'd1', correlationId: 'c1' },
    opts: { attempts },
    attemptsMade,
    moveToDelayed: async (at: number) => {
      delayedTo.push(at);
    },
  }) as unknown as Job<DeliveryJobData>;

function transport(send: SmsTransport['send']): SmsTransport & { sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    name: 'twilio',
    sent,
    send: async (m) => {
      sent.push(m);
      return send(m);
    },
  };
}

const logger = pino({ level: 'silent' });
const base = { logger, backoffMs: 1000, sendTimeoutMs: 1000 };

describe('deliveryProcessor', () => {
  it('sends to the E.164 number and logs the attempt', async () => {
    const { repo, calls } = fakeRepo(delivery());
    const t = transport(async () => ({ providerMessageId: 'SM1' }));
    const result = await deliveryProcessor({ ...base, deliveries: repo, sender: smsSender(t) })(job(0));
    expect(result).toEqual({ providerMessageId: 'SM1' });
    expect(t.sent).toEqual([{ to: '+61412345678', body: 'hello' }]);
    expect(calls.map((c) => c.op)).toEqual(['start', 'sent']);
    expect(calls[0]?.args).toEqual(['d1', 'twilio']);
    // The E.164 number is recorded with the outcome.
    expect(calls[1]?.args[2]).toMatchObject({ transport: 'twilio', normalizedTo: '+61412345678' });
  });

  it('never sends a message twice', async () => {
    const { repo, calls } = fakeRepo(delivery({ status: 'sent' }));
    const t = transport(async () => ({ providerMessageId: 'SM1' }));
    await expect(
      deliveryProcessor({ ...base, deliveries: repo, sender: smsSender(t) })(job(0)),
    ).resolves.toEqual({ skipped: 'already sent' });
    expect(t.sent).toHaveLength(0);
    expect(calls).toHaveLength(0);
  });

  it('defers a job re-run while another worker holds the message, without sending or using an attempt', async () => {
    // BullMQ handed the job to a second replica (the first lost its lock) while the first is still sending.
    const holder = new Date(Date.now() - 5_000);
    const row = delivery({ status: 'sending', attempts: 1, updatedAt: holder });
    const { repo, calls } = fakeRepo(row);
    const t = transport(async () => ({ providerMessageId: 'SM2' }));
    const outcomes: string[] = [];
    delayedTo.length = 0;
    const processor = deliveryProcessor({
      ...base,
      leaseMs: 60_000,
      deliveries: repo,
      sender: smsSender(t),
      onAttempt: (o) => outcomes.push(o),
    });
    await expect(processor(job(0), 'lock-token')).rejects.toBeInstanceOf(DelayedError);
    expect(t.sent).toHaveLength(0);
    expect(calls).toHaveLength(0);
    expect(row.attempts).toBe(1);
    expect(outcomes).toEqual(['deferred']);
    // Looked at again once the holder's lease is over.
    expect(delayedTo[0]).toBeGreaterThanOrEqual(holder.getTime() + 60_000);

    // The holder finished: the re-run finds it sent and sends nothing.
    row.status = 'sent';
    await expect(processor(job(0))).resolves.toEqual({ skipped: 'already sent' });
    expect(t.sent).toHaveLength(0);
  });

  it('takes over an attempt abandoned longer than the lease ago (a worker that crashed mid-attempt)', async () => {
    const row = delivery({ status: 'sending', attempts: 1, updatedAt: new Date(Date.now() - 120_000) });
    const { repo, calls } = fakeRepo(row);
    const t = transport(async () => ({ providerMessageId: 'SM3' }));
    const processor = deliveryProcessor({ ...base, leaseMs: 60_000, deliveries: repo, sender: smsSender(t) });
    await expect(processor(job(1))).resolves.toEqual({ providerMessageId: 'SM3' });
    expect(t.sent).toHaveLength(1);
    expect(calls.map((c) => c.op)).toEqual(['start', 'sent']);
    expect(row.attempts).toBe(2);
  });

  it('fails an invalid number at once, without calling the provider and without retry', async () => {
    const { repo, calls } = fakeRepo(delivery({ recipient: '(08) 9123 4567' }));
    const t = transport(async () => ({ providerMessageId: 'SM1' }));
    const run = deliveryProcessor({ ...base, deliveries: repo, sender: smsSender(t) })(job(0));
    await expect(run).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(run).rejects.toThrow('landline; SMS needs a mobile number');
    expect(t.sent).toHaveLength(0);
    expect(calls.map((c) => c.op)).toEqual(['start', 'failed']);
  });

  it('schedules a retry on a transient failure with the exponential delay', async () => {
    const { repo, calls } = fakeRepo(delivery());
    const t = transport(async () => {
      throw Object.assign(new Error('Service unavailable'), { status: 503 });
    });
    const before = Date.now();
    await expect(
      deliveryProcessor({ ...base, deliveries: repo, sender: smsSender(t) })(job(1)),
    ).rejects.toThrow('Service unavailable');
    expect(calls.map((c) => c.op)).toEqual(['start', 'retrying']);
    const failure = calls[1]?.args[2] as { error: string; nextAttemptAt: Date };
    expect(failure.error).toBe('Service unavailable (HTTP 503)');
    // second failure (attemptsMade 1): 1000 ms x 2
    expect(failure.nextAttemptAt.getTime() - before).toBeGreaterThanOrEqual(2000);
    expect(failure.nextAttemptAt.getTime() - before).toBeLessThan(3000);
  });

  it('marks the message failed when the attempts run out', async () => {
    const { repo, calls } = fakeRepo(delivery());
    const t = transport(async () => {
      throw Object.assign(new Error('Service unavailable'), { status: 503 });
    });
    await expect(
      deliveryProcessor({ ...base, deliveries: repo, sender: smsSender(t) })(job(2, 3)),
    ).rejects.toThrow('Service unavailable');
    expect(calls.map((c) => c.op)).toEqual(['start', 'failed']);
  });

  it('treats a provider rejection of the number as permanent', async () => {
    const { repo, calls } = fakeRepo(delivery());
    const t = transport(async () => {
      throw Object.assign(new Error("The 'To' number is not a valid phone number."), {
        status: 400,
        code: 21211,
      });
    });
    await expect(
      deliveryProcessor({ ...base, deliveries: repo, sender: smsSender(t) })(job(0)),
    ).rejects.toBeInstanceOf(UnrecoverableError);
    expect(calls.map((c) => c.op)).toEqual(['start', 'failed']);
  });

  it('reports the end of a delivery once: sent (with the transport) or given up, never a retry or a duplicate', async () => {
    const finished: unknown[] = [];
    const onFinished = (d: Delivery, result: unknown) => finished.push([d.id, result]);
    const ok = transport(async () => ({ providerMessageId: 'SM1' }));
    await deliveryProcessor({
      ...base,
      deliveries: fakeRepo(delivery()).repo,
      sender: smsSender(ok),
      onFinished,
    })(job(0));
    expect(finished).toEqual([['d1', { outcome: 'sent', transport: 'twilio' }]]);

    finished.length = 0;
    const local = { ...ok, name: 'local' as const };
    await deliveryProcessor({
      ...base,
      deliveries: fakeRepo(delivery()).repo,
      sender: smsSender(local),
      onFinished,
    })(job(0));
    expect(finished).toEqual([['d1', { outcome: 'sent', transport: 'local' }]]);

    finished.length = 0;
    const down = transport(async () => {
      throw Object.assign(new Error('Service unavailable'), { status: 503 });
    });
    const attempt = (made: number) =>
      deliveryProcessor({
        ...base,
        deliveries: fakeRepo(delivery({ attempts: made })).repo,
        sender: smsSender(down),
        onFinished,
      })(job(made, 3));
    await expect(attempt(0)).rejects.toThrow();
    expect(finished).toEqual([]); // a retry is coming
    await expect(attempt(2)).rejects.toThrow(); // the last of 3
    expect(finished).toEqual([['d1', { outcome: 'failed', error: 'Service unavailable (HTTP 503)' }]]);

    finished.length = 0;
    await deliveryProcessor({
      ...base,
      deliveries: fakeRepo(delivery({ status: 'sent' })).repo,
      sender: smsSender(ok),
      onFinished,
    })(job(0));
    expect(finished).toEqual([]); // already reported when it was sent
  });

  it('reports an invalid number as given up with the reason', async () => {
    const finished: unknown[] = [];
    const t = transport(async () => ({ providerMessageId: 'SM1' }));
    const run = deliveryProcessor({
      ...base,
      deliveries: fakeRepo(delivery({ recipient: '(08) 9123 4567' })).repo,
      sender: smsSender(t),
      onFinished: (_d, result) => finished.push(result),
    })(job(0));
    await expect(run).rejects.toBeInstanceOf(UnrecoverableError);
    expect(finished).toEqual([
      { outcome: 'failed', error: expect.stringContaining('SMS needs a mobile number') },
    ]);
  });

  it('times out a hung provider call as a transient failure', async () => {
    const { repo, calls } = fakeRepo(delivery());
    const t = transport(() => new Promise(() => undefined));
    await expect(
      deliveryProcessor({ ...base, sendTimeoutMs: 50, deliveries: repo, sender: smsSender(t) })(job(0)),
    ).rejects.toThrow('provider did not answer within 50 ms');
    expect(calls.map((c) => c.op)).toEqual(['start', 'retrying']);
  });
});
