import http from 'node:http';
import type { Histogram } from 'prom-client';
import { correlationIdFrom, REQUEST_ID_HEADER, type IdentitySigner, type Logger } from '@tyres/service-kit';
import type { PublicUser } from '../domain/users';
import { forwardIdentity, SERVICE_LABEL, type UpstreamUrls } from './proxy';
import { matchRoute, ROUTES, type Route, type Upstream } from './routing';
import { applyCors, isCrossSiteMutation } from './security';

/**
 * The hot path of the gateway: every proxied /api call. It does what the express chain did for these calls
 * (security headers, CORS, the CSRF origin check, the session, the route's access rule, the body cap, the
 * signed identity, metrics and the access log) without express, and streams the request and the answer with
 * a bare http.request over a keep-alive pool.
 *
 * Why not http-proxy-middleware here: on this 2-core machine the gateway competes for CPU with the service
 * behind it, and express plus http-proxy spent about as much CPU per request as the booking service did
 * answering it (gateway throughput was 41% of direct; the budget is 70%). http-proxy-middleware still
 * carries the WebSocket upgrade (proxy.ts), where per-message cost is nil.
 *
 * Everything else (the gateway's own /api routes, unknown /api paths, front ends, health) goes to express.
 */
export interface ApiForwarderDeps {
  upstreams: UpstreamUrls;
  signer: IdentitySigner;
  agent: http.Agent;
  logger: Logger;
  allowedOrigins: string[];
  /** Headers every answer carries (helmet's, computed once). */
  securityHeaders: ReadonlyArray<readonly [string, string]>;
  maxBodyBytes: number;
  maxUploadBytes: number;
  /** The session's user, or undefined; only called when the request carries the session cookie. */
  resolveUser: (req: http.IncomingMessage) => Promise<PublicUser | undefined>;
  hasSessionCookie: (req: http.IncomingMessage) => boolean;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  timeoutMs?: number;
}

/** Hop-by-hop headers (RFC 9110 section 7.6.1) are for one connection and must not be forwarded. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
];

/** A path with dot segments could be read differently by the service than by the routing table. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

interface Target {
  hostname: string;
  port: number;
}

function sendJson(res: http.ServerResponse, status: number, body: { message: string; code: string }) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function appendHeader(existing: string | string[] | undefined, value: string): string {
  if (existing === undefined) return value;
  return `${Array.isArray(existing) ? existing.join(', ') : existing}, ${value}`;
}

export function createApiForwarder(deps: ApiForwarderDeps) {
  const targets = new Map<Upstream, Target>();
  for (const [name, url] of Object.entries(deps.upstreams) as [Upstream, string][]) {
    const u = new URL(url);
    targets.set(name, { hostname: u.hostname, port: Number(u.port || (u.protocol === 'https:' ? 443 : 80)) });
  }
  // Bounded label set for the request histogram: one label per routing-table entry.
  const routeLabel = new Map<Route, string>(
    ROUTES.map((r) => [r, r.prefix ?? r.pattern?.source ?? 'unknown']),
  );
  const timeoutMs = deps.timeoutMs ?? 30_000;
  const debug = () => deps.logger.isLevelEnabled('debug');

  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    route: Route,
    user: PublicUser | undefined,
    correlationId: string,
  ) {
    if (route.access !== 'public' && !user)
      return sendJson(res, 401, { message: 'Not authenticated', code: 'unauthorized' });
    if (route.access === 'admin' && user?.role !== 'admin')
      return sendJson(res, 403, { message: 'Only an admin can do that', code: 'forbidden' });
    const limit = route.upload ? deps.maxUploadBytes : deps.maxBodyBytes;
    if (Number(req.headers['content-length'] ?? 0) > limit)
      return sendJson(res, 413, { message: 'Request body is too large', code: 'payload_too_large' });

    const headers = req.headers;
    for (const h of HOP_BY_HOP) delete headers[h];
    forwardIdentity(req, user, deps.signer, correlationId);
    headers['x-forwarded-for'] = appendHeader(headers['x-forwarded-for'], req.socket.remoteAddress ?? '');
    headers['x-forwarded-proto'] ??= 'http';
    if (headers.host) headers['x-forwarded-host'] ??= headers.host;

    const target = targets.get(route.upstream)!;
    const upstream = http.request({
      hostname: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers,
      agent: deps.agent,
    });
    upstream.setTimeout(timeoutMs, () => upstream.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    upstream.on('response', (answer) => {
      const out = answer.headers;
      delete out.connection;
      delete out['keep-alive'];
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    let refused = false;
    upstream.on('error', (err) => {
      if (refused) return;
      deps.logger.warn(
        { err: err.message, upstream: route.upstream, url: req.url, correlationId },
        'upstream unavailable',
      );
      if (res.headersSent) return res.destroy();
      sendJson(res, 502, {
        message: `The ${SERVICE_LABEL[route.upstream]} service is unavailable right now. Please try again shortly.`,
        code: 'upstream_unavailable',
      });
    });
    // The client went away before the answer finished: stop the upstream work too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    // A body without Content-Length (chunked) is counted as it streams: past the cap the upstream call is
    // abandoned and the client gets the same 413 (then the connection is closed, the rest is not read).
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) {
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen <= limit || refused) return;
        refused = true;
        req.unpipe(upstream);
        upstream.destroy();
        if (res.headersSent) return res.destroy();
        res.setHeader('Connection', 'close');
        res.on('finish', () => req.socket.destroy());
        sendJson(res, 413, { message: 'Request body is too large', code: 'payload_too_large' });
      });
    }
    req.pipe(upstream);
  }

  /** Returns false when the request is not a proxied API call (express handles it). */
  return function handle(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const url = req.url ?? '/';
    if (!url.startsWith('/api/')) return false;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const route = matchRoute(path, ROUTES);
    if (!route) return false;

    const started = performance.now();
    const correlationId = correlationIdFrom(req.headers[REQUEST_ID_HEADER]);
    for (const [name, value] of deps.securityHeaders) res.setHeader(name, value);
    res.setHeader(REQUEST_ID_HEADER, correlationId);
    res.on('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      deps.httpDuration.observe(
        { method: req.method, route: routeLabel.get(route), status: String(res.statusCode) },
        seconds,
      );
      if (res.statusCode >= 400 || debug()) {
        const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug';
        deps.logger[level](
          {
            correlationId,
            method: req.method,
            url,
            status: res.statusCode,
            ms: Math.round(seconds * 10_000) / 10,
          },
          'request',
        );
      }
    });

    if (applyCors(req, res, deps.allowedOrigins)) return true;
    if (DOT_SEGMENT.test(path)) {
      sendJson(res, 404, { message: `No route for ${req.method} ${path}`, code: 'not_found' });
      return true;
    }
    if (isCrossSiteMutation(req, deps.allowedOrigins)) {
      sendJson(res, 403, { message: 'Cross-site request refused', code: 'forbidden' });
      return true;
    }
    // Anonymous calls to public routes (the booking site) never wait for Redis or the database.
    if (!deps.hasSessionCookie(req)) {
      forward(req, res, route, undefined, correlationId);
      return true;
    }
    deps.resolveUser(req).then(
      (user) => forward(req, res, route, user, correlationId),
      (err: unknown) => {
        deps.logger.error({ err, correlationId }, 'session lookup failed');
        if (!res.headersSent)
          sendJson(res, 500, { message: 'Something went wrong. Please try again.', code: 'internal_error' });
      },
    );
    return true;
  };
}
