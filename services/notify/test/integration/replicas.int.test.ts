import { BookingCreated, JobAssigned, SmsRequested } from '@tyres/events';
import { createRabbitAdmin, waitFor, waitForExpect } from '@tyres/testkit';
import type { Delivery } from '../../src/db/deliveries';
import { bookingCreated, jobAssigned, smsRequested } from '../fixtures';
import { connect, sleep, startStack, wsUrl, type Stack, type TestSocket } from './harness';

jest.setTimeout(60_000);

/** Every send attempt of either replica, by delivery key. */
const attempts = new Map<string, string[]>();
let stack: Stack;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  stack = await startStack('notify-replicas', {
    replicas: 2,
    options: {
      onAttempt: (outcome: string, d: Delivery) =>
        attempts.set(d.key, [...(attempts.get(d.key) ?? []), outcome]),
    },
  });
});

afterAll(async () => {
  for (const s of sockets) s.close();
  await stack?.stop();
});

async function open(i: number, cookie: string | undefined): Promise<TestSocket> {
  const s = await connect(wsUrl(stack.gateways[i]!.baseUrl), { Cookie: cookie ?? '' });
  sockets.push(s);
  return s;
}

it('runs each replica with its own live queue', () => {
  const [a, b] = stack.notify.map((n) => n.service.liveFeed.queueName);
  expect(a).toMatch(new RegExp(`^${stack.prefix.replace(/\./g, '\\.')}notify\\.live\\.`));
  expect(b).toBeDefined();
  expect(a).not.toBe(b);
});

it('gives a client on each replica every event exactly once', async () => {
  const admin0 = await open(0, (await stack.admin(0)).cookie);
  const admin1 = await open(1, (await stack.admin(1)).cookie);
  const tech0 = await stack.technician('rhys', 0);
  const tech1 = await stack.technician('rhys', 1);
  const techSocket0 = await open(0, tech0.client.cookie);
  const techSocket1 = await open(1, tech1.client.cookie);
  // Each client really is on its own replica.
  expect(stack.notify[0]!.service.hub.size).toBe(2);
  expect(stack.notify[1]!.service.hub.size).toBe(2);

  const bookings = Array.from({ length: 10 }, (_, i) =>
    bookingCreated({ suburb: i % 2 ? 'Armadale' : 'Scarborough' }),
  );
  for (const b of bookings) await stack.publish(BookingCreated, b);
  const a0 = jobAssigned({ technicianId: tech0.id });
  const a1 = jobAssigned({ technicianId: tech1.id });
  await stack.publish(JobAssigned, a0);
  await stack.publish(JobAssigned, a1);

  const ids = bookings.map((b) => b.jobId).sort();
  for (const admin of [admin0, admin1]) {
    await waitForExpect(() => expect(admin.of('new_booking')).toHaveLength(10), { timeoutMs: 10_000 });
  }
  await techSocket0.next((m) => m.type === 'job_assigned' && m.data.jobId === a0.jobId);
  await techSocket1.next((m) => m.type === 'job_assigned' && m.data.jobId === a1.jobId);
  await sleep(500); // anything duplicated would have arrived by now
  for (const admin of [admin0, admin1]) {
    expect(
      admin
        .of('new_booking')
        .map((m) => String(m.data.id))
        .sort(),
    ).toEqual(ids);
  }
  expect(
    techSocket0.messages
      .filter((m) => m.type !== 'connected')
      .map((m) => [m.type, m.data.id ?? m.data.jobId]),
  ).toEqual([
    ['new_booking', a0.jobId],
    ['job_assigned', a0.jobId],
  ]);
  expect(
    techSocket1.messages
      .filter((m) => m.type !== 'connected')
      .map((m) => [m.type, m.data.id ?? m.data.jobId]),
  ).toEqual([
    ['new_booking', a1.jobId],
    ['job_assigned', a1.jobId],
  ]);

  // The durable work happened once across both replicas: one confirmation email per booking.
  for (const b of bookings) {
    const key = `email-booking-confirmation-${b.jobId}`;
    await waitFor(() => attempts.get(key), { timeoutMs: 10_000 });
  }
  await sleep(300);
  for (const b of bookings) expect(attempts.get(`email-booking-confirmation-${b.jobId}`)).toEqual(['sent']);
});

it('sends an SMS once across replicas, through the labelled local transport when Twilio is not configured', async () => {
  const request = smsRequested({ to: '0412 555 666' });
  const envelope = await stack.publish(SmsRequested, request);
  await stack.republish(envelope);
  const key = `sms-${request.requestId}`;
  await waitFor(() => attempts.get(key), { timeoutMs: 10_000 });
  await sleep(500);
  expect(attempts.get(key)).toEqual(['sent']);
  const row = await stack.notify[1]!.service.deliveries.getByKey(key);
  expect(row).toMatchObject({
    status: 'sent',
    transport: 'local',
    attempts: 1,
    normalizedTo: '+61412555666',
  });
  expect(row?.providerMessageId).toMatch(/^local-/);
});

it("removes a stopped replica's live queue; the other replica keeps delivering", async () => {
  const admin = await createRabbitAdmin();
  // A passive declare of another connection's exclusive queue answers RESOURCE_LOCKED: it exists.
  const exists = (queue: string) =>
    admin.queueExists(queue).catch((err: Error) => {
      if (/RESOURCE.LOCKED/.test(err.message)) return true;
      throw err;
    });
  try {
    const queue = stack.notify[1]!.service.liveFeed.queueName as string;
    expect(await exists(queue)).toBe(true);
    await stack.notify[1]!.stop();
    await waitForExpect(async () => expect(await exists(queue)).toBe(false));

    const socket = await open(0, (await stack.admin(0)).cookie);
    const b = bookingCreated();
    await stack.publish(BookingCreated, b);
    await socket.next((m) => m.type === 'new_booking' && m.data.id === b.jobId);
  } finally {
    await admin.close();
  }
});
