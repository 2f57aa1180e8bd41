import express, { type Express, type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { context, contextFrom, SpanKind, SpanStatusCode, trace, tracer } from '@tyres/telemetry';
import { correlationIdFrom, runWithContext } from './context';
import { errorHandler, notFoundHandler } from './errors';
import { loggableUrl } from './logger';
import { createMetrics, type Metrics } from './metrics';
import { rejectNulCharacters } from './text';

/**
 * A named check behind /readyz. By default it decides readiness ("this process can serve its own requests": its
 * own database). A check marked with `dependencyCheck` (the broker, Redis) is reported in /readyz and exported as
 * the `dependency_up` gauge on /metrics, but never makes the process unready: during a broker or Redis restart the
 * outbox keeps bookings flowing, and pulling every pod from its Service would turn a blip into an outage (issue 15).
 */
export type ReadinessCheck = (() => Promise<unknown>) & { dependency?: true };

/** Marks a check as a dependency: reported and alerted on, never a reason to stop serving. */
export function dependencyCheck(check: () => Promise<unknown>): ReadinessCheck {
  return Object.assign(check, { dependency: true as const });
}

export interface AppOptions {
  name: string;
  logger: Logger;
  /** Named checks for /readyz (database; broker and redis marked with dependencyCheck). */
  readiness?: Record<string, ReadinessCheck>;
  /** JSON body limit for this service's own routes. */
  jsonLimit?: string;
  /** Skip the JSON body parser (the gateway proxies raw streams). */
  parseJson?: boolean;
  /**
   * Whether a request may read /metrics and detailed readiness. The gateway is the public entry, so it only
   * answers scrapes that did not come through the ingress (no forwarding headers).
   */
  internalRequest?: (req: Request) => boolean;
  /**
   * Something in front of this app already gives every request its id (and context), access-log line and
   * duration metric: the gateway's edge, which also sees the requests it forwards without reaching express.
   * The app then does not do them a second time.
   */
  edgeInFront?: boolean;
  /**
   * How long a readiness result is reused (ms; default `READINESS_CACHE_MS`, else 1000; 0 = every /readyz and
   * scrape runs the checks, the old behaviour). Checks running meanwhile are shared, not repeated. HAProxy checks
   * each replica every second or two and Prometheus scrapes too: without it each one pinged Postgres, Redis and the
   * broker state, a few statements per second per idle process. A replica whose database goes away is reported
   * not ready at most this much later.
   */
  readinessCacheMs?: number;
}

/** True when no proxy in front of us forwarded the request (Prometheus scrapes pods directly). */
export const notForwarded = (req: Request) =>
  req.headers['x-forwarded-for'] === undefined && req.headers.forwarded === undefined;

export interface ServiceApp {
  app: Express;
  metrics: Metrics;
  /** Flipped during shutdown so load balancers stop sending traffic before the server closes. */
  setDraining(): void;
  /** Adds the 404 and error handlers; call after all routes are mounted. */
  finalize(): Express;
}

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The request's id and its server span. The span continues the caller's W3C `traceparent` (the gateway's, or a
 * service's) and is the active span while the request is handled, so the outbox rows, queue jobs and log lines it
 * causes belong to the same trace. It ends when the response is finished or the client has gone.
 */
export const requestContext: RequestHandler = (req, res, next) => {
  const correlationId = correlationIdFrom(req.headers[REQUEST_ID_HEADER]);
  req.correlationId = correlationId;
  res.setHeader(REQUEST_ID_HEADER, correlationId);
  const parent = contextFrom(req.headers);
  const span = tracer().startSpan(
    req.method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': req.method,
        'url.path': req.path,
        'tyres.correlation_id': correlationId,
      },
    },
    parent,
  );
  res.once('close', () => {
    if (span.isRecording()) {
      // The route's pattern (not the path: ids would make every name unique); the path when no route matched.
      const route = (req.route as { path?: unknown } | undefined)?.path;
      if (typeof route === 'string') {
        span.setAttribute('http.route', `${req.baseUrl}${route}`);
        span.updateName(`${req.method} ${req.baseUrl}${route}`);
      }
      const status = res.writableFinished ? res.statusCode : 499;
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  });
  runWithContext({ correlationId }, () => context.with(trace.setSpan(parent, span), next));
};

export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug';
      logger[level](
        {
          correlationId: req.correlationId,
          method: req.method,
          url: loggableUrl(req.originalUrl),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function createServiceApp(options: AppOptions): ServiceApp {
  const { name, logger } = options;
  const app = express();
  const metrics = createMetrics(name);
  let draining = false;

  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  if (!options.edgeInFront) app.use(requestContext);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: name });
  });
  const envCache = Number(process.env.READINESS_CACHE_MS);
  const cacheMs = options.readinessCacheMs ?? (Number.isFinite(envCache) && envCache >= 0 ? envCache : 1000);
  type CheckResult = { ok: boolean; checks: Record<string, string>; up: Record<string, boolean> };
  let inFlight: Promise<CheckResult> | undefined;
  let cached: { at: number; result: CheckResult } | undefined;
  const runChecks = (): Promise<CheckResult> => {
    if (cached && Date.now() - cached.at < cacheMs) return Promise.resolve(cached.result);
    inFlight ??= runChecksNow().then(
      (result) => {
        inFlight = undefined;
        if (cacheMs > 0) cached = { at: Date.now(), result };
        return result;
      },
      (err: unknown) => {
        inFlight = undefined;
        throw err;
      },
    );
    return inFlight;
  };
  const runChecksNow = async (): Promise<CheckResult> => {
    const checks: Record<string, string> = {};
    const up: Record<string, boolean> = {};
    let ok = true;
    await Promise.all(
      Object.entries(options.readiness ?? {}).map(async ([dep, check]) => {
        try {
          await withTimeout(check(), 2000);
          checks[dep] = 'ok';
          up[dep] = true;
        } catch (err) {
          if (!check.dependency) ok = false;
          checks[dep] = err instanceof Error ? err.message : 'unreachable';
          up[dep] = false;
        }
      }),
    );
    return { ok, checks, up };
  };
  metrics.onScrape(async () => {
    const { up } = await runChecks();
    for (const [dep, isUp] of Object.entries(up)) metrics.dependencyUp.set({ dependency: dep }, isUp ? 1 : 0);
  });

  app.get('/readyz', async (_req, res) => {
    if (draining) {
      res.status(503).json({ status: 'draining', service: name });
      return;
    }
    const { ok, checks, up } = await runChecks();
    const degraded = Object.keys(up).filter((dep) => !up[dep]);
    const status = !ok ? 'not ready' : degraded.length ? 'ready (degraded)' : 'ready';
    res.status(ok ? 200 : 503).json({ status, service: name, checks });
  });
  app.get('/metrics', async (req, res, next) => {
    if (options.internalRequest && !options.internalRequest(req)) return next();
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });

  if (!options.edgeInFront) {
    app.use(requestLogger(logger));
    app.use(metrics.middleware);
  }
  if (options.parseJson !== false) app.use(express.json({ limit: options.jsonLimit ?? '100kb' }));
  app.use(rejectNulCharacters);

  return {
    app,
    metrics,
    setDraining: () => {
      draining = true;
    },
    finalize: () => {
      app.use(notFoundHandler);
      app.use(errorHandler(logger));
      return app;
    },
  };
}
