import type http from 'node:http';
import type { Duplex } from 'node:stream';
import express from 'express';
import type { Redis } from 'ioredis';
import { Counter } from 'prom-client';
import {
  createServiceApp,
  notForwarded,
  rejectNulCharacters,
  responseContractCheck,
  type Logger,
  type ReadinessCheck,
} from '@tyres/service-kit';
import { ApiReference } from '../app/api-reference';
import type { SignIn } from '../app/sign-in';
import type { OpenApiLike } from '../domain/api-reference';
import { apiDocsRoutes } from './api-docs';
import type { StaffAccounts } from '../app/staff-accounts';
import { sessionUser } from './auth';
import { authRoutes } from './auth-routes';
import { createEdge } from './edge';
import { createForwarder, type UpstreamUrls } from './forwarder';
import { proxiedFrontends, staticFrontends } from './frontends';
import { IdentityTokens } from './identity';
import type { Sessions } from './session';
import { clientAddress, TrustedProxies } from './client-address';
import { internalRoutes } from './internal-routes';
import { gatewayInternalPaths, gatewayOpenApi, gatewayPaths } from './openapi';
import { PublicLimits, publicLimitResponses, type HourlyLimits } from './public-limits';
import { matchRoute, ROUTES } from './routing';

export interface GatewayAppDeps {
  logger: Logger;
  /** The use cases behind the gateway's own routes and the session check (src/app). */
  accounts: StaffAccounts;
  signIn: SignIn;
  sessions: Sessions;
  /** Peers whose X-Forwarded-For is believed (TRUSTED_PROXIES); none by default. */
  trustedProxies?: TrustedProxies;
  /** Per-client hourly limits on public endpoints (public-limits.ts), counted in this Redis. */
  publicLimits?: { redis: Redis; prefix: string; limits: HourlyLimits };
  upstreams: UpstreamUrls;
  internalPrivateKey: string;
  allowedOrigins: string[];
  secureCookies: boolean;
  maxBodyBytes: number;
  maxUploadBytes: number;
  /** A service that stays silent this long is given up on: 504. */
  upstreamTimeoutMs: number;
  readiness: Record<string, ReadinessCheck>;
  frontends?: { staticDir: string } | { shell: string; public: string; dashboard: string };
  /** The API reference (/api/docs): anyone may read it in development, only admins in production. */
  apiDocs: { adminOnly: boolean };
}

/** Body cap of the gateway's own JSON routes (login, staff accounts). */
const OWN_BODY_BYTES = 10 * 1024;

/**
 * Composition: the edge (edge.ts) takes every request; it forwards the proxied ones and hands the rest to the
 * express app below, which only routes what the gateway answers itself.
 */
export function createGatewayApp(deps: GatewayAppDeps) {
  const service = createServiceApp({
    name: 'gateway',
    logger: deps.logger,
    readiness: deps.readiness,
    parseJson: false,
    internalRequest: notForwarded,
    // The edge gives every request its id, metric and access-log line, forwarded or not.
    edgeInFront: true,
  });
  const { app } = service;
  const trusted = deps.trustedProxies ?? new TrustedProxies([]);
  // req.ip (logs) follows the same rule as the limits: forwarded addresses only from configured proxies.
  app.set('trust proxy', (address: string) => trusted.has(address));
  // Proxied bodies stream through unread; only the gateway's own routes are parsed.
  app.use('/api', express.json({ limit: OWN_BODY_BYTES }));
  app.use('/api', rejectNulCharacters);
  // Every JSON answer of the gateway's own routes is checked against its document in the tests (strict).
  app.use(responseContractCheck({ ...gatewayPaths, ...gatewayInternalPaths }));
  app.use(
    authRoutes({
      accounts: deps.accounts,
      signIn: deps.signIn,
      sessions: deps.sessions,
      clientAddress: (req) => clientAddress(req, trusted),
    }),
  );
  // Service-to-service only (booking's roster sync); refused to anything a proxy forwarded (internal-routes.ts).
  app.use(internalRoutes({ accounts: deps.accounts }));
  const reference = new ApiReference({
    upstreams: deps.upstreams,
    gatewayDocument: () => gatewayOpenApi() as unknown as OpenApiLike,
    routeOwner: (path) => matchRoute(path, ROUTES)?.upstream,
    accessOf: (path) => matchRoute(path, ROUTES)?.access,
    edgeResponsesOf: publicLimitResponses,
    logger: deps.logger,
  });
  app.use(apiDocsRoutes({ reference, adminOnly: deps.apiDocs.adminOnly }));
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

  const forwarder = createForwarder({
    upstreams: deps.upstreams,
    logger: deps.logger,
    timeoutMs: deps.upstreamTimeoutMs,
  });
  const publicLimits =
    deps.publicLimits &&
    new PublicLimits({
      ...deps.publicLimits,
      logger: deps.logger,
      failedOpen: new Counter({
        name: 'gateway_public_limit_failed_open_total',
        help: 'Public calls let through unchecked because Redis could not count them',
        labelNames: ['group'],
        registers: [service.metrics.registry],
      }),
    });
  const edge = createEdge({
    logger: deps.logger,
    allowedOrigins: deps.allowedOrigins,
    secureCookies: deps.secureCookies,
    maxBodyBytes: deps.maxBodyBytes,
    maxUploadBytes: deps.maxUploadBytes,
    ownBodyBytes: OWN_BODY_BYTES,
    session: (req) => sessionUser(req, deps.sessions, deps.accounts),
    identity: new IdentityTokens(deps.internalPrivateKey),
    clientAddress: (req) => clientAddress(req, trusted),
    publicLimits,
    forwarder,
    local: app,
    httpDuration: service.metrics.httpDuration,
  });

  return {
    app,
    listener: edge.handle as http.RequestListener,
    handleUpgrade: edge.upgrade as (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void,
    setDraining: service.setDraining,
    agent: forwarder.agent,
  };
}
