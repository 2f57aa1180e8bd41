import type http from 'node:http';
import type { Duplex } from 'node:stream';
import express from 'express';
import {
  correlationIdFrom,
  createServiceApp,
  notForwarded,
  rejectNulCharacters,
  runWithContext,
  type Logger,
  type ReadinessCheck,
} from '@tyres/service-kit';
import type { UserRepository } from '../db/users';
import { authenticate, resolveUser } from './auth';
import { authRoutes } from './auth-routes';
import { createServiceProxies, rejectUpgrade, type UpstreamUrls } from './proxy';
import { cors, csrfOriginCheck, isAllowedOrigin, securityHeaderList, securityHeaders } from './security';
import { createApiForwarder } from './api-forwarder';
import { readCookie, SESSION_COOKIE } from './session';
import type { Sessions } from './session';
import type { LoginThrottle } from './throttle';
import { proxiedFrontends, staticFrontends } from './frontends';

export interface GatewayAppDeps {
  logger: Logger;
  users: UserRepository;
  sessions: Sessions;
  throttle: LoginThrottle;
  upstreams: UpstreamUrls;
  internalPrivateKey: string;
  allowedOrigins: string[];
  secureCookies: boolean;
  maxBodyBytes: number;
  maxUploadBytes: number;
  readiness: Record<string, ReadinessCheck>;
  frontends?: { staticDir: string } | { shell: string; public: string; dashboard: string };
}

export function createGatewayApp(deps: GatewayAppDeps) {
  const service = createServiceApp({
    name: 'gateway',
    logger: deps.logger,
    readiness: deps.readiness,
    parseJson: false,
    internalRequest: notForwarded,
  });
  const { app } = service;
  const proxies = createServiceProxies({
    upstreams: deps.upstreams,
    privateKey: deps.internalPrivateKey,
    logger: deps.logger,
    maxBodyBytes: deps.maxBodyBytes,
    maxUploadBytes: deps.maxUploadBytes,
  });

  const forwardApi = createApiForwarder({
    upstreams: deps.upstreams,
    signer: proxies.signer,
    agent: proxies.agent,
    logger: deps.logger,
    allowedOrigins: deps.allowedOrigins,
    securityHeaders: securityHeaderList(deps.secureCookies),
    maxBodyBytes: deps.maxBodyBytes,
    maxUploadBytes: deps.maxUploadBytes,
    resolveUser: (req) => resolveUser(req as express.Request, deps.sessions, deps.users),
    hasSessionCookie: (req) => readCookie(req.headers.cookie, SESSION_COOKIE) !== undefined,
    httpDuration: service.metrics.httpDuration,
  });

  app.use(securityHeaders(deps.secureCookies));
  app.use(cors(deps.allowedOrigins));
  app.use('/api', csrfOriginCheck(deps.allowedOrigins));
  // Resolve the session only where it matters: API calls. Static files never touch the database.
  app.use('/api', authenticate(deps.sessions, deps.users));
  // Proxied API calls never reach express (listener below); only the gateway's own routes are parsed, with a
  // small limit.
  app.use('/api', express.json({ limit: '10kb' }));
  app.use('/api', rejectNulCharacters);
  app.use(
    authRoutes({ users: deps.users, sessions: deps.sessions, throttle: deps.throttle, logger: deps.logger }),
  );
  app.use('/api', (req, res) => {
    res.status(404).json({ message: `No route for ${req.method} ${req.originalUrl}`, code: 'not_found' });
  });
  if (deps.frontends) {
    app.use(
      'staticDir' in deps.frontends
        ? staticFrontends(deps.frontends.staticDir)
        : proxiedFrontends(deps.frontends),
    );
  }
  service.finalize();

  /** WebSocket upgrades: same origin rule and session check as HTTP, before anything reaches notify. */
  const handleUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const correlationId = correlationIdFrom(req.headers['x-request-id']);
    void runWithContext({ correlationId }, async () => {
      try {
        const origin = req.headers.origin;
        if (origin && !isAllowedOrigin(origin, req.headers.host, deps.allowedOrigins)) {
          rejectUpgrade(socket, 403, 'Forbidden');
          return;
        }
        const user = await resolveUser(req as express.Request, deps.sessions, deps.users);
        if (!proxies.upgrade(req, socket, head, user, correlationId)) rejectUpgrade(socket, 404, 'Not Found');
      } catch (err) {
        deps.logger.error({ err }, 'websocket upgrade failed');
        rejectUpgrade(socket, 500, 'Internal Server Error');
      }
    });
  };

  /** The server's request listener: proxied API calls take the fast path, everything else goes to express. */
  const listener = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!forwardApi(req, res)) app(req, res);
  };

  return { app, listener, handleUpgrade, setDraining: service.setDraining, agent: proxies.agent };
}
