/**
 * ws/ is notify's own transport beside http/, with the same rules: it parses and serialises only (the upgrade and
 * its identity check here, client frames and server messages in hub.ts, the cross-replica user-message channel in
 * user-messages.ts); what a message says and who gets it is decided in src/domain and src/app.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import {
  correlationIdFrom,
  IDENTITY_HEADER,
  REQUEST_ID_HEADER,
  verifyIdentity,
  type Identity,
  type Logger,
} from '@tyres/service-kit';
import { WebSocketServer } from 'ws';
import type { NotificationHub } from './hub';

export const WS_PATH = '/ws/notifications';

export interface UpgradeOptions {
  hub: NotificationHub;
  logger: Logger;
  identityPublicKey: string;
  maxPayloadBytes: number;
  maxConnections: number;
  isDraining: () => boolean;
  onRejected?: (status: number) => void;
}

/** Answers an upgrade with a plain HTTP error before any WebSocket frame exists, then closes the socket. */
export function rejectUpgrade(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * The HTTP server's 'upgrade' handler. Only `/ws/notifications` upgrades, and only with a valid gateway-signed
 * identity (`x-identity-token`, ES256): without one (no session at the gateway, or someone reaching the pod
 * directly) the answer is 401 and no WebSocket is ever opened.
 */
export function createUpgradeHandler(options: UpgradeOptions) {
  const wss = new WebSocketServer({
    noServer: true,
    clientTracking: false,
    maxPayload: options.maxPayloadBytes,
    // Notifications are small; compression would cost CPU and ~300 KB of zlib state per socket.
    perMessageDeflate: false,
  });
  const log = options.logger.child({ component: 'ws-upgrade' });

  const reject = (socket: Duplex, status: number, reason: string, message: string) => {
    options.onRejected?.(status);
    rejectUpgrade(socket, status, reason, message);
  };

  return (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0];
    if (path !== WS_PATH && path !== `${WS_PATH}/`) return reject(socket, 404, 'Not Found', 'Not found');
    // Identity first: an anonymous or forged request learns nothing else about this replica (not even that it is
    // full or shutting down).
    const header = req.headers[IDENTITY_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) return reject(socket, 401, 'Unauthorized', 'Not authenticated');
    let identity: Identity;
    try {
      identity = verifyIdentity(options.identityPublicKey, token);
    } catch {
      return reject(socket, 401, 'Unauthorized', 'Invalid identity token');
    }
    if (options.isDraining()) return reject(socket, 503, 'Service Unavailable', 'Shutting down; reconnect');
    if (options.hub.size >= options.maxConnections)
      return reject(socket, 503, 'Service Unavailable', 'Too many connections; reconnect later');
    const correlationId = correlationIdFrom(req.headers[REQUEST_ID_HEADER]);
    try {
      wss.handleUpgrade(req, socket, head, (ws) => options.hub.add(ws, identity, correlationId));
    } catch (err) {
      log.warn({ err: (err as Error).message, correlationId }, 'websocket upgrade failed');
      socket.destroy();
    }
  };
}
