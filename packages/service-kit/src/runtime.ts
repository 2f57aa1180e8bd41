import type http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import {
  AmqpConnection,
  createEventBus,
  createOutbox,
  createOutboxRelay,
  createPublisher,
  type EventBus,
  type Outbox,
  type OutboxRelay,
  type Publisher,
  type SqlExecutor,
  type TransactionRunner,
  registerPipelineMetrics,
} from '@tyres/events';
import type { Registry } from 'prom-client';
import type { Logger } from 'pino';
import { createServiceApp, dependencyCheck, type ReadinessCheck } from './app';
import { identityMiddleware } from './identity';
import { createMaintenance, type Maintenance } from './maintenance';
import { createRedis, pingRedis } from './redis';
import { Lifecycle, startHttpServer, type HttpServerHandle } from './server';

/** What every service's Prisma client offers that the runtime needs. */
export type ServiceDb = SqlExecutor & TransactionRunner & { $disconnect(): Promise<void> };

export interface RuntimeConfig {
  PORT: number;
  HOST?: string;
  AMQP_URL: string;
  REDIS_URL: string;
  EVENT_PREFIX: string;
  SHUTDOWN_TIMEOUT_MS: number;
}

/** Everything main.ts hands to its HTTP layer and event handlers. */
export interface RuntimeParts<TDb extends ServiceDb> {
  db: TDb;
  logger: Logger;
  redis: Redis;
  publisher: Publisher;
  outbox: Outbox;
  relay: OutboxRelay;
  bus: EventBus;
  readiness: Record<string, ReadinessCheck>;
  lifecycle: Lifecycle;
  /** Inbox and idempotency-key purges of this service's schema, started by listen(). */
  maintenance: Maintenance;
}

export interface HttpLayer {
  /** An express app, or a plain listener (the gateway puts a fast path in front of its express app). */
  app: Express | http.RequestListener;
  setDraining(): void;
  onUpgrade?: (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** The /metrics registry (createServiceApp's): `listen` adds the event pipeline's lag metrics to it. */
  registry?: Registry;
}

export interface ServiceRuntime<TDb extends ServiceDb> extends RuntimeParts<TDb> {
  server: HttpServerHandle;
  shutdown(reason?: string): Promise<void>;
}

export interface RuntimeBaseOptions<TDb extends ServiceDb> {
  /** Service name: queue, connection names and log field. */
  name: string;
  /** The service's Postgres schema (outbox and inbox tables live there). */
  schema: string;
  config: RuntimeConfig;
  logger: Logger;
  db: TDb;
}

/**
 * The parts of a service that exist before it serves: build repositories and use cases from them, subscribe
 * handlers on `bus` (src/events/subscriptions.ts), then `listen` with the HTTP layer. Nothing connects to the
 * broker, consumes or listens until `listen` runs, so a service composes in plain order, without callbacks.
 */
export interface ServiceRuntimeBuilder<TDb extends ServiceDb> extends RuntimeParts<TDb> {
  /** Wakes the outbox relay after a commit that enqueued events. */
  wake(): void;
  /**
   * Starts consuming (when anything was subscribed) and the relay in the background, runs `start` (workers,
   * timers), then listens. A broker outage never blocks boot: readiness reports it as a degraded dependency.
   */
  listen(http: HttpLayer, options?: { start?: () => Promise<void> }): Promise<ServiceRuntime<TDb>>;
}

/**
 * The composition every service shares: Postgres (Prisma), Redis, the RabbitMQ publisher + outbox relay, the
 * consumer bus, HTTP with health/readiness, and an ordered graceful shutdown (stop taking traffic, drain HTTP,
 * stop consuming and wait for handlers, flush the relay, close connections).
 */
export function createServiceRuntime<TDb extends ServiceDb>(
  options: RuntimeBaseOptions<TDb>,
): ServiceRuntimeBuilder<TDb> {
  const { name, config, logger, db, schema } = options;
  const lifecycle = new Lifecycle(logger);
  const redis = createRedis(config.REDIS_URL);
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection problem'));

  const amqp = new AmqpConnection({ url: config.AMQP_URL, name: `${name}-${process.pid}`, logger }).start();
  const publisher = createPublisher({
    connection: amqp,
    name: `${name}-publisher`,
    prefix: config.EVENT_PREFIX,
    logger,
  });
  // Every enqueue in this process shortens the relay's idle poll (1 s, OUTBOX_RELAY_POLL_MS) to its old 250 ms for a
  // moment (expectSoon), so paths that do not wake the relay after their commit still publish as quickly as before.
  const outbox = createOutbox({ schema, onEnqueue: () => relay.expectSoon() });
  const relay = createOutboxRelay({ db, schema, publisher, logger });
  const bus = createEventBus({ connection: amqp, service: name, prefix: config.EVENT_PREFIX, logger });
  const consumes = () => bus.subscribedTypes().length > 0;

  // Readiness = this process can serve its own requests (its database). The broker and Redis are dependencies:
  // reported and exported as gauges for alerts, never a reason for Kubernetes to pull the pod (issue 15).
  const readiness: Record<string, ReadinessCheck> = {
    database: async () => {
      await db.$queryRawUnsafe('SELECT 1');
    },
    redis: dependencyCheck(() => pingRedis(redis)),
    broker: dependencyCheck(async () => {
      if (!publisher.isReady() || (consumes() && !bus.isReady()))
        throw new Error('not connected to RabbitMQ');
    }),
  };
  const maintenance = createMaintenance({ db, schema, logger });
  const parts: RuntimeParts<TDb> = {
    db,
    logger,
    redis,
    publisher,
    outbox,
    relay,
    bus,
    readiness,
    lifecycle,
    maintenance,
  };

  return {
    ...parts,
    wake: () => relay.wake(),
    async listen(httpLayer, listenOptions = {}) {
      const consuming = consumes();
      // Start order: consumers and relay come up in the background so a broker outage never blocks boot;
      // HTTP listens last.
      relay.start();
      if (consuming) void bus.start({ wait: false });
      maintenance.start();
      if (listenOptions.start) await listenOptions.start();
      const server = await startHttpServer(httpLayer.app, config.PORT, config.HOST);
      if (httpLayer.onUpgrade) server.server.on('upgrade', httpLayer.onUpgrade);
      // Every service shows how far behind its pipeline is (outbox backlog, consumer lag; k8s/base/alerts.yaml).
      if (httpLayer.registry)
        registerPipelineMetrics({ registry: httpLayer.registry, relay, ...(consuming ? { bus } : {}) });
      logger.info({ port: server.port }, `${name} listening`);

      // Shutdown order matters: readiness fails first, then in-flight requests drain, then consumers finish
      // their handlers, the relay finishes its batch, and only then connections close.
      lifecycle.onShutdown('readiness', () => httpLayer.setDraining());
      lifecycle.onShutdown('http', () => server.close(config.SHUTDOWN_TIMEOUT_MS));
      lifecycle.onShutdown('consumers', () => (consuming ? bus.close() : undefined));
      lifecycle.onShutdown('outbox relay', () => relay.stop());
      lifecycle.onShutdown('maintenance', () => maintenance.stop());
      lifecycle.onShutdown('publisher', () => publisher.close());
      lifecycle.onShutdown('amqp', () => amqp.close());
      lifecycle.onShutdown('redis', () => redis.quit().catch(() => redis.disconnect()));
      lifecycle.onShutdown('database', () => db.$disconnect());

      return { ...parts, server, shutdown: (reason = 'shutdown') => lifecycle.shutdown(reason) };
    },
  };
}

/** main.ts entry: config errors and start-up failures print clearly and exit non-zero. */
export function runMain(
  name: string,
  main: () => Promise<{ lifecycle: Lifecycle; shutdownTimeoutMs: number }>,
): void {
  main()
    .then(({ lifecycle, shutdownTimeoutMs }) => lifecycle.handleSignals(shutdownTimeoutMs))
    .catch((err: unknown) => {
      // Plain stderr: the logger may not exist yet when config is the problem.
      process.stderr.write(`${name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}

/**
 * The standard HTTP layer of a domain service: health/readiness/metrics, the gateway-signed identity, the
 * service's routers, then the 404 and error handlers.
 */
export function serviceHttp(options: {
  name: string;
  logger: Logger;
  readiness: Record<string, ReadinessCheck>;
  identityPublicKey: string;
  jsonLimit?: string;
  routes: (app: Express) => void;
}): HttpLayer {
  const svc = createServiceApp({
    name: options.name,
    logger: options.logger,
    readiness: options.readiness,
    jsonLimit: options.jsonLimit,
  });
  svc.app.use(identityMiddleware(options.identityPublicKey));
  options.routes(svc.app);
  return { app: svc.finalize(), setDraining: svc.setDraining, registry: svc.metrics.registry };
}
