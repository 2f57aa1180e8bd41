import { randomUUID } from 'node:crypto';
import { createEvent, CustomerInvoiceIssuedV2, CustomerInvoiceUpdatedV2, JobCompleted } from '@tyres/events';
import pino from 'pino';
import { invoiceData, jobCompletedData } from '../../test/fixtures';
import type { NewDelivery } from '../db/deliveries';
import type { MarketingContact, ReviewProgress, ReviewRepository } from '../db/reviews';
import { maskEmail, ReviewRequests, reviewRequestKey } from './review-requests';

const meta = { source: 'test', correlationId: 'c1' };

function fakes(reviewUrl: string | null = 'https://g.page/r/tyres/review') {
  const progress = new Map<string, ReviewProgress>();
  const contacts = new Map<string, MarketingContact>();
  const reviews = {
    async completed(i: {
      jobId: string;
      jobNumber: string;
      customerName: string;
      customerEmail: string;
      at: Date;
    }) {
      const p = progress.get(i.jobId) ?? { jobId: i.jobId, completedAt: null, paidAt: null };
      const next = { ...p, ...i, completedAt: p.completedAt ?? i.at } as ReviewProgress;
      progress.set(i.jobId, next);
      return next;
    },
    async paid(jobId: string, at: Date) {
      const p =
        progress.get(jobId) ?? ({ jobId, completedAt: null, paidAt: null } as unknown as ReviewProgress);
      const next = { ...p, paidAt: p.paidAt ?? at };
      progress.set(jobId, next);
      return next;
    },
    async contact(email: string, token: string) {
      const key = email.toLowerCase();
      if (!contacts.has(key)) contacts.set(key, { email: key, token, unsubscribedAt: null });
      return contacts.get(key)!;
    },
    async byToken(token: string) {
      return [...contacts.values()].find((c) => c.token === token) ?? null;
    },
    async unsubscribe(token: string, at: Date) {
      const c = [...contacts.values()].find((x) => x.token === token);
      if (!c) return null;
      c.unsubscribedAt ??= at;
      return c;
    },
  } as unknown as ReviewRepository;
  const rows = new Map<string, NewDelivery & { status: string }>();
  const removed: string[] = [];
  const requests = new ReviewRequests({
    reviews,
    deliveries: {
      withdrawOpen: async (recipient: string, purpose: string) =>
        [...rows.values()]
          .filter(
            (r) => r.recipient.toLowerCase() === recipient && r.purpose === purpose && r.status === 'queued',
          )
          .map((r) => {
            r.status = 'failed';
            return r.key;
          }),
    },
    requests: {
      enqueue: async (d: NewDelivery) => {
        if (rows.has(d.key)) return 'duplicate';
        rows.set(d.key, { ...d, status: 'queued' });
      },
    },
    queues: { email: { remove: async (key: string) => removed.push(key) } } as never,
    business: { name: 'Mobile Tyres Perth', phone: '08 6000 0000' },
    emailAttempts: 5,
    reviewUrl,
    siteUrl: 'https://tyres.example',
    logger: pino({ level: 'silent' }),
  });
  return { rows, contacts, removed, requests };
}

describe('ReviewRequests', () => {
  it('completed, then paid: one review request email with the review link, the unsubscribe link and headers', async () => {
    const { rows, contacts, requests } = fakes();
    const jobId = randomUUID();
    await expect(
      requests.jobCompleted(createEvent(JobCompleted, jobCompletedData(jobId), meta)),
    ).resolves.toBe('waiting');
    await expect(
      requests.invoicePaid(createEvent(CustomerInvoiceUpdatedV2, invoiceData(jobId), meta)),
    ).resolves.toBe('queued');
    const row = rows.get(reviewRequestKey(jobId))!;
    const token = contacts.get('jane@example.com')!.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(row).toMatchObject({ channel: 'email', purpose: 'review-request', recipient: 'Jane@Example.com' });
    expect(row.body).toContain('https://g.page/r/tyres/review');
    expect(row.body).toContain(`https://tyres.example/unsubscribe/${token}`);
    expect(row.headers).toEqual({
      'List-Unsubscribe': `<https://tyres.example/api/unsubscribe/${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('paid first (a prepaid booking: issued paid), then completed: one request; replays add none', async () => {
    const { rows, requests } = fakes();
    const jobId = randomUUID();
    const issued = createEvent(
      CustomerInvoiceIssuedV2,
      { ...invoiceData(jobId), issuedAt: '2026-11-20T00:00:00.000Z' },
      meta,
    );
    await expect(requests.invoicePaid(issued)).resolves.toBe('waiting');
    const completed = createEvent(JobCompleted, jobCompletedData(jobId), meta);
    await expect(requests.jobCompleted(completed)).resolves.toBe('queued');
    await expect(requests.jobCompleted(completed)).resolves.toBe('duplicate');
    await expect(requests.invoicePaid(issued)).resolves.toBe('duplicate');
    expect(rows.size).toBe(1);
  });

  it('an invoice that is not paid, or no REVIEW_URL: no request', async () => {
    const jobId = randomUUID();
    const a = fakes();
    await a.requests.jobCompleted(createEvent(JobCompleted, jobCompletedData(jobId), meta));
    await expect(
      a.requests.invoicePaid(createEvent(CustomerInvoiceUpdatedV2, invoiceData(jobId, 'sent'), meta)),
    ).resolves.toBe('waiting');
    expect(a.rows.size).toBe(0);
    const b = fakes(null);
    await b.requests.jobCompleted(createEvent(JobCompleted, jobCompletedData(jobId), meta));
    await expect(
      b.requests.invoicePaid(createEvent(CustomerInvoiceUpdatedV2, invoiceData(jobId), meta)),
    ).resolves.toBe('disabled');
    expect(b.rows.size).toBe(0);
  });

  it('unsubscribe: honoured at once, withdraws the waiting request, and the next job gets none', async () => {
    const { rows, contacts, removed, requests } = fakes();
    const first = randomUUID();
    await requests.jobCompleted(createEvent(JobCompleted, jobCompletedData(first), meta));
    await requests.invoicePaid(createEvent(CustomerInvoiceUpdatedV2, invoiceData(first), meta));
    const token = contacts.get('jane@example.com')!.token;
    await expect(requests.status(token)).resolves.toEqual({
      unsubscribed: false,
      contact: 'j***@example.com',
    });
    await expect(requests.unsubscribe(token)).resolves.toEqual({
      unsubscribed: true,
      contact: 'j***@example.com',
    });
    expect(rows.get(reviewRequestKey(first))!.status).toBe('failed');
    expect(removed).toEqual([reviewRequestKey(first)]);
    await expect(requests.unsubscribe(token)).resolves.toMatchObject({ unsubscribed: true });

    const second = randomUUID();
    await requests.jobCompleted(
      createEvent(JobCompleted, jobCompletedData(second, 'jane@example.com'), meta),
    );
    await expect(
      requests.invoicePaid(createEvent(CustomerInvoiceUpdatedV2, invoiceData(second), meta)),
    ).resolves.toBe('unsubscribed');
    expect(rows.has(reviewRequestKey(second))).toBe(false);
  });

  it('an unknown or malformed token is not found', async () => {
    const { requests } = fakes();
    await expect(requests.unsubscribe('b'.repeat(43))).resolves.toBeNull();
    await expect(requests.status('../../etc')).resolves.toBeNull();
  });

  it('masks the address it shows', () => {
    expect(maskEmail('jane@example.com')).toBe('j***@example.com');
    expect(maskEmail('nope')).toBe('***');
  });
});
