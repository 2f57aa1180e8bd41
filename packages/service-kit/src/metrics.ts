import client from 'prom-client';
import type { RequestHandler } from 'express';

export interface Metrics {
  registry: client.Registry;
  httpDuration: client.Histogram<'method' | 'route' | 'status'>;
  middleware: RequestHandler;
  /** 1 when a named dependency (database, broker, redis...) answered its check at the last scrape, else 0. */
  dependencyUp: client.Gauge<'dependency'>;
  /** Runs `fn` at every scrape, before the gauges are read (dependency checks). */
  onScrape(fn: () => Promise<void>): void;
}

export function createMetrics(service: string): Metrics {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const middleware: RequestHandler = (req, res, next) => {
    const end = httpDuration.startTimer();
    res.on('finish', () => {
      // The matched route pattern (not the raw URL) keeps label cardinality bounded.
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
  const scrapeHooks: (() => Promise<void>)[] = [];
  const dependencyUp = new client.Gauge({
    name: 'dependency_up',
    help: 'Whether a dependency of this process answered its check (1) or not (0), per dependency',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      await Promise.all(scrapeHooks.map((hook) => hook().catch(() => undefined)));
    },
  });
  return { registry, httpDuration, middleware, dependencyUp, onScrape: (fn) => void scrapeHooks.push(fn) };
}
