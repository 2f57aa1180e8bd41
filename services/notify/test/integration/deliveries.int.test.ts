import { randomUUID } from 'node:crypto';
import { BookingCreated, SmsRequested } from '@tyres/events';
import { waitFor } from '@tyres/testkit';
import { bookingCreated, smsRequested } from '../fixtures';
import { Client, startStack, type Stack } from './harness';

jest.setTimeout(60_000);

let stack: Stack;
let admin: Client;
let technician: Client;
const LOG = '/api/dashboard/notifications/deliveries';

beforeAll(async () => {
  stack = await startStack('notify-log');
  admin = await stack.admin();
  technician = (await stack.technician('terry')).client;
  // Something to list: two SMS (one invalid) and a booking confirmation, via the local transports.
  const ok = smsRequested({ to: '0412 777 888', body: 'Your technician is en route, ETA 09:15.' });
  const bad = smsRequested({ to: '(08) 9000 0000' });
  await stack.publish(SmsRequested, ok);
  await stack.publish(SmsRequested, bad);
  await stack.publish(
    BookingCreated,
    bookingCreated({ customer: { name: 'Lee', email: 'lee@example.com', phone: '0412 000 999' } }),
  );
  await waitFor(
    async () => {
      const rows = await stack.notify[0]!.service.deliveries.list({ limit: 10 });
      return rows.length === 3 && rows.every((r) => r.status === 'sent' || r.status === 'failed');
    },
    { timeoutMs: 15_000 },
  );
});

afterAll(async () => {
  await stack?.stop();
});

describe('delivery log', () => {
  it('is refused to anonymous users and technicians at the gateway', async () => {
    expect((await new Client(stack.gateways[0]!.baseUrl).request('GET', LOG)).status).toBe(401);
    expect((await technician.request('GET', LOG)).status).toBe(403);
  });

  it('is refused by the service itself without an admin identity (direct access)', async () => {
    const url = `${stack.notify[0]!.url}${LOG}`;
    expect((await fetch(url)).status).toBe(401);
    const tech = stack.identityToken({ id: randomUUID(), username: 'terry', role: 'technician' });
    expect((await fetch(url, { headers: { 'x-identity-token': tech } })).status).toBe(403);
    expect((await fetch(url, { headers: { 'x-identity-token': 'forged' } })).status).toBe(401);
    const boss = stack.identityToken({ id: randomUUID(), username: 'boss', role: 'admin' });
    expect((await fetch(url, { headers: { 'x-identity-token': boss } })).status).toBe(200);
  });

  it('lists SMS and emails with status, attempts and errors, newest first', async () => {
    const res = await admin.request('GET', LOG);
    expect(res.status).toBe(200);
    const { deliveries, nextCursor } = res.body as unknown as {
      deliveries: Record<string, unknown>[];
      nextCursor: string | null;
    };
    expect(nextCursor).toBeNull();
    expect(deliveries).toHaveLength(3);
    const sms = deliveries.find((d) => d.recipient === '0412 777 888');
    expect(sms).toMatchObject({
      channel: 'sms',
      purpose: 'technician-en-route',
      status: 'sent',
      transport: 'local',
      delivered: false,
      attempts: 1,
      normalizedTo: '+61412777888',
      preview: 'Your technician is en route, ETA 09:15.',
      lastError: null,
    });
    expect(deliveries.find((d) => d.recipient === '(08) 9000 0000')).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Phone number is an Australian landline; SMS needs a mobile number (04xx xxx xxx)',
    });
    expect(deliveries.find((d) => d.channel === 'email')).toMatchObject({
      recipient: 'lee@example.com',
      purpose: 'booking-confirmation',
      status: 'sent',
      transport: 'local',
    });
    const times = deliveries.map((d) => Date.parse(String(d.createdAt)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('filters and pages', async () => {
    const emails = await admin.request('GET', `${LOG}?channel=email`);
    expect((emails.body as unknown as { deliveries: unknown[] }).deliveries).toHaveLength(1);
    const failed = await admin.request('GET', `${LOG}?status=failed`);
    expect((failed.body as unknown as { deliveries: unknown[] }).deliveries).toHaveLength(1);

    const first = await admin.request('GET', `${LOG}?limit=2`);
    const page1 = first.body as unknown as { deliveries: { id: string }[]; nextCursor: string };
    expect(page1.deliveries).toHaveLength(2);
    const second = await admin.request('GET', `${LOG}?limit=2&cursor=${page1.nextCursor}`);
    const page2 = second.body as unknown as { deliveries: { id: string }[]; nextCursor: string | null };
    expect(page2.deliveries).toHaveLength(1);
    expect(page2.nextCursor).toBeNull();
    expect(new Set([...page1.deliveries, ...page2.deliveries].map((d) => d.id)).size).toBe(3);

    expect((await admin.request('GET', `${LOG}?channel=fax`)).status).toBe(400);
    expect((await admin.request('GET', `${LOG}?limit=5000`)).status).toBe(400);
    expect((await admin.request('GET', `${LOG}?cursor=garbage`)).status).toBe(400);
  });

  it('shows one message with its attempts and the recorded email', async () => {
    const list = await admin.request('GET', `${LOG}?channel=email`);
    const [email] = (list.body as unknown as { deliveries: { id: string }[] }).deliveries;
    const res = await admin.request('GET', `${LOG}/${email!.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      channel: 'email',
      subject: expect.stringContaining('Booking confirmed'),
      body: expect.stringContaining('Cancellation policy'),
      rawMessage: expect.stringContaining('To: lee@example.com'),
      attemptLog: [{ attempt: 1, outcome: 'sent', transport: 'local', error: null }],
    });
    expect((await admin.request('GET', `${LOG}/${randomUUID()}`)).status).toBe(404);
    expect((await admin.request('GET', `${LOG}/not-an-id`)).status).toBe(404);
  });

  it('reports the transports and queues', async () => {
    const res = await admin.request('GET', '/api/dashboard/notifications');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      transports: { sms: 'local', email: 'local' },
      websocket: { connections: 0 },
      queues: { sms: { completed: 1, failed: 1 }, email: { completed: 1 } },
    });
  });
});

describe('queue dashboard (bull-board)', () => {
  const UI = '/api/dashboard/notifications/queues';

  it('is served to admins through the gateway, with its assets and API under the same prefix', async () => {
    const page = await admin.request('GET', UI);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain(`<base href="${UI}/"`);
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const asset = await admin.request('GET', `${UI}/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');

    const api = await admin.request('GET', `${UI}/api/queues?activeQueue=sms&status=completed&page=1`);
    expect(api.status).toBe(200);
    const names = (api.body as unknown as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual(['email', 'reminders', 'sms']);
  });

  it('is refused to technicians and anonymous users', async () => {
    expect((await technician.request('GET', UI)).status).toBe(403);
    expect((await new Client(stack.gateways[0]!.baseUrl).request('GET', `${UI}/api/queues`)).status).toBe(
      401,
    );
    expect((await fetch(`${stack.notify[0]!.url}${UI}`)).status).toBe(401);
  });
});
