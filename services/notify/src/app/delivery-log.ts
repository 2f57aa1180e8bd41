import { notFound, serviceUnavailable } from '@tyres/service-kit';
import type { Delivery, DeliveryAttempt, DeliveryRepository, ListFilter } from '../db/deliveries';
import type { NotifyQueues } from '../workers/queues';

export interface DeliveryLogDeps {
  deliveries: DeliveryRepository;
  queues: Pick<NotifyQueues, 'sms' | 'email'>;
  /** Open dashboard sockets on this replica. */
  connections: () => number;
  transports: { sms: string; email: string };
}

/** The admin's view of notify: what it sends with, what it holds, and the delivery log. */
export class DeliveryLog {
  constructor(private readonly deps: DeliveryLogDeps) {}

  /** Transports in use ("local" = recorded here only), open sockets, queue counts (503 while Redis is down). */
  async status() {
    const counts = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;
    let queues;
    try {
      queues = {
        sms: await this.deps.queues.sms.getJobCounts(...counts),
        email: await this.deps.queues.email.getJobCounts(...counts),
      };
    } catch {
      // The counts live in Redis only; the delivery log (Postgres) keeps answering meanwhile.
      throw serviceUnavailable('Queue counts are unavailable: Redis is not reachable', 5);
    }
    return {
      transports: this.deps.transports,
      websocket: { connections: this.deps.connections() },
      queues,
    };
  }

  /** Newest first, keyset-paged (ListFilter.before). */
  list(filter: ListFilter): Promise<Delivery[]> {
    return this.deps.deliveries.list(filter);
  }

  /** One message with every attempt; 404 when there is none. */
  async get(id: string): Promise<Delivery & { attemptLog: DeliveryAttempt[] }> {
    const row = await this.deps.deliveries.withAttempts(id);
    if (!row) throw notFound('Delivery not found');
    return row;
  }
}
