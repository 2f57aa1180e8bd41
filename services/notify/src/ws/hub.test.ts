import { EventEmitter } from 'node:events';
import pino from 'pino';
import WebSocket from 'ws';
import { NotificationHub } from './hub';

/** Enough of a ws WebSocket for the hub: readyState, bufferedAmount, send/close/terminate, events. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  sent: string[] = [];
  closedWith?: number;
  terminated = false;
  send(data: Buffer) {
    this.sent.push(data.toString());
  }
  close(code: number) {
    this.closedWith = code;
    this.readyState = WebSocket.CLOSED;
    setImmediate(() => this.emit('close'));
  }
  terminate() {
    this.terminated = true;
    this.readyState = WebSocket.CLOSED;
    setImmediate(() => this.emit('close'));
  }
  ping() {}
  types() {
    return this.sent.map((s) => (JSON.parse(s) as { type: string }).type);
  }
}

const hub = (overrides: Partial<ConstructorParameters<typeof NotificationHub>[0]> = {}) =>
  new NotificationHub({
    logger: pino({ level: 'silent' }),
    heartbeatMs: 30_000,
    maxMessagesPer10s: 3,
    maxLifetimeMs: 0,
    maxBufferedBytes: 1000,
    ...overrides,
  });

const admin = (id: string) => ({ id, username: id, role: 'admin' as const });
const booking = {
  to: 'admins' as const,
  suburb: 'Mandurah',
  message: {
    type: 'new_booking' as const,
    data: {
      id: 'j1',
      jobNumber: 'JOB-1',
      serviceType: 'new-tyres' as const,
      suburb: 'Mandurah',
      timeSlot: '8-10 AM' as const,
      createdAt: '2026-11-21T02:15:00.000Z',
    },
  },
};

describe('NotificationHub', () => {
  it('drops a reader that stopped reading instead of buffering for it; the others still get the message', async () => {
    const h = hub();
    const slow = new FakeSocket();
    const fine = new FakeSocket();
    h.add(slow as unknown as WebSocket, admin('a1'), 'c1');
    h.add(fine as unknown as WebSocket, admin('a2'), 'c2');
    slow.bufferedAmount = 5000; // over maxBufferedBytes
    expect(h.deliver(booking)).toBe(1);
    expect(slow.terminated).toBe(true);
    expect(slow.types()).toEqual(['connected']);
    expect(fine.types()).toEqual(['connected', 'new_booking']);
    await new Promise((r) => setImmediate(r));
    expect(h.size).toBe(1);
  });

  it('answers a flood with rate_limited, then closes it (1008), without letting it change anything', () => {
    const h = hub();
    const ws = new FakeSocket();
    h.add(ws as unknown as WebSocket, admin('a1'), 'c1');
    for (let i = 0; i < 3; i++) ws.emit('message', Buffer.from('{"type":"ping"}'), false);
    ws.emit('message', Buffer.from('{"type":"subscribe_suburbs","suburbs":["Perth"]}'), false);
    expect(ws.types()).toEqual(['connected', 'pong', 'pong', 'pong', 'error']);
    // The subscription above was refused: the socket still gets every suburb.
    expect(h.deliver(booking)).toBe(1);
    for (let i = 0; i < 20 && ws.closedWith === undefined; i++)
      ws.emit('message', Buffer.from('{"type":"ping"}'), false);
    expect(ws.closedWith).toBe(1008);
  });

  it('never throws on junk and keeps the socket', () => {
    const h = hub({ maxMessagesPer10s: 100 });
    const ws = new FakeSocket();
    h.add(ws as unknown as WebSocket, admin('a1'), 'c1');
    for (const junk of [
      '',
      'null',
      '[]',
      '{"type":1}',
      '{"type":"subscribe_suburbs","suburbs":"x"}',
      '\u0000',
    ])
      ws.emit('message', Buffer.from(junk), false);
    ws.emit('message', Buffer.from([0xff, 0x00]), true);
    expect(ws.types().filter((t) => t === 'error')).toHaveLength(7);
    expect(ws.closedWith).toBeUndefined();
  });
});
