import '../testing/polyfills';
import {
  NotificationConnection,
  parseNotification,
  reconnectDelay,
  type SocketLike,
} from '../notifications/connection';
import { notificationsReducer } from '../notifications/list';

class Socket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
}

function setup() {
  jest.useFakeTimers();
  const sockets: Socket[] = [];
  const statuses: string[] = [];
  const received: unknown[] = [];
  const conn = new NotificationConnection({
    url: 'ws://x/ws/notifications',
    onStatus: (s) => statuses.push(s),
    onNotification: (n) => received.push(n),
    createSocket: () => {
      const s = new Socket();
      sockets.push(s);
      return s;
    },
  });
  return { conn, sockets, statuses, received };
}

afterEach(() => jest.useRealTimers());

const booking = {
  type: 'new_booking',
  data: {
    id: 'j1',
    jobNumber: 'JOB-1',
    serviceType: 'new-tyres',
    suburb: 'Joondalup',
    timeSlot: '8-10 AM',
    createdAt: '2026-11-21T01:00:00Z',
  },
};

test('on open it subscribes (all suburbs) and pings every 30 s', () => {
  const { conn, sockets, statuses } = setup();
  conn.start();
  sockets[0]!.readyState = 1;
  sockets[0]!.onopen?.({});
  expect(statuses.at(-1)).toBe('live');
  expect(JSON.parse(sockets[0]!.sent[0]!)).toEqual({ type: 'subscribe_suburbs', suburbs: [] });
  jest.advanceTimersByTime(29_999);
  expect(sockets[0]!.sent).toHaveLength(1);
  jest.advanceTimersByTime(1);
  expect(JSON.parse(sockets[0]!.sent[1]!)).toEqual({ type: 'ping' });
  jest.advanceTimersByTime(30_000);
  expect(sockets[0]!.sent).toHaveLength(3);
  conn.stop();
});

test('new_booking messages are delivered; anything else is ignored', () => {
  const { conn, sockets, received } = setup();
  conn.start();
  sockets[0]!.onmessage?.({ data: JSON.stringify(booking) });
  sockets[0]!.onmessage?.({ data: JSON.stringify({ type: 'pong' }) });
  sockets[0]!.onmessage?.({ data: 'not json' });
  expect(received).toEqual([booking]);
  conn.stop();
});

test('abnormal close: reconnect after 1 s, 2 s, 4 s, 8 s, 16 s, then give up after 5 attempts', () => {
  expect([1, 2, 3, 4, 5, 6, 7].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  const { conn, sockets, statuses } = setup();
  conn.start();
  for (const delay of [1000, 2000, 4000, 8000, 16000]) {
    sockets.at(-1)!.onclose?.({ code: 1006 });
    expect(statuses.at(-1)).toBe('reconnecting');
    const before = sockets.length;
    jest.advanceTimersByTime(delay - 1);
    expect(sockets).toHaveLength(before);
    jest.advanceTimersByTime(1);
    expect(sockets).toHaveLength(before + 1);
  }
  sockets.at(-1)!.onclose?.({ code: 1006 });
  expect(statuses.at(-1)).toBe('disconnected');
  jest.advanceTimersByTime(60_000);
  expect(sockets).toHaveLength(6);
});

test('a successful open resets the attempts; a normal close does not reconnect', () => {
  const { conn, sockets, statuses } = setup();
  conn.start();
  sockets[0]!.onclose?.({ code: 1006 });
  jest.advanceTimersByTime(1000);
  sockets[1]!.onopen?.({});
  sockets[1]!.onclose?.({ code: 1006 });
  jest.advanceTimersByTime(1000); // back to 1 s, not 2 s
  expect(sockets).toHaveLength(3);
  sockets[2]!.onclose?.({ code: 1000 });
  expect(statuses.at(-1)).toBe('disconnected');
  jest.advanceTimersByTime(60_000);
  expect(sockets).toHaveLength(3);
});

test('a socket closed because the account was deactivated (4003) is not reopened; a server restart (1001) is', () => {
  const { conn, sockets, statuses } = setup();
  conn.start();
  sockets[0]!.onopen?.({});
  sockets[0]!.onclose?.({ code: 1001 });
  jest.advanceTimersByTime(1000);
  expect(sockets).toHaveLength(2);
  sockets[1]!.onopen?.({});
  sockets[1]!.onclose?.({ code: 4003 });
  expect(statuses.at(-1)).toBe('disconnected');
  jest.advanceTimersByTime(60_000);
  expect(sockets).toHaveLength(2);
});

test('parseNotification keeps the spec fields; a job assigned to a technician becomes a card too', () => {
  expect(parseNotification(JSON.stringify(booking))).toEqual(booking);
  expect(parseNotification(JSON.stringify({ type: 'new_booking', data: {} }))).toBeNull();
  expect(parseNotification(JSON.stringify({ type: 'pong', data: { ts: 'x' } }))).toBeNull();
  expect(
    parseNotification(
      JSON.stringify({
        type: 'job_assigned',
        data: {
          jobId: 'j9',
          jobNumber: 'JOB-9',
          scheduledDate: '2026-11-25',
          timeSlot: '2-4 PM',
          assignedAt: '2026-11-21T02:00:00Z',
        },
      }),
    ),
  ).toEqual({
    type: 'job_assigned',
    data: {
      id: 'j9',
      jobNumber: 'JOB-9',
      serviceType: '',
      suburb: '',
      timeSlot: '2-4 PM',
      createdAt: '2026-11-21T02:00:00Z',
      scheduledDate: '2026-11-25',
    },
  });
});

test('job_unassigned refreshes the lists without a card', () => {
  jest.useFakeTimers();
  const changes: number[] = [];
  const received: unknown[] = [];
  const sockets: Socket[] = [];
  const conn = new NotificationConnection({
    url: 'ws://x',
    onStatus: () => undefined,
    onNotification: (n) => received.push(n),
    onListChange: () => changes.push(1),
    createSocket: () => {
      const s = new Socket();
      sockets.push(s);
      return s;
    },
  });
  conn.start();
  sockets[0]!.onmessage?.({
    data: JSON.stringify({ type: 'job_unassigned', data: { jobId: 'j', jobNumber: 'J', assignedAt: 'x' } }),
  });
  expect(changes).toHaveLength(1);
  expect(received).toHaveLength(0);
  conn.stop();
});

test('the list keeps 10, newest first, one per booking', () => {
  let list = [] as ReturnType<typeof notificationsReducer>;
  for (let i = 0; i < 12; i++)
    list = notificationsReducer(list, {
      type: 'add',
      notification: { ...booking, data: { ...booking.data, id: `j${i}` } } as never,
      receivedAt: i,
    });
  expect(list).toHaveLength(10);
  expect(list[0]!.id).toBe('j11');
  list = notificationsReducer(list, {
    type: 'add',
    notification: { ...booking, data: { ...booking.data, id: 'j5' } } as never,
    receivedAt: 99,
  });
  expect(list).toHaveLength(10);
  expect(list[0]!.id).toBe('j5');
  expect(notificationsReducer(list, { type: 'dismiss', id: 'j5' })).toHaveLength(9);
});
