import {
  createServiceApp,
  identityMiddleware,
  type HttpLayer,
  type Logger,
  type ReadinessCheck,
} from '@tyres/service-kit';
import type { Queue } from 'bullmq';
import type { DeliveryLog } from '../app/delivery-log';
import type { ReviewRequests } from '../app/review-requests';
import type { NotifyMetrics } from '../metrics';
import type { NotificationHub } from '../ws/hub';
import { createUpgradeHandler } from '../ws/upgrade';
import { mountRoutes } from './routes';

export interface NotifyHttpOptions {
  logger: Logger;
  readiness: Record<string, ReadinessCheck>;
  identityPublicKey: string;
  metrics: NotifyMetrics;
  log: DeliveryLog;
  reviews: Pick<ReviewRequests, 'status' | 'unsubscribe'>;
  queues: Queue[];
  hub: NotificationHub;
  ws: { maxPayloadBytes: number; maxConnections: number };
}

/**
 * notify's HTTP layer: service-kit's app (health, readiness, metrics with notify's own, the verified identity), the
 * admin routes, and the WebSocket upgrade (ws/: notify's second transport). Draining refuses new sockets as well
 * as failing readiness.
 */
export function notifyHttp(options: NotifyHttpOptions): HttpLayer {
  const { logger } = options;
  const svc = createServiceApp({ name: 'notify', logger, readiness: options.readiness });
  options.metrics.register(svc.metrics.registry);
  svc.app.use(identityMiddleware(options.identityPublicKey));
  mountRoutes(svc.app, { log: options.log, reviews: options.reviews, queues: options.queues });
  let draining = false;
  const onUpgrade = createUpgradeHandler({
    hub: options.hub,
    logger,
    identityPublicKey: options.identityPublicKey,
    maxPayloadBytes: options.ws.maxPayloadBytes,
    maxConnections: options.ws.maxConnections,
    isDraining: () => draining,
    onRejected: options.metrics.upgradeRejected,
  });
  return {
    app: svc.finalize(),
    setDraining: () => {
      draining = true;
      svc.setDraining();
    },
    onUpgrade,
    registry: svc.metrics.registry,
  };
}
