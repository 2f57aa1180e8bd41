import { SmsRequested } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { smsRequested } from '../fixtures';
import {
  fakeTwilio,
  sleep,
  startStack,
  twilioEnv,
  twilioError,
  TWILIO_TEST_SID,
  type Stack,
} from './harness';

jest.setTimeout(60_000);

const SID = TWILIO_TEST_SID;
const BACKOFF_MS = 500;
let twilio: Awaited<ReturnType<typeof fakeTwilio>>;
let stack: Stack;

beforeAll(async () => {
  twilio = await fakeTwilio((to, n) => {
    // +61412000001: two outages, then accepted. +61412000003: always down. +61412000004: Twilio rejects it.
    if (to === '+61412000001' && n <= 2) return twilioError(503, 20500, 'Service Unavailable');
    if (to === '+61412000003') return twilioError(503, 20500, 'Service Unavailable');
    if (to === '+61412000004')
      return twilioError(400, 21211, "The 'To' number +61412000004 is not a valid phone number.");
    if (to === '+61412000005' && n === 1) return twilioError(429, 20429, 'Too Many Requests');
    return undefined;
  });
  stack = await startStack('notify-sms', {
    env: {
      ...twilioEnv(twilio.url),
      SMS_ATTEMPTS: '4',
      SMS_BACKOFF_MS: String(BACKOFF_MS),
    },
  });
});

afterAll(async () => {
  await stack?.stop();
  await twilio?.close();
});

const deliveries = () => stack.notify[0]!.service.deliveries;

async function settled(requestId: string) {
  return waitFor(
    async () => {
      const row = await deliveries().getByKey(`sms-${requestId}`);
      return row && (row.status === 'sent' || row.status === 'failed')
        ? deliveries().withAttempts(row.id)
        : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

it('sends through Twilio to the E.164 number, with the account credentials', async () => {
  const request = smsRequested({
    to: '0412 000 002',
    body: 'Mobile Tyres Perth: your technician is en route, ETA 10:45.',
  });
  await stack.publish(SmsRequested, request);
  const row = await settled(request.requestId);
  expect(row).toMatchObject({
    status: 'sent',
    transport: 'twilio',
    attempts: 1,
    normalizedTo: '+61412000002',
    lastError: null,
  });
  expect(row?.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
  const [sent] = twilio.to('+61412000002');
  expect(sent?.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
  expect(sent?.params.get('From')).toBe('+61400000000');
  expect(sent?.params.get('Body')).toBe('Mobile Tyres Perth: your technician is en route, ETA 10:45.');
  expect(sent?.authorization).toBe(`Basic ${Buffer.from(`${SID}:${'f'.repeat(32)}`).toString('base64')}`);
});

it('retries transient failures with exponential backoff, then sends exactly once', async () => {
  const request = smsRequested({ to: '+61 412 000 001' });
  await stack.publish(SmsRequested, request);
  const row = await settled(request.requestId);
  expect(row).toMatchObject({ status: 'sent', attempts: 3, normalizedTo: '+61412000001' });
  expect(row?.attemptLog.map((a) => [a.attempt, a.outcome])).toEqual([
    [1, 'retry'],
    [2, 'retry'],
    [3, 'sent'],
  ]);
  expect(row?.attemptLog[0]?.error).toBe('Service Unavailable (HTTP 503, code 20500)');

  const calls = twilio.to('+61412000001');
  expect(calls).toHaveLength(3);
  const gap1 = calls[1]!.at - calls[0]!.at;
  const gap2 = calls[2]!.at - calls[1]!.at;
  expect(gap1).toBeGreaterThanOrEqual(BACKOFF_MS - 20);
  expect(gap2).toBeGreaterThanOrEqual(2 * BACKOFF_MS - 20);
  // Exponential: the second wait is about one base delay longer than the first (timing slack for BullMQ's scheduler).
  expect(gap2 - gap1).toBeGreaterThanOrEqual(BACKOFF_MS * 0.6);

  await sleep(1500);
  expect(twilio.to('+61412000001')).toHaveLength(3);
});

it('retries a rate limit (429)', async () => {
  const request = smsRequested({ to: '0412000005' });
  await stack.publish(SmsRequested, request);
  const row = await settled(request.requestId);
  expect(row).toMatchObject({ status: 'sent', attempts: 2 });
});

it('rejects an invalid number with a clear error and no retry, without calling Twilio', async () => {
  const landline = smsRequested({ to: '(08) 9123 4567' });
  const foreign = smsRequested({ to: '+44 7911 123456' });
  await stack.publish(SmsRequested, landline);
  await stack.publish(SmsRequested, foreign);
  const a = await settled(landline.requestId);
  const b = await settled(foreign.requestId);
  expect(a).toMatchObject({
    status: 'failed',
    attempts: 1,
    lastError: 'Phone number is an Australian landline; SMS needs a mobile number (04xx xxx xxx)',
    normalizedTo: null,
  });
  expect(b).toMatchObject({
    status: 'failed',
    attempts: 1,
    lastError: 'Phone number is not an Australian number (+61)',
  });
  expect(a?.attemptLog.map((x) => x.outcome)).toEqual(['failed']);

  const job = await stack.notify[0]!.service.queues.sms.getJob(`sms-${landline.requestId}`);
  expect(await job?.getState()).toBe('failed');
  expect(job?.attemptsMade).toBe(1);
  await sleep(BACKOFF_MS * 3);
  expect((await deliveries().getByKey(`sms-${landline.requestId}`))?.attempts).toBe(1);
  expect(
    twilio.requests.filter(
      (r) => r.params.get('To')?.startsWith('+618') || r.params.get('To')?.startsWith('+44'),
    ),
  ).toHaveLength(0);
});

it('does not retry a number Twilio rejects', async () => {
  const request = smsRequested({ to: '0412 000 004' });
  await stack.publish(SmsRequested, request);
  const row = await settled(request.requestId);
  expect(row).toMatchObject({ status: 'failed', attempts: 1 });
  expect(row?.lastError).toContain('21211');
  await sleep(BACKOFF_MS * 3);
  expect(twilio.to('+61412000004')).toHaveLength(1);
});

it('gives up after the configured attempts', async () => {
  const request = smsRequested({ to: '0412 000 003' });
  await stack.publish(SmsRequested, request);
  const row = await settled(request.requestId);
  expect(row).toMatchObject({ status: 'failed', attempts: 4 });
  expect(row?.attemptLog.map((a) => a.outcome)).toEqual(['retry', 'retry', 'retry', 'failed']);
  expect(twilio.to('+61412000003')).toHaveLength(4);
});

it('sends one SMS for duplicate events and repeated requests', async () => {
  const request = smsRequested({ to: '0412 000 006' });
  const envelope = await stack.publish(SmsRequested, request);
  await stack.republish(envelope); // the outbox relay publishing the same event again
  await stack.publish(SmsRequested, request); // the producer requesting the same message again (same requestId)
  await settled(request.requestId);
  await sleep(1000);
  await stack.publish(SmsRequested, request); // and once more after it was sent
  await sleep(1000);
  expect(twilio.to('+61412000006')).toHaveLength(1);
  const rows = await stack.notify[0]!.service.deliveries.list({ limit: 200 });
  expect(rows.filter((r) => r.recipient === '0412 000 006')).toHaveLength(1);
});
