import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { BookingCreated, CustomerErased, CustomerInvoiceUpdatedV2, JobCompleted } from '@tyres/events';
import { perthInstant } from '@tyres/kernel';
import { waitFor } from '@tyres/testkit';
import { bookingCreated, invoiceData, jobCompletedData } from '../fixtures';
import { decodeQuotedPrintable, perthClockAt, sleep, startStack, type Stack } from './harness';
import { reminderJobId } from '../../src/workers/queues';

jest.setTimeout(90_000);

const REVIEW_URL = 'https://g.page/r/mobile-tyres-perth/review';
const TODAY = '2030-03-12';
const TOMORROW = '2030-03-13';

// Two replicas (the durable queue shares the events between them); notify's clock at noon Perth.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('notify-reviews', {
    replicas: 2,
    env: {
      BUSINESS_NAME: 'Mobile Tyres Perth',
      BUSINESS_PHONE: '08 6000 0000',
      REVIEW_URL,
      PUBLIC_SITE_URL: 'https://tyres.example',
    },
    options: { now: perthClockAt('12:00', TODAY) },
  });
});

afterAll(async () => {
  await stack?.stop();
});

const service = (i = 0) => stack.notify[i]!.service;
const gateway = () => stack.gateways[0]!.baseUrl;
const reviewKey = (jobId: string) => `email-review-request-${jobId}`;

async function settled(key: string) {
  return waitFor(
    async () => {
      const row = await service().deliveries.getByKey(key);
      return row && (row.status === 'sent' || row.status === 'failed') ? row : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

/** A job completed and paid for this customer (both events published twice, as a replay would). */
async function completedAndPaid(email: string) {
  const jobId = randomUUID();
  const completed = await stack.publish(JobCompleted, jobCompletedData(jobId, email));
  const paid = await stack.publish(CustomerInvoiceUpdatedV2, invoiceData(jobId));
  await stack.republish(paid);
  await stack.republish(completed);
  return jobId;
}

const tokenIn = (text: string) => /\/unsubscribe\/([A-Za-z0-9_-]{43})\b/.exec(text)?.[1];

describe('review request after the invoice is paid', () => {
  it('one email per job, even with every event delivered twice: review link, sender, unsubscribe link and headers', async () => {
    const email = `jane-${randomUUID()}@example.com`;
    const jobId = await completedAndPaid(email);
    const row = await settled(reviewKey(jobId));
    await sleep(1000);
    const rows = await service().deliveries.list({ jobId, limit: 10 });
    expect(rows).toHaveLength(1);
    expect((await service().deliveries.withAttempts(row.id))?.attemptLog).toHaveLength(1);
    expect(row).toMatchObject({
      channel: 'email',
      purpose: 'review-request',
      recipient: email,
      status: 'sent',
    });
    expect(row.subject).toBe('How did we go? A quick review for Mobile Tyres Perth');
    expect(row.body).toContain(REVIEW_URL);
    expect(row.body).toContain('This email was sent by Mobile Tyres Perth (08 6000 0000)');
    const token = tokenIn(row.body)!;
    expect(token).toBeDefined();
    expect(row.body).toContain(`https://tyres.example/unsubscribe/${token}`);
    // Unfolded (long header lines continue on the next line, RFC 5322).
    const raw = decodeQuotedPrintable(row.rawMessage ?? '').replace(/\r?\n[ \t]+/g, ' ');
    expect(raw).toMatch(
      new RegExp(`^List-Unsubscribe: <https://tyres\\.example/api/unsubscribe/${token}>`, 'm'),
    );
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  });

  it('an invoice updated but not paid asks for nothing', async () => {
    const jobId = randomUUID();
    await stack.publish(JobCompleted, jobCompletedData(jobId, `al-${randomUUID()}@example.com`));
    await stack.publish(CustomerInvoiceUpdatedV2, invoiceData(jobId, 'sent'));
    await sleep(1500);
    expect(await service().deliveries.getByKey(reviewKey(jobId))).toBeNull();
  });
});

describe('unsubscribe (public, through the gateway)', () => {
  it('GET shows, POST unsubscribes at once; the next job gets no review request, but the reminder still goes', async () => {
    const email = `sam-${randomUUID()}@example.com`;
    const first = await completedAndPaid(email);
    const token = tokenIn((await settled(reviewKey(first))).body)!;
    const url = `${gateway()}/api/unsubscribe/${token}`;

    const before = await fetch(url);
    expect(before.status).toBe(200);
    const masked = `s***@example.com`;
    expect(await before.json()).toEqual({ unsubscribed: false, contact: masked });
    // A mail client's one-click unsubscribe (RFC 8058): a form POST without a session.
    const post = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(post.status).toBe(200);
    expect(await post.json()).toEqual({ unsubscribed: true, contact: masked });
    expect(await (await fetch(url)).json()).toEqual({ unsubscribed: true, contact: masked });
    expect((await fetch(url, { method: 'POST' })).status).toBe(200); // again: still unsubscribed

    // A later job of the same customer (the address in another case): no review request.
    const second = await completedAndPaid(email.toUpperCase());
    await waitFor(async () => {
      const rows = await service().runtime.db.$queryRaw<{ paid_at: Date | null }[]>`
        SELECT paid_at FROM notify.review_progress WHERE job_id = ${second}::uuid AND completed_at IS NOT NULL`;
      return rows[0]?.paid_at ? true : undefined;
    });
    await sleep(1000);
    expect(await service().deliveries.getByKey(reviewKey(second))).toBeNull();

    // Transactional messages still go: the day-before reminder of a booking of theirs.
    const b = bookingCreated({
      scheduledDate: TOMORROW,
      timeSlot: '8-10 AM',
      customer: { name: 'Sam Driver', email, phone: '0412 345 678' },
    });
    await stack.publish(BookingCreated, b);
    const id = reminderJobId({ bookingJobId: b.jobId, scheduledDate: TOMORROW, timeSlot: '8-10 AM' });
    const job = await waitFor(async () => (await service().queues.reminders.getJob(id)) ?? undefined);
    expect(job.timestamp + job.delay).toBe(perthInstant(TODAY, '17:00').getTime());
    await job.promote();
    const reminder = await settled(`email-booking-reminder-${b.jobId}-20300313-0800`);
    expect(reminder).toMatchObject({ status: 'sent', recipient: email, purpose: 'booking-reminder' });
    expect((await settled(`email-booking-confirmation-${b.jobId}`)).status).toBe('sent');
  });

  it('a review request waiting for the morning is withdrawn by an unsubscribe and never sent', async () => {
    const email = `kim-${randomUUID()}@example.com`;
    const first = await completedAndPaid(email);
    const token = tokenIn((await settled(reviewKey(first))).body)!;
    // A second job whose request is still queued (held, as at 9 pm): made by hand, the way enqueue holds it.
    const held = randomUUID();
    await service().runtime.db.$executeRaw`
      INSERT INTO notify.deliveries (id, key, channel, purpose, recipient, subject, body, max_attempts, requested_at,
        updated_at, next_attempt_at)
      VALUES (${randomUUID()}::uuid, ${reviewKey(held)}, 'email', 'review-request', ${email}, 'How did we go?', 'x', 5,
        now(), now(), now() + interval '10 hours')`;
    await service().queues.email.add(
      'review-request',
      { deliveryId: (await service().deliveries.getByKey(reviewKey(held)))!.id },
      { jobId: reviewKey(held), delay: 3_600_000 },
    );

    expect((await fetch(`${gateway()}/api/unsubscribe/${token}`, { method: 'POST' })).status).toBe(200);
    const row = (await service().deliveries.getByKey(reviewKey(held)))!;
    expect(row).toMatchObject({
      status: 'failed',
      lastError: 'withdrawn: unsubscribed from review requests',
    });
    expect(await service().queues.email.getJob(reviewKey(held))).toBeUndefined();
  });

  it('an opt-out outlives the erasure of its owner: only a hash is kept, and a later booking with the address gets no review request', async () => {
    const email = `erin-${randomUUID()}@example.com`;
    const first = await completedAndPaid(email);
    const token = tokenIn((await settled(reviewKey(first))).body)!;
    expect((await fetch(`${gateway()}/api/unsubscribe/${token}`, { method: 'POST' })).status).toBe(200);
    // The customer's booking, then their erasure on request.
    const booking = bookingCreated({
      customer: { name: 'Erin Erased', email, phone: '0412 555 666' },
    });
    await stack.publish(BookingCreated, booking);
    await waitFor(async () => (await service().bookings.get(booking.jobId)) ?? undefined);
    await stack.publish(CustomerErased, {
      customerId: randomUUID(),
      erasedAt: new Date().toISOString(),
      erasedByUserId: randomUUID(),
      jobIds: [booking.jobId],
      bookingIds: [randomUUID()],
    });
    const pg = new Pool({ connectionString: stack.db.url, max: 1 });
    try {
      await waitFor(async () => {
        const { rows } = await pg.query(`SELECT 1 FROM notify.erased_jobs WHERE job_id = $1`, [
          booking.jobId,
        ]);
        return rows.length ? true : undefined;
      });
      const { rows } = await pg.query(
        `SELECT email, unsubscribed_at IS NOT NULL AS out FROM notify.marketing_contacts
          WHERE email = $1 OR email LIKE 'optout:%' AND email = 'optout:' || encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [email],
      );
      expect(rows).toEqual([{ email: expect.stringMatching(/^optout:[0-9a-f]{64}$/), out: true }]);
      // The old link no longer finds the address.
      expect((await fetch(`${gateway()}/api/unsubscribe/${token}`)).status).toBe(404);
      // They book again with the same address, later: still opted out.
      const again = await completedAndPaid(email);
      await sleep(1500);
      expect(await service().deliveries.getByKey(reviewKey(again))).toBeNull();
    } finally {
      await pg.end();
    }
  });

  it('an unknown or malformed link is a 404 with the same message; no session needed, none given', async () => {
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(44)]) {
      for (const method of ['GET', 'POST']) {
        const res = await fetch(`${gateway()}/api/unsubscribe/${token}`, { method });
        expect(res.status).toBe(404);
        expect(((await res.json()) as { message: string }).message).toBe(
          'This unsubscribe link is not valid',
        );
      }
    }
  });
});
