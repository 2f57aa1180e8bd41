import { Router, type Express, type RequestHandler } from 'express';
import { z } from 'zod';
import {
  badRequest,
  mountOpenApi,
  notFound,
  parseOr400,
  requireAdmin,
  responseContractCheck,
} from '@tyres/service-kit';
import type { Queue } from 'bullmq';
import type { DeliveryLog } from '../app/delivery-log';
import type { ReviewRequests } from '../app/review-requests';
import type { Delivery, DeliveryAttempt } from '../db/deliveries';
import { notifyOpenApi, notifyPaths } from './openapi';
import {
  idParam,
  listQuery,
  NOTIFICATIONS_API,
  QUEUES_UI_PATH,
  UNSUBSCRIBE_API,
  UNSUBSCRIBE_NOT_FOUND,
} from './schemas';

export { NOTIFICATIONS_API, QUEUES_UI_PATH } from './schemas';

export interface RouteDeps {
  log: DeliveryLog;
  /** The public unsubscribe link of review requests. */
  reviews: Pick<ReviewRequests, 'status' | 'unsubscribe'>;
  /** The queues bull-board shows. */
  queues: Queue[];
}

function encodeCursor(d: Delivery): string {
  return Buffer.from(`${d.createdAt.toISOString()}|${d.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime()) || !z.uuid().safeParse(id).success)
    throw badRequest('Invalid cursor');
  return { createdAt, id };
}

/** What the log shows per message. "local" transport = recorded here only, never delivered. */
function summary(d: Delivery) {
  return {
    id: d.id,
    channel: d.channel,
    purpose: d.purpose,
    recipient: d.recipient,
    normalizedTo: d.normalizedTo,
    subject: d.subject,
    preview: d.body.length > 160 ? `${d.body.slice(0, 157)}...` : d.body,
    status: d.status,
    transport: d.transport,
    delivered: d.status === 'sent' && d.transport !== 'local',
    attempts: d.attempts,
    maxAttempts: d.maxAttempts,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt,
    providerMessageId: d.providerMessageId,
    jobId: d.jobId,
    requestedBy: d.requestedBy,
    requestedAt: d.requestedAt,
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
    sentAt: d.sentAt,
    failedAt: d.failedAt,
  };
}

function detail(d: Delivery & { attemptLog: DeliveryAttempt[] }) {
  return {
    ...summary(d),
    body: d.body,
    html: d.html,
    replyTo: d.replyTo,
    rawMessage: d.rawMessage,
    correlationId: d.correlationId,
    sourceEventId: d.sourceEventId,
    attemptLog: d.attemptLog.map((a) => ({
      attempt: a.attempt,
      outcome: a.outcome,
      error: a.error,
      transport: a.transport,
      durationMs: a.durationMs,
      at: a.at,
    })),
  };
}

const asyncRoute =
  (fn: RequestHandler): RequestHandler =>
  (req, res, next) => {
    Promise.resolve(fn(req, res, next)).catch(next);
  };

/**
 * A router built on its first request. bull-board (its UI, API and ~60 modules) is opened by an admin now and then;
 * loading it at start cost every replica a few MB of RSS for nothing.
 */
export function lazyRouter(build: () => Promise<RequestHandler>): RequestHandler {
  let router: Promise<RequestHandler> | undefined;
  return (req, res, next) => {
    router ??= build().catch((err: unknown) => {
      router = undefined; // try again on the next request
      throw err;
    });
    router.then((r) => r(req, res, next), next);
  };
}

/** The notify service's HTTP routes (mounted behind the gateway): parse → one use case (DeliveryLog) → serialise. */
export function mountRoutes(app: Express, deps: RouteDeps): void {
  // The document first: every JSON answer below is checked against it in the tests (OPENAPI_RESPONSE_CHECK=strict),
  // except bull-board's own API under /queues (third-party, not described route by route).
  const contractCheck = responseContractCheck(notifyPaths);
  app.use((req, res, next) =>
    req.path.startsWith(`${QUEUES_UI_PATH}/`) ? next() : contractCheck(req, res, next),
  );
  mountOpenApi(app, notifyOpenApi());

  // Public (the gateway routes it without a session and rate limits it): the review request's unsubscribe link.
  // The token is the only credential; an unknown or malformed one is the same 404.
  const unsubscribe = Router();
  unsubscribe.get(
    '/:token',
    asyncRoute(async (req, res) => {
      const found = await deps.reviews.status(String(req.params.token));
      if (!found) throw notFound(UNSUBSCRIBE_NOT_FOUND);
      res.set('Cache-Control', 'no-store').json(found);
    }),
  );
  unsubscribe.post(
    '/:token',
    asyncRoute(async (req, res) => {
      const done = await deps.reviews.unsubscribe(String(req.params.token));
      if (!done) throw notFound(UNSUBSCRIBE_NOT_FOUND);
      res.set('Cache-Control', 'no-store').json(done);
    }),
  );
  app.use(UNSUBSCRIBE_API, unsubscribe);

  const api = Router();
  api.use(requireAdmin);

  /** Transports in use, open sockets, queue counts. */
  api.get(
    '/',
    asyncRoute(async (_req, res) => {
      res.json(await deps.log.status());
    }),
  );

  /** The delivery log, newest first; `nextCursor` pages on. */
  api.get(
    '/deliveries',
    asyncRoute(async (req, res) => {
      const q = parseOr400(listQuery, req.query);
      const rows = await deps.log.list({
        ...(q.channel ? { channel: q.channel } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.jobId ? { jobId: q.jobId } : {}),
        ...(q.cursor ? { before: decodeCursor(q.cursor) } : {}),
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      res.json({
        deliveries: page.map(summary),
        nextCursor: rows.length > q.limit && last ? encodeCursor(last) : null,
      });
    }),
  );

  api.get(
    '/deliveries/:id',
    asyncRoute(async (req, res) => {
      const parsed = idParam.safeParse(req.params);
      if (!parsed.success) throw notFound('Delivery not found');
      res.json(detail(await deps.log.get(parsed.data.id)));
    }),
  );

  // The queue dashboard (bull-board): admins can inspect, retry and clean sms/email jobs.
  api.use(
    '/queues',
    lazyRouter(async () => {
      // A CommonJS require (this package compiles to CommonJS): loaded on the first request, then cached.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { bullBoardRouter } = require('./bull-board') as typeof import('./bull-board');
      return bullBoardRouter(deps.queues, QUEUES_UI_PATH);
    }),
  );

  app.use(NOTIFICATIONS_API, api);
}
