import { Registry } from 'prom-client';
import type { EventMetrics } from './metrics';
import { registerPipelineMetrics } from './pipeline-metrics';

async function values(registry: Registry): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const m of await registry.getMetricsAsJSON())
    for (const v of m.values) {
      const name = (v as { metricName?: string }).metricName ?? m.name;
      const labels = Object.entries(v.labels)
        .map(([k, l]) => `${k}=${String(l)}`)
        .join(',');
      out.set(labels ? `${name}{${labels}}` : name, v.value);
    }
  return out;
}

function setup(depth: number | undefined, pending = { count: 0, oldestAgeMs: null as number | null }) {
  let clock = 1_000_000;
  const hooks: { relay?: EventMetrics; bus?: EventMetrics } = {};
  const state = { depth, pending };
  const registry = new Registry();
  registerPipelineMetrics({
    registry,
    now: () => clock,
    relay: {
      pending: async () => state.pending,
      addMetrics: (h) => void (hooks.relay = h),
    },
    bus: {
      queueDepth: async () => state.depth,
      addMetrics: (h) => void (hooks.bus = h),
    },
  });
  return {
    registry,
    hooks,
    state,
    advance: (ms: number) => void (clock += ms),
  };
}

describe('pipeline metrics', () => {
  it('reads the outbox backlog and counts what the relay published', async () => {
    const t = setup(0, { count: 7, oldestAgeMs: 4_500 });
    t.hooks.relay?.outboxBatch?.({ published: 3, failed: 1, durationMs: 5 });
    t.hooks.relay?.outboxBatch?.({ published: 2, failed: 0, durationMs: 5 });
    const v = await values(t.registry);
    expect(v.get('outbox_backlog_events')).toBe(7);
    expect(v.get('outbox_oldest_pending_age_seconds')).toBe(4.5);
    expect(v.get('outbox_published_events_total')).toBe(5);
    expect(v.get('outbox_publish_failures_total')).toBe(1);
  });

  it('observes the age of handled events and estimates the oldest unhandled one from the queue depth', async () => {
    const t = setup(0);
    t.hooks.bus?.consumed?.({
      type: 'user.created.v1',
      outcome: 'ack',
      duplicate: false,
      durationMs: 3,
      attempt: 1,
      ageMs: 1_500,
    });
    const v = await values(t.registry);
    expect(v.get('event_consumer_lag_seconds_count{outcome=ack}')).toBe(1);
    expect(v.get('event_consumer_lag_seconds_bucket{le=1,outcome=ack}')).toBe(0);
    expect(v.get('event_consumer_lag_seconds_bucket{le=2,outcome=ack}')).toBe(1);
    expect(v.get('event_consumer_messages_total{type=user.created.v1,outcome=ack}')).toBe(1);
    // An empty queue: nothing waits.
    expect(v.get('event_consumer_queue_depth')).toBe(0);
    expect(v.get('event_consumer_oldest_unhandled_age_seconds')).toBe(0);
  });

  it('lets the oldest unhandled age grow while messages wait and nothing is handled', async () => {
    const t = setup(40);
    t.hooks.bus?.consumed?.({
      type: 'user.created.v1',
      outcome: 'ack',
      duplicate: false,
      durationMs: 3,
      attempt: 1,
      ageMs: 2_000,
    });
    t.advance(10_000);
    const v = await values(t.registry);
    expect(v.get('event_consumer_queue_depth')).toBe(40);
    expect(v.get('event_consumer_oldest_unhandled_age_seconds')).toBe(12);
  });

  it('leaves the gauges alone when the broker cannot be asked', async () => {
    const t = setup(undefined);
    const v = await values(t.registry);
    expect(v.get('event_consumer_queue_depth')).toBe(0);
    expect(v.get('event_consumer_oldest_unhandled_age_seconds')).toBe(0);
  });
});
