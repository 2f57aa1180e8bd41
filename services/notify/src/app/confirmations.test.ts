import { randomUUID } from 'node:crypto';
import { BookingCreated, createEvent, EmailRequested, SmsRequested } from '@tyres/events';
import type { BookingCreatedV1Data } from '@tyres/events';
import pino from 'pino';
import { bookingCreated, emailRequested, smsRequested } from '../../test/fixtures';
import type { ConfirmationParts, ConfirmationRepository } from '../db/confirmations';
import type { NewDelivery } from '../db/deliveries';
import { Confirmations, confirmationSmsKey } from './confirmations';

const URL = `https://tyres.example/manage/${'T'.repeat(43)}`;
const meta = { source: 'test', correlationId: 'c1' };

/** booking's manage-link messages as services/booking/src/events/builders.ts writes them. */
function linkMessages(b: BookingCreatedV1Data, url = URL) {
  return {
    email: createEvent(
      EmailRequested,
      emailRequested({
        to: b.customer.email,
        subject: `Manage your booking ${b.jobNumber}`,
        text: `Hi ${b.customer.name},\n\nTo see your booking ... use this private link:\n\n${url}\n\nKeep this link to yourself.`,
        purpose: 'booking-manage-link',
        jobId: b.jobId,
      }),
      meta,
    ),
    sms: createEvent(
      SmsRequested,
      smsRequested({
        to: '0412345678',
        body: `Booking ${b.jobNumber} confirmed for Tuesday 2026-11-24, 8-10 AM. View, reschedule or cancel: ${url}`,
        purpose: 'booking-manage-link',
        jobId: b.jobId,
      }),
      meta,
    ),
  };
}

function fakes() {
  const parts = new Map<string, ConfirmationParts>();
  const confirmations = {
    async addBooking(booking: BookingCreatedV1Data) {
      const p = parts.get(booking.jobId) ?? { jobId: booking.jobId, booking: null, manageUrl: null };
      const next = { ...p, booking: p.booking ?? booking };
      parts.set(booking.jobId, next);
      return next;
    },
    async addManageUrl(jobId: string, url: string) {
      const p = parts.get(jobId) ?? { jobId, booking: null, manageUrl: null };
      const next = { ...p, manageUrl: p.manageUrl ?? url };
      parts.set(jobId, next);
      return next;
    },
    async get(jobId: string) {
      return parts.get(jobId) ?? null;
    },
  } as unknown as ConfirmationRepository;
  const rows = new Map<string, NewDelivery>();
  const enqueued: string[] = [];
  const fallbacks: { jobId: string; delay: number }[] = [];
  const confirm = new Confirmations({
    confirmations,
    deliveries: { getByKey: async (key: string) => (rows.get(key) as never) ?? null },
    requests: {
      enqueue: async (d: NewDelivery) => {
        enqueued.push(d.key);
        if (rows.has(d.key)) return 'duplicate';
        rows.set(d.key, d);
      },
    },
    queues: {
      reminders: {
        add: async (_n: string, _d: unknown, o: { jobId: string; delay: number }) => {
          fallbacks.push({ jobId: o.jobId, delay: o.delay });
        },
      },
    } as never,
    business: { name: 'Mobile Tyres Perth', phone: '08 6000 0000' },
    smsAttempts: 4,
    emailAttempts: 5,
    linkWaitMs: 60_000,
    logger: pino({ level: 'silent' }),
  });
  return { rows, enqueued, fallbacks, confirm };
}

const emailKey = (jobId: string) => `email-booking-confirmation-${jobId}`;

describe('Confirmations: one confirmation, email and SMS, with the manage link', () => {
  it('BookingCreated then the link: one email and one SMS, both carrying the link; the link messages are not sent', async () => {
    const { rows, fallbacks, confirm } = fakes();
    const b = bookingCreated();
    await confirm.bookingCreated(createEvent(BookingCreated, b, meta));
    expect(rows.size).toBe(0);
    expect(fallbacks).toEqual([{ jobId: `confirmation-${b.jobId}`, delay: 60_000 }]);
    const link = linkMessages(b);
    await expect(confirm.manageLink(link.email)).resolves.toBe('merged');
    await expect(confirm.manageLink(link.sms)).resolves.toBe('merged');
    expect([...rows.keys()].sort()).toEqual([emailKey(b.jobId), confirmationSmsKey(b.jobId)].sort());
    const email = rows.get(emailKey(b.jobId))!;
    expect(email).toMatchObject({ purpose: 'booking-confirmation', recipient: 'jane@example.com' });
    expect(email.body).toContain(URL);
    expect(email.html).toContain(`href="${URL}"`);
    const sms = rows.get(confirmationSmsKey(b.jobId))!;
    expect(sms).toMatchObject({ channel: 'sms', recipient: '0412 345 678', maxAttempts: 4 });
    expect(sms.body).toContain(URL);
  });

  it("booking's second link message, after the confirmation was queued by the first, queues nothing again; the completing message's redelivery re-queues (Redis may have failed)", async () => {
    const { rows, enqueued, confirm } = fakes();
    const b = bookingCreated();
    await confirm.bookingCreated(createEvent(BookingCreated, b, meta));
    const link = linkMessages(b);
    await expect(confirm.manageLink(link.email)).resolves.toBe('merged');
    expect(enqueued).toHaveLength(2);
    await expect(confirm.manageLink(link.sms)).resolves.toBe('merged');
    expect(enqueued).toHaveLength(2);
    await expect(confirm.manageLink(link.email)).resolves.toBe('merged');
    expect(enqueued).toHaveLength(4);
    expect(rows.size).toBe(2);
  });

  it('the link first, then BookingCreated: the same single confirmation, no fallback job', async () => {
    const { rows, fallbacks, confirm } = fakes();
    const b = bookingCreated();
    const link = linkMessages(b);
    await expect(confirm.manageLink(link.sms)).resolves.toBe('merged');
    await expect(confirm.manageLink(link.email)).resolves.toBe('merged');
    expect(rows.size).toBe(0);
    await confirm.bookingCreated(createEvent(BookingCreated, b, meta));
    expect(fallbacks).toEqual([]);
    expect(rows.size).toBe(2);
    expect(rows.get(emailKey(b.jobId))!.body).toContain(URL);
  });

  it('redelivered halves and a late fallback send nothing twice', async () => {
    const { rows, confirm } = fakes();
    const b = bookingCreated();
    const created = createEvent(BookingCreated, b, meta);
    const link = linkMessages(b);
    await confirm.bookingCreated(created);
    await confirm.manageLink(link.email);
    await confirm.bookingCreated(created);
    await confirm.manageLink(link.email);
    await confirm.manageLink(link.sms);
    await expect(confirm.fallback({ confirmationJobId: b.jobId })).resolves.toBe('queued');
    expect(rows.size).toBe(2);
  });

  it('no link in time: the email goes without it (phone and reply), no SMS; a late link is then sent on its own', async () => {
    const { rows, confirm } = fakes();
    const b = bookingCreated();
    await confirm.bookingCreated(createEvent(BookingCreated, b, meta));
    await expect(confirm.fallback({ confirmationJobId: b.jobId })).resolves.toBe('queued');
    expect([...rows.keys()]).toEqual([emailKey(b.jobId)]);
    expect(rows.get(emailKey(b.jobId))!.body).toContain('call us on 08 6000 0000');
    const link = linkMessages(b);
    await expect(confirm.manageLink(link.email)).resolves.toBe('send-as-is');
  });

  it('a landline gets the email only; a message with no link in it is delivered as asked', async () => {
    const { rows, confirm } = fakes();
    const b = bookingCreated({ customer: { name: 'Al', email: 'al@example.com', phone: '(08) 9000 0000' } });
    await confirm.manageLink(linkMessages(b).email);
    await confirm.bookingCreated(createEvent(BookingCreated, b, meta));
    expect([...rows.keys()]).toEqual([emailKey(b.jobId)]);
    const odd = createEvent(
      EmailRequested,
      emailRequested({ purpose: 'booking-manage-link', jobId: randomUUID(), text: 'no link here' }),
      meta,
    );
    await expect(confirm.manageLink(odd)).resolves.toBe('send-as-is');
  });

  it('the fallback of a booking notify never heard of does nothing', async () => {
    const { rows, confirm } = fakes();
    await expect(confirm.fallback({ confirmationJobId: randomUUID() })).resolves.toBe('unknown-booking');
    expect(rows.size).toBe(0);
  });
});
