import express, { type Express, type Request, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { correlationIdFrom, runWithContext } from './context';
import { errorHandler, notFoundHandler } from './errors';
import { createMetrics, type Metrics } from './metrics';
import { rejectNulCharacters } from './text';

export type ReadinessCheck = () => Promise<unknown>;

export interface AppOptions {
  name: string;
  logger: Logger;
  /** Named dependency checks for /readyz (database, broker, redis...). */
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

export const requestContext: RequestHandler = (req, res, next) => {
  const correlationId = correlationIdFrom(req.headers[REQUEST_ID_HEADER]);
  req.correlationId = correlationId;
  res.setHeader(REQUEST_ID_HEADER, correlationId);
  runWithContext({ correlationId }, next);
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
          url: req.originalUrl,
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
  app.use(requestContext);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: name });
  });
  app.get('/readyz', async (_req, res) => {
    if (draining) {
      res.status(503).json({ status: 'draining', service: name });
      return;
    }
    const checks: Record<string, string> = {};
    let ok = true;
    await Promise.all(
      Object.entries(options.readiness ?? {}).map(async ([dep, check]) => {
        try {
          await withTimeout(check(), 2000);
          checks[dep] = 'ok';
        } catch (err) {
          ok = false;
          checks[dep] = err instanceof Error ? err.message : 'unreachable';
        }
      }),
    );
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not ready', service: name, checks });
  });
  app.get('/metrics', async (req, res, next) => {
    if (options.internalRequest && !options.internalRequest(req)) return next();
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });

  app.use(requestLogger(logger));
  app.use(metrics.middleware);
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
