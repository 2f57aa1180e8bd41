/**
 * How far behind the event pipeline is, as Prometheus metrics (prom-client) on a service's registry (service-kit's
 * /metrics registry): the outbox (what waits to be published, and the relay's rate) and the consumer (how old
 * events are when handled, how many wait in the queue, and the age of the oldest one not handled yet).
 *
 * Metrics with a `collect` are read at scrape time (one indexed query on the outbox, one passive queue check on the
 * broker), so nothing polls between scrapes. The service label comes from the registry's default labels.
 * k8s/base/alerts.yaml alerts on them.
 */
import client from 'prom-client';
import type { EventBus } from './bus';
import type { EventMetrics } from './metrics';
import type { OutboxRelay } from './outbox';

/** Lag buckets (seconds): from a healthy few tens of milliseconds up to an hour-long backlog. */
export const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];

export interface PipelineMetricsOptions {
  /** The service's registry (service-kit: `createServiceApp(...).metrics.registry`). */
  registry: client.Registry;
  /** The service's outbox relay: backlog and published total. */
  relay?: Pick<OutboxRelay, 'pending' | 'addMetrics'>;
  /** The service's consumer: lag at handling, queue depth and the oldest unhandled event's age. */
  bus?: Pick<EventBus, 'queueDepth' | 'addMetrics'>;
  /** Clock (tests). */
  now?: () => number;
}

/**
 * Registers the pipeline metrics on `registry` and hooks them to the relay and the bus. Returns the hooks it added
 * (for tests). Call once per process.
 */
export function registerPipelineMetrics(options: PipelineMetricsOptions): {
  relayHooks?: EventMetrics;
  busHooks?: EventMetrics;
} {
  const { registry, relay, bus } = options;
  const now = options.now ?? Date.now;
  const out: { relayHooks?: EventMetrics; busHooks?: EventMetrics } = {};

  if (relay) {
    let pending: Promise<{ count: number; oldestAgeMs: number | null } | undefined> | undefined;
    // One query per scrape for both gauges (collect runs per metric).
    const readPending = () => {
      pending ??= relay
        .pending()
        .catch(() => undefined)
        .finally(() => setTimeout(() => (pending = undefined), 1000).unref());
      return pending;
    };
    new client.Gauge({
      name: 'outbox_backlog_events',
      help: 'Outbox rows not published yet (retrying ones included)',
      registers: [registry],
      async collect() {
        const p = await readPending();
        if (p) this.set(p.count);
      },
    });
    new client.Gauge({
      name: 'outbox_oldest_pending_age_seconds',
      help: 'How long the oldest unpublished outbox row has waited (0 when none)',
      registers: [registry],
      async collect() {
        const p = await readPending();
        if (p) this.set((p.oldestAgeMs ?? 0) / 1000);
      },
    });
    const published = new client.Counter({
      name: 'outbox_published_events_total',
      help: 'Outbox rows published by this replica (rate = relay throughput)',
      registers: [registry],
    });
    const failed = new client.Counter({
      name: 'outbox_publish_failures_total',
      help: 'Outbox rows whose publish failed (they stay pending and are retried)',
      registers: [registry],
    });
    out.relayHooks = {
      outboxBatch: ({ published: n, failed: f }) => {
        if (n > 0) published.inc(n);
        if (f > 0) failed.inc(f);
      },
    };
    relay.addMetrics(out.relayHooks);
  }

  if (bus) {
    const lag = new client.Histogram({
      name: 'event_consumer_lag_seconds',
      help: "Age of events when this consumer finished with them (the event's occurredAt to ack, retry or dead-letter)",
      labelNames: ['outcome'] as const,
      buckets: LAG_BUCKETS,
      registers: [registry],
    });
    const consumed = new client.Counter({
      name: 'event_consumer_messages_total',
      help: 'Messages this consumer finished with, by event type and outcome',
      labelNames: ['type', 'outcome'] as const,
      registers: [registry],
    });
    // occurredAt of the last event handled: the queue is first in, first out, so while messages wait, the oldest of
    // them occurred no earlier than that (retried ones aside).
    let lastOccurredAt: number | undefined;
    let depthRead: Promise<number | undefined> | undefined;
    const readDepth = () => {
      depthRead ??= bus
        .queueDepth()
        .catch(() => undefined)
        .finally(() => setTimeout(() => (depthRead = undefined), 1000).unref());
      return depthRead;
    };
    new client.Gauge({
      name: 'event_consumer_queue_depth',
      help: "Messages ready in this service's queue, not yet delivered to any replica",
      registers: [registry],
      async collect() {
        const depth = await readDepth();
        if (depth !== undefined) this.set(depth);
      },
    });
    new client.Gauge({
      name: 'event_consumer_oldest_unhandled_age_seconds',
      help:
        'Age of the oldest event waiting for this consumer, estimated: 0 when its queue is empty, else the age of ' +
        'the last event it handled (grows while the consumer is stuck)',
      registers: [registry],
      async collect() {
        const depth = await readDepth();
        if (depth === undefined) return;
        this.set(
          depth === 0 || lastOccurredAt === undefined ? 0 : Math.max(0, now() - lastOccurredAt) / 1000,
        );
      },
    });
    out.busHooks = {
      consumed: ({ type, outcome, ageMs }) => {
        consumed.inc({ type, outcome });
        if (ageMs === undefined) return;
        lag.observe({ outcome }, ageMs / 1000);
        const occurred = now() - ageMs;
        if (lastOccurredAt === undefined || occurred > lastOccurredAt) lastOccurredAt = occurred;
      },
    };
    bus.addMetrics(out.busHooks);
  }
  return out;
}
