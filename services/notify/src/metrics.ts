import client from 'prom-client';
import type { HubMetrics } from './ws/hub';

/** notify's own Prometheus metrics, added to the service registry (/metrics) once the HTTP app exists. */
export function createNotifyMetrics() {
  const connections = new client.Gauge({
    name: 'notify_ws_connections',
    help: 'Open dashboard WebSocket connections on this replica',
    labelNames: ['role'] as const,
    registers: [],
  });
  const messages = new client.Counter({
    name: 'notify_ws_messages_sent_total',
    help: 'Notifications written to dashboard sockets',
    labelNames: ['type'] as const,
    registers: [],
  });
  const drops = new client.Counter({
    name: 'notify_ws_dropped_total',
    help: 'Dashboard sockets dropped by the server',
    labelNames: ['reason'] as const,
    registers: [],
  });
  const rejected = new client.Counter({
    name: 'notify_ws_upgrades_rejected_total',
    help: 'WebSocket upgrades refused',
    labelNames: ['status'] as const,
    registers: [],
  });
  const liveEvents = new client.Counter({
    name: 'notify_live_events_total',
    help: "Events received on this replica's fan-out queue",
    labelNames: ['type', 'outcome'] as const,
    registers: [],
  });
  const attempts = new client.Counter({
    name: 'notify_delivery_attempts_total',
    help: 'SMS/email send attempts by outcome',
    labelNames: ['channel', 'outcome'] as const,
    registers: [],
  });

  const hub: HubMetrics = {
    connected: (role) => connections.inc({ role }),
    disconnected: (role) => connections.dec({ role }),
    sent: (type, count) => messages.inc({ type }, count),
    dropped: (reason) => drops.inc({ reason }),
  };

  return {
    hub,
    upgradeRejected: (status: number) => rejected.inc({ status: String(status) }),
    liveFeed: { received: (type: string, outcome: string) => liveEvents.inc({ type, outcome }) },
    attempt: (channel: string, outcome: string) => attempts.inc({ channel, outcome }),
    register(registry: client.Registry) {
      registry.registerMetric(connections);
      registry.registerMetric(messages);
      registry.registerMetric(drops);
      registry.registerMetric(rejected);
      registry.registerMetric(liveEvents);
      registry.registerMetric(attempts);
    },
  };
}

export type NotifyMetrics = ReturnType<typeof createNotifyMetrics>;
