/**
 * Optional hooks for metrics (e.g. prom-client counters and histograms). Every hook is optional and is called
 * synchronously; a hook that throws is ignored so metrics can never break delivery.
 */
export interface EventMetrics {
  /** A publish attempt finished (after the broker confirmed, or failed). */
  published?(info: { type: string; outcome: 'ok' | 'error'; durationMs: number }): void;
  /** A delivery finished. `duplicate`: acked without effect because the inbox had already seen it. */
  consumed?(info: {
    type: string;
    outcome: 'ack' | 'retry' | 'dead-letter';
    duplicate: boolean;
    durationMs: number;
    attempt: number;
    /** From the event's `occurredAt` to now (its effect done or given up on): how far this consumer lags. */
    ageMs?: number;
  }): void;
  /** One outbox relay batch finished. */
  outboxBatch?(info: { published: number; failed: number; durationMs: number }): void;
}

export function callMetric<K extends keyof EventMetrics>(
  metrics: EventMetrics | undefined,
  key: K,
  info: Parameters<NonNullable<EventMetrics[K]>>[0],
): void {
  const hook = metrics?.[key] as ((arg: typeof info) => void) | undefined;
  if (!hook) return;
  try {
    hook.call(metrics, info);
  } catch {
    // metrics must never break delivery
  }
}

/** `callMetric` for every hook set of a list (hooks added after construction: `bus.addMetrics`, `relay.addMetrics`). */
export function callMetrics<K extends keyof EventMetrics>(
  list: readonly EventMetrics[],
  key: K,
  info: Parameters<NonNullable<EventMetrics[K]>>[0],
): void {
  for (const metrics of list) callMetric(metrics, key, info);
}
