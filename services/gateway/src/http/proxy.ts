import http from 'node:http';
import type { Duplex } from 'node:stream';
import { createProxyMiddleware, type RequestHandler as ProxyHandler } from 'http-proxy-middleware';
import {
  IDENTITY_HEADER,
  IdentitySigner,
  parsePrivateKey,
  REQUEST_ID_HEADER,
  type Logger,
} from '@tyres/service-kit';
import type { PublicUser } from '../domain/users';
import { matchRoute, WS_ROUTES, type Upstream } from './routing';

export type UpstreamUrls = Record<Upstream, string>;

export const SERVICE_LABEL: Record<Upstream, string> = {
  booking: 'booking',
  jobs: 'jobs',
  billing: 'billing',
  reporting: 'reporting',
  notify: 'notification',
};

export interface ProxyDeps {
  upstreams: UpstreamUrls;
  privateKey: string;
  logger: Logger;
  maxBodyBytes: number;
  maxUploadBytes: number;
}

/**
 * One keep-alive agent per gateway: reusing upstream connections is what keeps the gateway's overhead within
 * budget (a new TCP handshake per request costs more than everything else the gateway does). noDelay: without
 * it Nagle's algorithm holds small proxied writes back and single requests wait tens of milliseconds.
 */
const agent = new http.Agent({
  keepAlive: true,
  maxSockets: 512,
  maxFreeSockets: 64,
  timeout: 60_000,
  noDelay: true,
});

/** Replaces whatever identity a client sent with the one the gateway verified. */
export function forwardIdentity(
  req: http.IncomingMessage,
  user: PublicUser | undefined,
  signer: IdentitySigner,
  correlationId: string,
) {
  delete req.headers[IDENTITY_HEADER];
  if (user)
    req.headers[IDENTITY_HEADER] = signer.sign({ id: user.id, username: user.username, role: user.role });
  req.headers[REQUEST_ID_HEADER] = correlationId;
}

/**
 * http-proxy-middleware instances per service. They carry the WebSocket upgrade (/ws/notifications); plain
 * HTTP API calls take the leaner path in api-forwarder.ts.
 */
export function createServiceProxies(deps: ProxyDeps) {
  const signer = new IdentitySigner(parsePrivateKey(deps.privateKey));
  const proxies = new Map<Upstream, ProxyHandler>();
  for (const [name, target] of Object.entries(deps.upstreams) as [Upstream, string][]) {
    proxies.set(
      name,
      createProxyMiddleware({
        target,
        changeOrigin: false,
        xfwd: true,
        agent,
        proxyTimeout: 30_000,
        ejectPlugins: true,
        plugins: [
          (proxyServer) => {
            proxyServer.on('error', (err, req, resOrSocket) => {
              deps.logger.warn({ err: err.message, upstream: name, url: req.url }, 'upstream unavailable');
              if (resOrSocket instanceof http.ServerResponse) {
                if (!resOrSocket.headersSent) {
                  resOrSocket.writeHead(502, { 'Content-Type': 'application/json' });
                  resOrSocket.end(
                    JSON.stringify({
                      message: `The ${SERVICE_LABEL[name]} service is unavailable right now. Please try again shortly.`,
                      code: 'upstream_unavailable',
                    }),
                  );
                } else resOrSocket.destroy();
              } else (resOrSocket as Duplex).destroy();
            });
          },
        ],
      }),
    );
  }

  /** For the server's 'upgrade' event. Returns false when the path is not a proxied WebSocket. */
  const upgrade = (
    req: http.IncomingMessage,
    socket: Duplex,
    head: Buffer,
    user: PublicUser | undefined,
    correlationId: string,
  ) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = matchRoute(path, WS_ROUTES);
    if (!route) return false;
    if (route.access !== 'public' && !user) {
      rejectUpgrade(socket, 401, 'Unauthorized');
      return true;
    }
    forwardIdentity(req, user, signer, correlationId);
    proxies.get(route.upstream)!.upgrade(req, socket as never, head);
    return true;
  };

  return { upgrade, agent, signer };
}

export function rejectUpgrade(socket: Duplex, status: number, text: string) {
  const body = JSON.stringify({ message: text });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
