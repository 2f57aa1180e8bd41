import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Histogram } from 'prom-client';
import {
  correlationIdFrom,
  loggableUrl,
  REQUEST_ID_HEADER,
  runWithContext,
  toHttpError,
  tooManyRequests,
  type Logger,
} from '@tyres/service-kit';
import type { PublicUser } from '../domain/users';
import { CLIENT_ADDRESS_HEADER } from './client-address';
import type { Forwarder } from './forwarder';
import { forwardIdentity, type IdentityTokens } from './identity';
import { limitGroupOf, type PublicLimits } from './public-limits';
import {
  ADMIN_ONLY,
  CROSS_SITE,
  INTERNAL,
  NOT_AUTHENTICATED,
  sendHttpError,
  sendJson,
  TOO_LARGE,
} from './replies';
import {
  matchOwnRoute,
  matchRoute,
  ROUTES,
  WS_ROUTES,
  type Access,
  type OwnRoute,
  type Route,
} from './routing';
import { applyCors, isAllowedOrigin, isCrossSiteMutation, securityHeaders } from './security';

/**
 * The gateway's edge policy, written once: every request passes it, whether a service answers it (forwarded)
 * or the gateway itself (its own API, the API's 404, the front ends, health and metrics, through express):
 *
 *   request id and context → security headers → CORS → CSRF origin check → [API only: session → the route's
 *   access rule → public limits (anonymous callers) → body cap → identity and client address] → forward or
 *   answer locally → metrics and access log
 *
 * It runs in front of express rather than inside it: the gateway shares a 2-core machine with the service
 * behind it, and express in the hot path cost about as much CPU per proxied call as the booking service spent
 * answering it (docs: README "The edge"). Express only routes what the gateway answers itself.
 */
export interface EdgeDeps {
  logger: Logger;
  allowedOrigins: string[];
  secureCookies: boolean;
  /** Body caps: proxied calls, photo uploads, the gateway's own JSON routes. */
  maxBodyBytes: number;
  maxUploadBytes: number;
  ownBodyBytes: number;
  /** The staff user behind the session cookie (auth.ts sessionUser); undefined at once without a cookie. */
  session: (req: http.IncomingMessage) => PublicUser | undefined | Promise<PublicUser | undefined>;
  identity: IdentityTokens;
  /** The client's address as the limits see it (client-address.ts: X-Forwarded-For from trusted proxies only). */
  clientAddress: (req: http.IncomingMessage) => string;
  /** Per-client limits on public endpoints; staff calls are never counted. */
  publicLimits?: Pick<PublicLimits, 'consume'>;
  forwarder: Forwarder;
  /** What the gateway answers itself (express). */
  local: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
}

/** Where a request goes: a service, the gateway's own API (or the API's 404), or the rest of the site. */
type Destination =
  | { kind: 'service'; route: Route; label: string }
  | { kind: 'own'; route: OwnRoute | undefined; label: string }
  | { kind: 'site'; label: string };

const API_PATH = /^\/api(?:\/|$)/i;
/** The access log's status for a request whose client went away before its answer was sent. */
const CLIENT_CLOSED = 499;
const SITE: Destination = { kind: 'site', label: 'unmatched' };

/**
 * A path a service could read differently than the routing table: dot segments (plain or encoded), and
 * repeated slashes (the proxy joins them into one).
 */
const AMBIGUOUS_PATH = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)|\/\//i;

/** Who may call a route: undefined when this user may, else the refusal. */
function refusal(access: Access, user: PublicUser | undefined) {
  if (access === 'public') return undefined;
  if (!user) return { status: 401, body: NOT_AUTHENTICATED };
  if (access === 'admin' && user.role !== 'admin') return { status: 403, body: ADMIN_ONLY };
  return undefined;
}

export function createEdge(deps: EdgeDeps) {
  const { logger } = deps;
  const helmet = securityHeaders(deps.secureCookies);
  const noop = () => undefined;
  // Bounded label set for the request histogram: one label per routing-table entry.
  const serviceDestinations = new Map<Route, Destination>(
    ROUTES.map((route) => [
      route,
      { kind: 'service', route, label: route.prefix ?? route.pattern?.source ?? 'unmatched' },
    ]),
  );

  function destinationOf(method: string, path: string): Destination {
    if (!API_PATH.test(path)) return SITE;
    const route = matchRoute(path, ROUTES);
    if (route) return serviceDestinations.get(route)!;
    const own = matchOwnRoute(method, path);
    return { kind: 'own', route: own, label: own?.path ?? 'unmatched' };
  }

  /**
   * Metrics and the access log, once the answer is sent or the client has gone (status 499, as nginx logs a
   * client that closed the connection before its answer); the request id is on the line.
   */
  function record(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    label: string,
    correlationId: string,
    started: number,
  ) {
    const seconds = (performance.now() - started) / 1000;
    const status = res.writableFinished ? res.statusCode : CLIENT_CLOSED;
    deps.httpDuration.observe({ method: req.method, route: label, status: String(status) }, seconds);
    const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
    if (level === 'debug' && !logger.isLevelEnabled('debug')) return;
    logger[level](
      {
        correlationId,
        method: req.method,
        url: loggableUrl(req.url),
        status,
        ms: Math.round(seconds * 10_000) / 10,
      },
      'request',
    );
  }

  /** A failure inside the edge itself (the session lookup): the same answer service-kit's errorHandler gives. */
  function failed(res: http.ServerResponse, err: unknown, what: string) {
    const known = toHttpError(err);
    if (known?.code === 'database_unavailable') logger.warn({ err }, `${what}: database unavailable`);
    else logger.error({ err }, what);
    if (res.headersSent) return void res.destroy();
    if (known) sendHttpError(res, known);
    else sendJson(res, 500, INTERNAL);
  }

  function pass(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    destination: Destination,
    correlationId: string,
  ) {
    helmet(req, res, noop);
    if (applyCors(req, res, deps.allowedOrigins)) return;
    // Nobody downstream may take a client's word for its address: the edge writes the header itself.
    delete req.headers[CLIENT_ADDRESS_HEADER];
    if (destination.kind === 'service' && AMBIGUOUS_PATH.test(path))
      return sendJson(res, 404, { message: `No route for ${req.method} ${path}`, code: 'not_found' });
    if (isCrossSiteMutation(req, deps.allowedOrigins)) return sendJson(res, 403, CROSS_SITE);
    if (destination.kind === 'site') return deps.local(req, res);

    // Without a session cookie the answer comes at once, and the request goes on in the same tick.
    let session: ReturnType<EdgeDeps['session']>;
    try {
      session = deps.session(req);
    } catch (err) {
      return failed(res, err, 'session lookup failed');
    }
    if (!(session instanceof Promise)) return admit(req, res, path, destination, session, correlationId);
    session
      .then(
        (user) => admit(req, res, path, destination, user, correlationId),
        (err: unknown) => failed(res, err, 'session lookup failed'),
      )
      .catch((err: unknown) => failed(res, err, 'request failed'));
  }

  /** The route's access rule and the public limits; then the rest (deliver). */
  function admit(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    path: string,
    destination: Exclude<Destination, { kind: 'site' }>,
    user: PublicUser | undefined,
    correlationId: string,
  ) {
    // An own path asked with a method it does not have gets express's answer (404, or the OPTIONS list).
    const denied = destination.route && refusal(destination.route.access, user);
    if (denied) return sendJson(res, denied.status, denied.body);
    if (destination.kind === 'own') return deliver(req, res, destination, user, correlationId, '');

    const address = deps.clientAddress(req);
    // Only anonymous calls to the few limited public endpoints wait for Redis; everything else goes on at once.
    const group = !user && deps.publicLimits ? limitGroupOf(req.method ?? 'GET', path) : undefined;
    if (!group) return deliver(req, res, destination, user, correlationId, address);
    deps
      .publicLimits!.consume(group, address)
      .then((limited) => {
        if (!limited) return deliver(req, res, destination, user, correlationId, address);
        sendHttpError(res, tooManyRequests(limited.message, limited.retryAfterSeconds));
      })
      .catch((err: unknown) => failed(res, err, 'request failed'));
  }

  /** The body cap, the identity and the client's address; then forwarded, or answered here. */
  function deliver(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    destination: Exclude<Destination, { kind: 'site' }>,
    user: PublicUser | undefined,
    correlationId: string,
    address: string,
  ) {
    // The client left while the session or the limit was looked up: nothing to forward (logged as 499).
    if (req.socket.destroyed) return;
    const cap =
      destination.kind === 'own'
        ? deps.ownBodyBytes
        : destination.route.upload
          ? deps.maxUploadBytes
          : deps.maxBodyBytes;
    if (Number(req.headers['content-length'] ?? 0) > cap) return sendJson(res, 413, TOO_LARGE);

    if (destination.kind === 'own') {
      req.user = user;
      return deps.local(req, res);
    }
    forwardIdentity(req, user, deps.identity, correlationId);
    req.headers[CLIENT_ADDRESS_HEADER] = address;
    deps.forwarder.web(req, res, destination.route, correlationId, cap);
  }

  /** The server's request listener. */
  function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const started = performance.now();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const destination = destinationOf(req.method ?? 'GET', path);
    const correlationId = correlationIdFrom(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, correlationId);
    res.once('close', () => record(req, res, destination.label, correlationId, started));
    // Everything the request causes (session lookup, handlers, proxy errors) logs with its request id.
    runWithContext({ correlationId }, () => {
      try {
        pass(req, res, path, destination, correlationId);
      } catch (err) {
        failed(res, err, 'request failed');
      }
    });
  }

  /** The server's 'upgrade' listener (WebSocket): the same origin rule, session and access rule as HTTP. */
  function upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => socket.destroy());
    const correlationId = correlationIdFrom(req.headers[REQUEST_ID_HEADER]);
    const route = matchRoute((req.url ?? '/').split('?')[0] ?? '/', WS_ROUTES);
    void runWithContext({ correlationId }, async () => {
      try {
        // A browser always sends Origin on a WebSocket: any origin not allowed is refused, GET or not.
        const origin = req.headers.origin;
        if (origin && !isAllowedOrigin(origin, req.headers.host, deps.allowedOrigins))
          return rejectUpgrade(socket, 403, 'Forbidden');
        const user = await deps.session(req);
        if (!route) return rejectUpgrade(socket, 404, 'Not Found');
        const denied = refusal(route.access, user);
        if (denied)
          return rejectUpgrade(socket, denied.status, denied.status === 401 ? 'Unauthorized' : 'Forbidden');
        forwardIdentity(req, user, deps.identity, correlationId);
        req.headers[CLIENT_ADDRESS_HEADER] = deps.clientAddress(req);
        deps.forwarder.upgrade(req, socket, head, route, correlationId);
      } catch (err) {
        logger.error({ err }, 'websocket upgrade failed');
        rejectUpgrade(socket, 500, 'Internal Server Error');
      }
    });
  }

  return { handle, upgrade };
}

export function rejectUpgrade(socket: Duplex, status: number, text: string) {
  const body = JSON.stringify({ message: text });
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
