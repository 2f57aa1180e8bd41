import { randomUUID, generateKeyPairSync } from 'node:crypto';
import WebSocket from 'ws';
import { BookingCreated, JobAssigned, UserStatusChanged } from '@tyres/events';
import { signIdentity } from '@tyres/service-kit';
import { bookingCreated, jobAssigned } from '../fixtures';
import {
  connect,
  sleep,
  startNotifyInstance,
  startStack,
  upgradeStatus,
  wsUrl,
  type Stack,
  type TestSocket,
} from './harness';

jest.setTimeout(60_000);

let stack: Stack;
let gatewayWs: string;

beforeAll(async () => {
  stack = await startStack('notify-ws');
  gatewayWs = wsUrl(stack.gateways[0]!.baseUrl);
});

afterAll(async () => {
  await stack?.stop();
});

const cookie = (c: { cookie?: string }) => ({ Cookie: c.cookie ?? '' });
const opened: TestSocket[] = [];
async function open(headers: Record<string, string>, url = gatewayWs): Promise<TestSocket> {
  const s = await connect(url, headers);
  opened.push(s);
  return s;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

describe('authentication of the upgrade', () => {
  it('refuses an upgrade without a session with 401 before any message', async () => {
    expect(await upgradeStatus(gatewayWs)).toEqual({ status: 401, messages: 0 });
    expect(await upgradeStatus(gatewayWs, { Cookie: 'tyres_session=forged' })).toEqual({
      status: 401,
      messages: 0,
    });
  });

  it('refuses direct connections to the service without a valid gateway-signed identity', async () => {
    const direct = wsUrl(stack.notify[0]!.url);
    expect((await upgradeStatus(direct)).status).toBe(401);
    expect((await upgradeStatus(direct, { 'x-identity-token': 'not-a-jwt' })).status).toBe(401);
    // Signed with another key: someone minting their own identity.
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const forged = signIdentity(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), {
      id: randomUUID(),
      username: 'mallory',
      role: 'admin',
    });
    expect((await upgradeStatus(direct, { 'x-identity-token': forged })).status).toBe(401);
    // Only the notifications path upgrades.
    const other = `${stack.notify[0]!.url.replace('http', 'ws')}/ws/other`;
    expect(
      (
        await upgradeStatus(other, {
          'x-identity-token': stack.identityToken({ id: randomUUID(), username: 'a', role: 'admin' }),
        })
      ).status,
    ).toBe(404);
  });

  it('accepts staff through the gateway and says who they are', async () => {
    const admin = await stack.admin();
    const socket = await open(cookie(admin));
    expect(socket.messages[0]).toEqual({
      type: 'connected',
      data: { userId: expect.any(String), role: 'admin', heartbeatMs: 30_000 },
    });
  });
});

describe('who receives what', () => {
  let admin: TestSocket;
  let tech: TestSocket;
  let otherTech: TestSocket;
  let techId: string;
  let otherTechId: string;

  beforeAll(async () => {
    const t1 = await stack.technician('tina');
    const t2 = await stack.technician('omar');
    techId = t1.id;
    otherTechId = t2.id;
    admin = await connect(gatewayWs, cookie(await stack.admin()));
    tech = await connect(gatewayWs, cookie(t1.client));
    otherTech = await connect(gatewayWs, cookie(t2.client));
  });

  afterAll(() => {
    for (const s of [admin, tech, otherTech]) s?.close();
  });

  it('sends every new booking to admins, in the spec shape, and none to technicians', async () => {
    const booking = bookingCreated({ suburb: 'Joondalup', timeSlot: '2-4 PM' });
    await stack.publish(BookingCreated, booking);
    const msg = await admin.next((m) => m.type === 'new_booking' && m.data.id === booking.jobId);
    expect(msg).toEqual({
      type: 'new_booking',
      data: {
        id: booking.jobId,
        jobNumber: booking.jobNumber,
        serviceType: 'new-tyres',
        suburb: 'Joondalup',
        timeSlot: '2-4 PM',
        createdAt: booking.createdAt,
      },
    });
    await sleep(300);
    expect(tech.of('new_booking')).toHaveLength(0);
    expect(otherTech.of('new_booking')).toHaveLength(0);
  });

  it('sends an assigned booking and the assignment notice to that technician only', async () => {
    const assignment = jobAssigned({
      technicianId: techId,
      suburb: 'Rockingham',
      serviceType: 'battery-service',
    });
    await stack.publish(JobAssigned, assignment);
    const booking = await tech.next((m) => m.type === 'new_booking' && m.data.id === assignment.jobId);
    expect(booking.data).toEqual({
      id: assignment.jobId,
      jobNumber: assignment.jobNumber,
      serviceType: 'battery-service',
      suburb: 'Rockingham',
      timeSlot: assignment.timeSlot,
      createdAt: assignment.assignedAt,
    });
    const notice = await tech.next((m) => m.type === 'job_assigned' && m.data.jobId === assignment.jobId);
    expect(notice.data).toMatchObject({
      jobNumber: assignment.jobNumber,
      scheduledDate: assignment.scheduledDate,
      suburb: 'Rockingham',
    });
    await sleep(300);
    expect(
      otherTech.messages.filter((m) => m.data.jobId === assignment.jobId || m.data.id === assignment.jobId),
    ).toHaveLength(0);
    expect(
      admin.messages.filter((m) => m.data.jobId === assignment.jobId || m.data.id === assignment.jobId),
    ).toHaveLength(0);
  });

  it('tells the previous technician when a job is reassigned', async () => {
    const assignment = jobAssigned({ technicianId: otherTechId, previousTechnicianId: techId });
    await stack.publish(JobAssigned, assignment);
    await otherTech.next((m) => m.type === 'new_booking' && m.data.id === assignment.jobId);
    const gone = await tech.next((m) => m.type === 'job_unassigned' && m.data.jobId === assignment.jobId);
    expect(gone.data).toEqual({
      jobId: assignment.jobId,
      jobNumber: assignment.jobNumber,
      assignedAt: assignment.assignedAt,
    });
  });

  it('delivers a redelivered (duplicate) event once', async () => {
    const envelope = await stack.publish(BookingCreated, bookingCreated());
    await stack.republish(envelope);
    await admin.next((m) => m.type === 'new_booking' && m.data.id === envelope.data.jobId);
    await sleep(500);
    expect(admin.messages.filter((m) => m.data.id === envelope.data.jobId)).toHaveLength(1);
  });
});

describe('client messages', () => {
  it('filters new bookings by subscribed suburbs; an empty list means all', async () => {
    const socket = await open(cookie(await stack.admin()));
    const ack = await socket.request(
      { type: 'subscribe_suburbs', suburbs: ['Mandurah', 'mount-lawley'] },
      'subscribed',
    );
    expect(ack.data).toEqual({ suburbs: ['Mandurah', 'mount-lawley'] });

    const inMandurah = bookingCreated({ suburb: 'Mandurah' });
    const inPerth = bookingCreated({ suburb: 'Perth' });
    const inMountLawley = bookingCreated({ suburb: 'Mount Lawley' });
    await stack.publish(BookingCreated, inPerth);
    await stack.publish(BookingCreated, inMandurah);
    await stack.publish(BookingCreated, inMountLawley);
    await socket.next((m) => m.data.id === inMountLawley.jobId);
    await sleep(300);
    expect(socket.of('new_booking').map((m) => m.data.id)).toEqual([inMandurah.jobId, inMountLawley.jobId]);

    await socket.request({ type: 'subscribe_suburbs', data: { suburbs: [] } }, 'subscribed');
    const anywhere = bookingCreated({ suburb: 'Baldivis' });
    await stack.publish(BookingCreated, anywhere);
    await socket.next((m) => m.data.id === anywhere.jobId);
  });

  it('answers ping with pong', async () => {
    const socket = await open(cookie(await stack.admin()));
    const pong = await socket.request({ type: 'ping' }, 'pong');
    expect(Date.parse(String(pong.data.ts))).not.toBeNaN();
  });

  it('answers malformed messages with an error and keeps the connection', async () => {
    const socket = await open(cookie(await stack.admin()));
    expect((await socket.request('{not json', 'error')).data).toEqual({
      code: 'malformed_json',
      message: 'Message is not valid JSON',
    });
    expect((await socket.request({ type: 'drop_tables' }, 'error')).data).toMatchObject({
      code: 'unknown_type',
    });
    expect(
      (await socket.request({ type: 'subscribe_suburbs', suburbs: 'Perth' }, 'error')).data,
    ).toMatchObject({ code: 'invalid_message' });
    expect((await socket.request([1, 2, 3], 'error')).data).toMatchObject({ code: 'invalid_message' });
    const from = socket.messages.length;
    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect((await socket.next((m) => m.type === 'error', 5000, from)).data).toMatchObject({
      code: 'binary_not_supported',
    });
    await socket.request({ type: 'ping' }, 'pong');
  });

  it('closes a socket that sends an oversized message (1009), and the service carries on', async () => {
    const socket = await open(cookie(await stack.admin()));
    socket.send({ type: 'subscribe_suburbs', suburbs: ['x'.repeat(20_000)] });
    expect((await socket.closed).code).toBe(1009);
    const again = await open(cookie(await stack.admin()));
    await again.request({ type: 'ping' }, 'pong');
  });

  it('rate-limits chatty clients and drops floods', async () => {
    const socket = await open(cookie(await stack.admin()));
    for (let i = 0; i < 40; i++) socket.send({ type: 'ping' });
    await socket.next((m) => m.type === 'error' && m.data.code === 'rate_limited');
    for (let i = 0; i < 150; i++) socket.send({ type: 'ping' });
    expect((await socket.closed).code).toBe(1008);
  });
});

describe('connection lifecycle', () => {
  it('closes the sockets of a deactivated user', async () => {
    const { client, id } = await stack.technician('dave');
    const socket = await open(cookie(client));
    await stack.publish(UserStatusChanged, {
      userId: id,
      username: 'dave',
      role: 'technician',
      isActive: false,
      changedAt: new Date().toISOString(),
    });
    expect(await socket.closed).toEqual({ code: 4003, reason: 'Account deactivated' });
  });

  it('drops connections that stop answering the heartbeat', async () => {
    const replica = await startNotifyInstance(
      { databaseUrl: stack.db.url, prefix: stack.prefix, publicKey: stack.keys.publicKey },
      { WS_HEARTBEAT_MS: '250', RUN_WORKERS: 'false' },
    );
    try {
      const headers = {
        'x-identity-token': stack.identityToken({ id: randomUUID(), username: 'boss', role: 'admin' }),
      };
      const healthy = await connect(wsUrl(replica.url), headers);
      // A client whose network died: it never answers pings.
      const dead = new WebSocket(wsUrl(replica.url), { headers, autoPong: false });
      const deadClosed = new Promise<number>((resolve) => dead.once('close', (code) => resolve(code)));
      await new Promise((resolve) => dead.once('open', resolve));
      expect(replica.service.hub.size).toBe(2);
      expect(await deadClosed).toBe(1006); // terminated, no closing handshake
      await sleep(600);
      expect(healthy.ws.readyState).toBe(WebSocket.OPEN);
      expect(replica.service.hub.size).toBe(1);
      healthy.close();
    } finally {
      await replica.stop();
    }
  });

  it('closes sockets cleanly on shutdown (1001)', async () => {
    const replica = await startNotifyInstance(
      { databaseUrl: stack.db.url, prefix: stack.prefix, publicKey: stack.keys.publicKey },
      { RUN_WORKERS: 'false' },
    );
    const headers = {
      'x-identity-token': stack.identityToken({ id: randomUUID(), username: 'boss', role: 'admin' }),
    };
    const socket = await connect(wsUrl(replica.url), headers);
    const stopping = replica.stop();
    expect(await socket.closed).toEqual({ code: 1001, reason: 'Server shutting down' });
    await stopping;
    expect((await upgradeStatus(wsUrl(replica.url), headers)).status).toBe(0); // nothing listening any more
  });
});
