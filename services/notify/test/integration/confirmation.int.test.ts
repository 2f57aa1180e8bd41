import { randomUUID } from 'node:crypto';
import { BookingCreated, EmailRequested, SmsRequested } from '@tyres/events';
import type { BookingCreatedV1Data } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingCreated } from '../fixtures';
import { decodeQuotedPrintable, sleep, startStack, type Stack } from './harness';

jest.setTimeout(60_000);

// Two replicas: the two halves of a confirmation may be handled by different ones. The link wait is long, so a
// confirmation that carries the link got it by merging, not by a lucky fallback.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('notify-confirm', {
    replicas: 2,
    env: {
      BUSINESS_NAME: 'Mobile Tyres Perth',
      BUSINESS_PHONE: '08 6000 0000',
      CONFIRMATION_LINK_WAIT_MS: '30000',
    },
  });
});

afterAll(async () => {
  await stack?.stop();
});

const deliveries = () => stack.notify[0]!.service.deliveries;

/** booking's manage-link messages, as services/booking/src/events/builders.ts manageLinkMessages writes them. */
function linkEvents(b: BookingCreatedV1Data, url: string) {
  const requestedAt = new Date().toISOString();
  return {
    email: {
      requestId: randomUUID(),
      to: b.customer.email,
      subject: `Manage your booking ${b.jobNumber}`,
      text: [
        `Hi ${b.customer.name},`,
        '',
        `Your booking ${b.jobNumber} (New Tyres) is on Tuesday ${b.scheduledDate}, ${b.timeSlot}.`,
        '',
        'To see your booking, move it to another time, cancel it, correct your phone number, notes or vehicle',
        'details, or add photos of your tyres, use this private link:',
        '',
        url,
        '',
        'Keep this link to yourself: anyone who has it can change your booking.',
      ].join('\n'),
      purpose: 'booking-manage-link',
      jobId: b.jobId,
      requestedAt,
    },
    sms: {
      requestId: randomUUID(),
      to: '0412345678',
      body: `Booking ${b.jobNumber} confirmed for Tuesday ${b.scheduledDate}, ${b.timeSlot}. View, reschedule or cancel: ${url}`,
      purpose: 'booking-manage-link',
      jobId: b.jobId,
      requestedAt,
    },
  };
}

const manageUrl = () => `https://tyres.example/manage/${randomUUID().replace(/-/g, '')}abcdefghijk`;

async function messagesOf(jobId: string, count: number) {
  return waitFor(
    async () => {
      const rows = await deliveries().list({ jobId, limit: 20 });
      return rows.length >= count && rows.every((r) => r.status === 'sent') ? rows : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

describe('the booking confirmation carries the manage link (one email, one SMS)', () => {
  it.each([
    ['BookingCreated first', 'created-first'],
    ['the link first', 'link-first'],
  ])('%s: the customer gets one confirmation email and one SMS, both with the link', async (_, order) => {
    const b = bookingCreated({
      customer: { name: 'Jane Citizen', email: `jane-${randomUUID()}@example.com`, phone: '0412 345 678' },
    });
    const url = manageUrl();
    const link = linkEvents(b, url);
    if (order === 'created-first') await stack.publish(BookingCreated, b);
    await stack.publish(SmsRequested, link.sms);
    await stack.publish(EmailRequested, link.email);
    if (order === 'link-first') await stack.publish(BookingCreated, b);

    const rows = await messagesOf(b.jobId, 2);
    await sleep(500); // nothing else arrives
    const all = await deliveries().list({ jobId: b.jobId, limit: 20 });
    expect(all.map((r) => `${r.channel}:${r.purpose}`).sort()).toEqual([
      'email:booking-confirmation',
      'sms:booking-confirmation',
    ]);
    const email = rows.find((r) => r.channel === 'email')!;
    expect(email.subject).toMatch(/^Booking confirmed: New Tyres on /);
    expect(email.body).toContain(`Manage your booking\n`);
    expect(email.body).toContain(url);
    expect(email.html).toContain(`href="${url}"`);
    expect(decodeQuotedPrintable(email.rawMessage ?? '')).toContain(url);
    const sms = rows.find((r) => r.channel === 'sms')!;
    expect(sms.normalizedTo).toBe('+61412345678');
    expect(sms.body).toContain(`View, reschedule or cancel: ${url}`);
  });

  it('a redelivered BookingCreated and link send nothing twice', async () => {
    const b = bookingCreated({
      customer: { name: 'Sam', email: `sam-${randomUUID()}@example.com`, phone: '0412 111 222' },
    });
    const link = linkEvents(b, manageUrl());
    const created = await stack.publish(BookingCreated, b);
    const email = await stack.publish(EmailRequested, link.email);
    await stack.publish(SmsRequested, link.sms);
    await messagesOf(b.jobId, 2);
    await stack.republish(created);
    await stack.republish(email);
    await sleep(1000);
    expect(await deliveries().list({ jobId: b.jobId, limit: 20 })).toHaveLength(2);
  });
});
