import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { BookingCreated, EmailRequested } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingCreated, emailRequested } from '../fixtures';
import { decodeQuotedPrintable, sleep, startStack, type Stack } from './harness';

jest.setTimeout(60_000);

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a local port: records what it accepts; scripted refusals for some recipients. */
async function smtpReceiver() {
  const received: Received[] = [];
  const rcptCalls = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const n = (rcptCalls.get(address.address) ?? 0) + 1;
      rcptCalls.set(address.address, n);
      if (address.address === 'nobody@example.com')
        return callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 }));
      if (address.address === 'greylisted@example.com' && n <= 2)
        return callback(Object.assign(new Error('4.7.1 Greylisted, try again later'), { responseCode: 451 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to: (address: string) => received.filter((m) => m.to.includes(address)),
    rcptCalls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
let stack: Stack;

beforeAll(async () => {
  smtp = await smtpReceiver();
  stack = await startStack('notify-email', {
    env: {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Mobile Tyres Perth <bookings@mobiletyres.test>',
      BUSINESS_NAME: 'Mobile Tyres Perth',
      BUSINESS_PHONE: '08 6000 0000',
      EMAIL_BACKOFF_MS: '200',
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await smtp?.close();
});

const deliveries = () => stack.notify[0]!.service.deliveries;

async function settled(key: string) {
  return waitFor(
    async () => {
      const row = await deliveries().getByKey(key);
      return row && (row.status === 'sent' || row.status === 'failed')
        ? deliveries().withAttempts(row.id)
        : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

/** A header's value, unfolded (long headers are folded over several lines). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
  return new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
}

/** The text/plain part of a MIME message, decoded. */
function textPart(raw: string): string {
  const match =
    /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?Content-Transfer-Encoding: ([^\r\n]+)\r?\n\r?\n([\s\S]*?)\r?\n--/i.exec(
      raw,
    );
  if (!match) throw new Error(`no text part in\n${raw}`);
  const [, encoding, body] = match;
  if (/quoted-printable/i.test(encoding ?? '')) return decodeQuotedPrintable(body ?? '');
  if (/base64/i.test(encoding ?? '')) return Buffer.from(body ?? '', 'base64').toString('utf8');
  return body ?? '';
}

it('emails the booking confirmation to the customer through SMTP', async () => {
  const booking = bookingCreated({
    jobNumber: 'JOB-700001',
    serviceType: 'puncture-repair',
    scheduledDate: '2026-11-24',
    timeSlot: '12-2 PM',
    address: '7 Ocean Drive',
    suburb: 'Mandurah',
    postcode: '6210',
    tyreSize: null,
    tyreQuantity: null,
    tyreBrand: null,
    customerValue: '129.80',
    customer: { name: 'Kim Nguyen', email: 'kim@example.com', phone: '0412 111 222' },
  });
  await stack.publish(BookingCreated, booking);
  const row = await settled(`email-booking-confirmation-${booking.jobId}`);
  expect(row).toMatchObject({
    status: 'sent',
    transport: 'smtp',
    attempts: 1,
    purpose: 'booking-confirmation',
    jobId: booking.jobId,
  });

  const [mail] = smtp.to('kim@example.com');
  expect(mail?.from).toBe('bookings@mobiletyres.test');
  expect(header(mail?.raw ?? '', 'From')).toBe('Mobile Tyres Perth <bookings@mobiletyres.test>');
  expect(header(mail?.raw ?? '', 'To')).toBe('kim@example.com');
  expect(header(mail?.raw ?? '', 'Subject')).toBe(
    'Booking confirmed: Puncture Repair on Tuesday 24 November 2026, 12-2 PM (JOB-700001)',
  );
  expect(header(mail?.raw ?? '', 'X-Delivery-Key')).toBe(`email-booking-confirmation-${booking.jobId}`);
  expect(mail?.raw).toMatch(/Content-Type: text\/html/);
  const text = textPart(mail?.raw ?? '');
  expect(text).toContain('Hi Kim,');
  expect(text).toContain('Job number: JOB-700001');
  expect(text).toContain('Service: Puncture Repair');
  expect(text).toContain('Date: Tuesday 24 November 2026');
  expect(text).toContain('Time slot: 12-2 PM');
  expect(text).toContain('Address: 7 Ocean Drive, Mandurah 6210');
  expect(text).toContain('Amount: $129.80 (inc. GST $11.80), payable on site');
  expect(text).toContain(
    'Cancel 24 hours or more before your booking (before Mon 23 Nov, 12:00 pm): full refund.',
  );
  expect(text).toContain('Cancel 12 to 24 hours before (before Tue 24 Nov, 12:00 am): 50% refund.');
  expect(text).toContain('Cancel less than 12 hours before: no refund.');
  expect(text).toContain('call us on 08 6000 0000');
});

it('sends one confirmation for duplicate BookingCreated events', async () => {
  const booking = bookingCreated({
    customer: { name: 'Dup Licate', email: 'dup@example.com', phone: '0412 333 444' },
  });
  const envelope = await stack.publish(BookingCreated, booking);
  await stack.republish(envelope);
  await stack.publish(BookingCreated, booking); // a new event id for the same booking
  await settled(`email-booking-confirmation-${booking.jobId}`);
  await sleep(1000);
  expect(smtp.to('dup@example.com')).toHaveLength(1);
});

it('sends EmailRequested messages with their reply-to', async () => {
  const request = emailRequested({
    to: 'ops@example.com',
    replyTo: 'accounts@mobiletyres.test',
    subject: 'Stock arrived',
    text: 'Your tyres are in.',
  });
  await stack.publish(EmailRequested, request);
  const row = await settled(`email-${request.requestId}`);
  expect(row).toMatchObject({ status: 'sent', subject: 'Stock arrived' });
  const [mail] = smtp.to('ops@example.com');
  expect(header(mail?.raw ?? '', 'Reply-To')).toBe('accounts@mobiletyres.test');
  expect(mail?.raw).toContain('Your tyres are in.');
});

it('does not retry a mailbox the server rejects permanently (550)', async () => {
  const request = emailRequested({ to: 'nobody@example.com' });
  await stack.publish(EmailRequested, request);
  const row = await settled(`email-${request.requestId}`);
  expect(row).toMatchObject({ status: 'failed', attempts: 1 });
  expect(row?.lastError).toContain('550');
  await sleep(800);
  expect(smtp.rcptCalls.get('nobody@example.com')).toBe(1);
});

it('retries temporary SMTP refusals (451) and then delivers once', async () => {
  const request = emailRequested({ to: 'greylisted@example.com' });
  await stack.publish(EmailRequested, request);
  const row = await settled(`email-${request.requestId}`);
  expect(row).toMatchObject({ status: 'sent', attempts: 3 });
  expect(row?.attemptLog.map((a) => a.outcome)).toEqual(['retry', 'retry', 'sent']);
  expect(smtp.to('greylisted@example.com')).toHaveLength(1);
});
