/**
 * The dashboard hears how an SMS it asked for ended (issue 12: "SMS sent" only when a provider accepted it, "SMS
 * recorded (no provider configured)" otherwise, or the failure), on whichever replica the staff member is connected,
 * and nobody else does.
 */
import { randomUUID } from 'node:crypto';
import { SmsRequested } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { smsRequested } from '../fixtures';
import {
  connect,
  fakeTwilio,
  sleep,
  startNotifyInstance,
  startStack,
  startTestGateway,
  twilioEnv,
  twilioError,
  wsUrl,
  type Stack,
  type TestSocket,
} from './harness';

jest.setTimeout(90_000);

const sockets: TestSocket[] = [];
afterAll(() => {
  for (const s of sockets) s.close();
});

async function open(stack: Stack, i: number, cookie: string | undefined): Promise<TestSocket> {
  const s = await connect(wsUrl(stack.gateways[i]!.baseUrl), { Cookie: cookie ?? '' });
  sockets.push(s);
  return s;
}

const smsOutcomes = (s: TestSocket, jobId?: string) =>
  s.of('sms_delivery').filter((m) => jobId === undefined || m.data.jobId === jobId);

async function settledRow(stack: Stack, requestId: string) {
  return waitFor(
    async () => {
      const row = await stack.notify[0]!.service.deliveries.getByKey(`sms-${requestId}`);
      return row && (row.status === 'sent' || row.status === 'failed') ? row : undefined;
    },
    { timeoutMs: 20_000 },
  );
}

describe('Twilio configured; the worker runs on replica 0, the staff are connected to replica 1', () => {
  let twilio: Awaited<ReturnType<typeof fakeTwilio>>;
  let stack: Stack;
  let tech: { id: string; socket: TestSocket };
  let otherTech: TestSocket;
  let admin: TestSocket;

  beforeAll(async () => {
    twilio = await fakeTwilio((to, n) => {
      // +61412000011: two outages, then accepted. +61412000014: Twilio rejects the number.
      if (to === '+61412000011' && n <= 2) return twilioError(503, 20500, 'Service Unavailable');
      if (to === '+61412000014')
        return twilioError(400, 21211, "The 'To' number +61412000014 is not a valid phone number.");
      return undefined;
    });
    stack = await startStack('notify-sms-status', {
      env: {
        ...twilioEnv(twilio.url),
        SMS_ATTEMPTS: '4',
        SMS_BACKOFF_MS: '300',
      },
    });
    // A replica without workers: an SMS can only finish on replica 0, so what reaches replica 1 crossed over.
    const web = await startNotifyInstance(
      { databaseUrl: stack.db.url, prefix: stack.prefix, publicKey: stack.keys.publicKey },
      { RUN_WORKERS: 'false' },
    );
    stack.notify.push(web);
    stack.gateways.push(await startTestGateway('notify-sms-status-gw1', web.url, stack.keys.privateKey));

    const t = await stack.technician('tess', 1);
    tech = { id: t.id, socket: await open(stack, 1, t.client.cookie) };
    otherTech = await open(stack, 0, (await stack.technician('owen', 0)).client.cookie);
    admin = await open(stack, 1, (await stack.admin(1)).cookie);
    expect(stack.notify[1]!.service.hub.size).toBe(2);
  });

  afterAll(async () => {
    await stack?.stop();
    await twilio?.close();
  });

  it('says "SMS sent" once Twilio accepted it, after the retries, to the technician who asked only', async () => {
    const jobId = randomUUID();
    const request = smsRequested({ to: '0412 000 011', jobId, requestedBy: tech.id });
    await stack.publish(SmsRequested, request);

    const message = await tech.socket.next(
      (m) => m.type === 'sms_delivery' && m.data.jobId === jobId,
      20_000,
    );
    expect(message).toEqual({
      type: 'sms_delivery',
      data: { jobId, purpose: 'technician-en-route', status: 'sent', message: 'SMS sent' },
    });
    // Not before the provider accepted it: two refusals first, then the one accepted request.
    expect(twilio.to('+61412000011')).toHaveLength(3);
    expect(await settledRow(stack, request.requestId)).toMatchObject({
      status: 'sent',
      transport: 'twilio',
      attempts: 3,
      requestedBy: tech.id,
    });
    await sleep(500);
    expect(smsOutcomes(tech.socket, jobId)).toHaveLength(1);
    expect(smsOutcomes(admin)).toHaveLength(0);
    expect(smsOutcomes(otherTech)).toHaveLength(0);
  });

  it('says why when Twilio refuses the number', async () => {
    const jobId = randomUUID();
    await stack.publish(SmsRequested, smsRequested({ to: '0412 000 014', jobId, requestedBy: tech.id }));
    const message = await tech.socket.next(
      (m) => m.type === 'sms_delivery' && m.data.jobId === jobId,
      20_000,
    );
    expect(message.data).toMatchObject({ jobId, status: 'failed' });
    expect(message.data.message).toMatch(
      /^SMS not sent: The 'To' number \+61412000014 is not a valid phone number/,
    );
  });

  it('says why when the number cannot take an SMS at all (a landline), without calling Twilio', async () => {
    const jobId = randomUUID();
    const before = twilio.requests.length;
    await stack.publish(SmsRequested, smsRequested({ to: '(08) 9123 4567', jobId, requestedBy: tech.id }));
    const message = await tech.socket.next(
      (m) => m.type === 'sms_delivery' && m.data.jobId === jobId,
      20_000,
    );
    expect(message.data).toEqual({
      jobId,
      purpose: 'technician-en-route',
      status: 'failed',
      message: expect.stringMatching(/^SMS not sent: .*landline; SMS needs a mobile number/),
    });
    expect(twilio.requests.length).toBe(before);
  });

  it('a staff member with dashboards open on both replicas hears it on each; the other admin does not', async () => {
    const boss = { id: randomUUID(), username: 'boss', role: 'admin' as const };
    const headers = { 'x-identity-token': stack.identityToken(boss) };
    const both = await Promise.all(
      [0, 1].map((i) => connect(wsUrl(stack.notify[i]!.url), headers).then((s) => (sockets.push(s), s))),
    );
    const jobId = randomUUID();
    await stack.publish(SmsRequested, smsRequested({ to: '0412 000 015', jobId, requestedBy: boss.id }));
    for (const s of both) {
      const m = await s.next((x) => x.type === 'sms_delivery' && x.data.jobId === jobId, 20_000);
      expect(m.data).toMatchObject({ status: 'sent', message: 'SMS sent' });
    }
    await sleep(300);
    for (const s of [tech.socket, admin, otherTech]) expect(smsOutcomes(s, jobId)).toHaveLength(0);
  });

  it('an SMS nobody asked for in person (an older event without requestedBy) is sent; no dashboard is told', async () => {
    const jobId = randomUUID();
    const request = smsRequested({ to: '0412 000 016', jobId });
    expect(request).not.toHaveProperty('requestedBy');
    await stack.publish(SmsRequested, request);
    expect(await settledRow(stack, request.requestId)).toMatchObject({ status: 'sent', requestedBy: null });
    await sleep(500);
    for (const s of [tech.socket, admin, otherTech]) expect(smsOutcomes(s, jobId)).toHaveLength(0);
  });
});

describe('no SMS provider configured (the dev transport)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('notify-sms-recorded');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('says "SMS recorded (no provider configured)", never "SMS sent"', async () => {
    expect(stack.notify[0]!.service.transports.sms).toBe('local');
    const t = await stack.technician('rhys', 0);
    const socket = await open(stack, 0, t.client.cookie);
    const jobId = randomUUID();
    const request = smsRequested({ to: '0412 555 777', jobId, requestedBy: t.id });
    await stack.publish(SmsRequested, request);
    const message = await socket.next((m) => m.type === 'sms_delivery' && m.data.jobId === jobId, 20_000);
    expect(message.data).toEqual({
      jobId,
      purpose: 'technician-en-route',
      status: 'recorded',
      message: 'SMS recorded (no provider configured)',
    });
    expect(await settledRow(stack, request.requestId)).toMatchObject({ status: 'sent', transport: 'local' });
    // The delivery log shows who asked.
    const admin = await stack.admin(0);
    const log = await admin.request('GET', `/api/dashboard/notifications/deliveries?jobId=${jobId}`);
    expect(log.status).toBe(200);
    expect(JSON.stringify(log.body)).toContain(`"requestedBy":"${t.id}"`);
  });
});
