import { randomUUID } from 'node:crypto';
import { BookingCreated, createEvent, JobAssigned, SmsRequested } from '@tyres/events';
import { createRabbitAdmin, waitFor, type RabbitAdmin } from '@tyres/testkit';
import { bookingCreated, smsRequested } from '../fixtures';
import { connect, startStack, wsUrl, type Stack, type TestSocket } from './harness';

jest.setTimeout(60_000);

let stack: Stack;
let rabbit: RabbitAdmin;
let admin: TestSocket;

beforeAll(async () => {
  stack = await startStack('notify-dlq');
  rabbit = await createRabbitAdmin();
  admin = await connect(wsUrl(stack.gateways[0]!.baseUrl), { Cookie: (await stack.admin()).cookie ?? '' });
});

afterAll(async () => {
  admin?.close();
  await rabbit?.close();
  await stack?.stop();
});

const exchange = () => `${stack.prefix}tyres.events`;
const dlq = () => `${stack.prefix}notify.dlq`;

it('dead-letters bad events at once, and carries on delivering good ones', async () => {
  // Not JSON; an SmsRequested whose data breaks the contract; a version nobody knows.
  await rabbit.publish(exchange(), SmsRequested.type, 'this is not an event', { persistent: true });
  const invalid = createEvent(SmsRequested, smsRequested(), { source: 'test', correlationId: 'bad-data' });
  await rabbit.publish(
    exchange(),
    SmsRequested.type,
    JSON.stringify({ ...invalid, data: { ...invalid.data, body: '' } }),
    { persistent: true },
  );
  await rabbit.publish(
    exchange(),
    BookingCreated.type,
    JSON.stringify({
      ...createEvent(BookingCreated, bookingCreated(), { source: 'test', correlationId: 'v9' }),
      type: 'booking.created.v9',
      version: 9,
    }),
    { persistent: true },
  );
  // The live feed gets garbage too (it is bound to JobAssigned): ignored, the replica's queue keeps consuming. The
  // durable queue is bound to JobAssigned as well (the booking record's technician), so it dead-letters its copy.
  await rabbit.publish(exchange(), JobAssigned.type, '{"type":"job.assigned.v1","data":{}}');

  await waitFor(async () => (await rabbit.messageCount(dlq())) === 4, { timeoutMs: 15_000 });
  const dead = await rabbit.peek(dlq(), 4);
  expect(dead.map((m) => m.properties.headers?.['x-dead-letter-reason']).sort()).toEqual([
    'invalid-data',
    'invalid-envelope',
    'malformed-json',
    'unknown-version',
  ]);
  // None of them made a delivery row, and nothing reached the dashboard.
  expect(await stack.notify[0]!.service.deliveries.list({ limit: 10 })).toEqual([]);
  expect(admin.of('new_booking')).toHaveLength(0);

  // The same process, consumers and live feed still work.
  const sms = smsRequested();
  await stack.publish(SmsRequested, sms);
  const booking = bookingCreated({ suburb: 'Joondalup' });
  await stack.publish(BookingCreated, booking);
  await admin.next((m) => m.type === 'new_booking' && m.data.id === booking.jobId);
  await waitFor(
    async () =>
      (await stack.notify[0]!.service.deliveries.getByKey(`sms-${sms.requestId}`))?.status === 'sent',
    { timeoutMs: 15_000 },
  );
  const ready = await fetch(`${stack.notify[0]!.url}/readyz`);
  expect(ready.status).toBe(200);
});

it('lets only one worker at a time attempt a message (the row is claimed in Postgres)', async () => {
  const { deliveries } = stack.notify[0]!.service;
  const { delivery } = await deliveries.createIfAbsent({
    key: `sms-${randomUUID()}`,
    channel: 'sms',
    purpose: 'technician-en-route',
    recipient: '0412 345 678',
    body: 'x',
    maxAttempts: 3,
    requestedAt: new Date(),
  });
  const claims = await Promise.all(
    Array.from({ length: 5 }, () => deliveries.claimAttempt(delivery.id, 'local', 60_000)),
  );
  expect(claims.filter((c) => c !== null)).toEqual([1]);
  // Held: nobody else gets it while the lease runs; once it is over (a crashed worker), the next attempt does.
  expect(await deliveries.claimAttempt(delivery.id, 'local', 60_000)).toBeNull();
  expect(await deliveries.claimAttempt(delivery.id, 'local', 0)).toBe(2);
  // A message that was sent is never claimed again.
  await deliveries.markSent(delivery.id, 2, {
    transport: 'local',
    providerMessageId: 'local-1',
    durationMs: 1,
    at: new Date(),
  });
  expect(await deliveries.claimAttempt(delivery.id, 'local', 0)).toBeNull();
});
