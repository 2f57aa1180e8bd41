import type { Duplex } from 'node:stream';
import type { Identity, Logger } from '@tyres/service-kit';
import WebSocket from 'ws';
import { inSpan, SpanKind } from '@tyres/telemetry';
import {
  normalizeSuburb,
  parseClientMessage,
  suburbFilter,
  type Delivery,
  type ServerMessage,
} from '../domain/notifications';

export interface HubOptions {
  logger: Logger;
  heartbeatMs: number;
  maxMessagesPer10s: number;
  maxLifetimeMs: number;
  maxBufferedBytes: number;
  metrics?: HubMetrics;
}

export interface HubMetrics {
  connected(role: string): void;
  disconnected(role: string): void;
  sent(type: string, count: number): void;
  dropped(reason: string): void;
}

interface Client {
  ws: WebSocket;
  identity: Identity;
  correlationId: string;
  /** null = every suburb (the default, and what subscribe_suburbs [] restores). */
  suburbs: Set<string> | null;
  alive: boolean;
  windowStart: number;
  windowCount: number;
  lifetimeTimer?: NodeJS.Timeout;
}

/** WebSocket close codes used by the hub (4000-4999 are the application's). */
export const CLOSE = {
  goingAway: 1001,
  policy: 1008,
  reconnect: 4000,
  deactivated: 4003,
} as const;

const WINDOW_MS = 10_000;

/**
 * The connected dashboards of this replica: who is connected, with which suburb filter, and delivery of
 * notifications to admins or to one user. Each message is serialised once and the same buffer is written to
 * every matching socket.
 */
export class NotificationHub {
  private readonly clients = new Set<Client>();
  private readonly admins = new Set<Client>();
  private readonly byUser = new Map<string, Set<Client>>();
  private heartbeat?: NodeJS.Timeout;
  private closing = false;
  /** Sockets corked during this turn of the event loop; uncorked together by flush(). */
  private readonly corked = new Set<Duplex>();
  private flushScheduled = false;
  private readonly log: Logger;

  constructor(private readonly options: HubOptions) {
    this.log = options.logger.child({ component: 'ws-hub' });
  }

  get size(): number {
    return this.clients.size;
  }

  start(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => this.beat(), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Registers an upgraded socket; from here on it receives notifications. */
  add(ws: WebSocket, identity: Identity, correlationId: string): void {
    const client: Client = {
      ws,
      identity,
      correlationId,
      suburbs: null,
      alive: true,
      windowStart: Date.now(),
      windowCount: 0,
    };
    this.clients.add(client);
    if (identity.role === 'admin') this.admins.add(client);
    let own = this.byUser.get(identity.id);
    if (!own) this.byUser.set(identity.id, (own = new Set()));
    own.add(client);
    this.options.metrics?.connected(identity.role);

    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('message', (data, isBinary) => this.onMessage(client, data, isBinary));
    // Without an 'error' listener a protocol error (e.g. a frame above maxPayload) would crash the process.
    ws.on('error', (err) => this.log.debug({ err: err.message, userId: identity.id }, 'websocket error'));
    ws.on('close', () => this.remove(client));

    if (this.options.maxLifetimeMs > 0) {
      // ±10 % so sockets opened together do not all reconnect together.
      const lifetime = this.options.maxLifetimeMs * (0.9 + Math.random() * 0.2);
      client.lifetimeTimer = setTimeout(
        () => ws.close(CLOSE.reconnect, 'Session re-check: please reconnect'),
        lifetime,
      );
      client.lifetimeTimer.unref();
    }
    this.send(client, {
      type: 'connected',
      data: { userId: identity.id, role: identity.role, heartbeatMs: this.options.heartbeatMs },
    });
    this.log.debug(
      { userId: identity.id, role: identity.role, correlationId, clients: this.clients.size },
      'dashboard connected',
    );
  }

  /**
   * Delivers one notification to the admins or to one user's sockets, honouring each socket's suburb filter. The
   * push is a span in the trace of the event that caused it (the active span: the live feed's consumer span).
   */
  deliver(delivery: Delivery): number {
    return inSpan(
      'dashboard push',
      {
        kind: SpanKind.PRODUCER,
        attributes: {
          'tyres.push.message_type': delivery.message.type,
          'tyres.push.audience': delivery.to === 'admins' ? 'admins' : 'user',
        },
      },
      (span) => {
        const sent = this.push(delivery);
        span.setAttribute('tyres.push.sockets', sent);
        return sent;
      },
    );
  }

  private push(delivery: Delivery): number {
    const targets = delivery.to === 'admins' ? this.admins : this.byUser.get(delivery.userId);
    if (!targets || targets.size === 0) return 0;
    const payload = Buffer.from(JSON.stringify(delivery.message));
    const filtered = delivery.message.type === 'new_booking';
    // Normalised once per event, not once per socket; a socket with no filter (null) gets everything.
    const suburb = delivery.suburb !== undefined ? normalizeSuburb(delivery.suburb) : undefined;
    let count = 0;
    for (const client of targets) {
      if (filtered && client.suburbs !== null && (suburb === undefined || !client.suburbs.has(suburb)))
        continue;
      if (this.write(client, payload)) count += 1;
    }
    this.options.metrics?.sent(delivery.message.type, count);
    return count;
  }

  /** Closes every socket of a user (deactivated account). */
  disconnectUser(userId: string, code: number, reason: string): number {
    const own = this.byUser.get(userId);
    if (!own) return 0;
    for (const client of [...own]) client.ws.close(code, reason);
    return own.size;
  }

  /** A deactivated account (UserStatusChanged): its sockets are closed with 4003, so the dashboard signs out. */
  disconnectDeactivated(userId: string): number {
    return this.disconnectUser(userId, CLOSE.deactivated, 'Account deactivated');
  }

  /**
   * Shutdown: tells every client to reconnect (1001, "going away"; they land on another replica), waits briefly for
   * the closing handshakes, then cuts whatever is left.
   */
  async close(timeoutMs = 2000): Promise<void> {
    this.closing = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    const open = [...this.clients];
    if (open.length === 0) return;
    const closed = Promise.all(
      open.map((c) =>
        c.ws.readyState === WebSocket.CLOSED
          ? undefined
          : new Promise<void>((resolve) => c.ws.once('close', () => resolve())),
      ),
    );
    for (const c of open) c.ws.close(CLOSE.goingAway, 'Server shutting down');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    for (const c of this.clients) c.ws.terminate();
  }

  private onMessage(client: Client, data: WebSocket.RawData, isBinary: boolean): void {
    client.alive = true;
    const now = Date.now();
    if (now - client.windowStart >= WINDOW_MS) {
      client.windowStart = now;
      client.windowCount = 0;
    }
    client.windowCount += 1;
    if (client.windowCount > this.options.maxMessagesPer10s * 5) {
      this.options.metrics?.dropped('flooding');
      client.ws.close(CLOSE.policy, 'Too many messages');
      return;
    }
    if (client.windowCount > this.options.maxMessagesPer10s) {
      this.sendError(client, 'rate_limited', 'Too many messages; slow down');
      return;
    }
    if (isBinary) {
      this.sendError(client, 'binary_not_supported', 'Send JSON text messages');
      return;
    }
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
    const parsed = parseClientMessage(text);
    if (!parsed.ok) {
      this.sendError(client, parsed.code, parsed.message);
      return;
    }
    const msg = parsed.message;
    if (msg.type === 'ping') {
      this.send(client, { type: 'pong', data: { ts: new Date().toISOString() } });
    } else {
      client.suburbs = suburbFilter(msg.suburbs);
      this.send(client, { type: 'subscribed', data: { suburbs: msg.suburbs } });
    }
  }

  private sendError(
    client: Client,
    code: Extract<ServerMessage, { type: 'error' }>['data']['code'],
    message: string,
  ): void {
    this.send(client, { type: 'error', data: { code, message } });
  }

  private send(client: Client, message: ServerMessage): void {
    this.write(client, Buffer.from(JSON.stringify(message)));
  }

  private write(client: Client, payload: Buffer): boolean {
    const ws = client.ws;
    if (ws.readyState !== WebSocket.OPEN) return false;
    if (ws.bufferedAmount > this.options.maxBufferedBytes) {
      // A stalled reader: drop it instead of buffering without bound (it reconnects and refetches).
      this.options.metrics?.dropped('slow-consumer');
      this.log.warn(
        { userId: client.identity.id, buffered: ws.bufferedAmount },
        'dropping a stalled dashboard connection',
      );
      ws.terminate();
      return false;
    }
    this.cork(ws);
    ws.send(payload, { binary: false });
    return true;
  }

  /**
   * Frames written to a socket in the same turn of the event loop go out in one writev instead of one system call
   * each: a burst of events (RabbitMQ delivers several per read) then costs one write per socket, not one per event
   * per socket. The uncork runs on setImmediate, right after the current I/O callbacks, so nothing waits longer.
   * ws has no public accessor for its socket; without `_socket` (another ws version) frames are simply not batched.
   */
  private cork(ws: WebSocket): void {
    const socket = (ws as unknown as { _socket?: Duplex })._socket;
    if (!socket || this.corked.has(socket)) return;
    socket.cork();
    this.corked.add(socket);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    for (const socket of this.corked) {
      if (!socket.destroyed) socket.uncork();
    }
    this.corked.clear();
  }

  private beat(): void {
    for (const client of this.clients) {
      if (!client.alive) {
        this.options.metrics?.dropped('heartbeat');
        this.log.debug({ userId: client.identity.id }, 'dropping a dead dashboard connection (no pong)');
        client.ws.terminate();
        continue;
      }
      client.alive = false;
      try {
        client.ws.ping();
      } catch {
        client.ws.terminate();
      }
    }
  }

  private remove(client: Client): void {
    if (!this.clients.delete(client)) return;
    this.admins.delete(client);
    const own = this.byUser.get(client.identity.id);
    own?.delete(client);
    if (own && own.size === 0) this.byUser.delete(client.identity.id);
    if (client.lifetimeTimer) clearTimeout(client.lifetimeTimer);
    this.options.metrics?.disconnected(client.identity.role);
    if (!this.closing)
      this.log.debug({ userId: client.identity.id, clients: this.clients.size }, 'dashboard disconnected');
  }
}
