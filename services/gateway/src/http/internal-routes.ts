import { Router, type Request } from 'express';
import { notForwarded } from '@tyres/service-kit';
import type { StaffAccounts } from '../app/staff-accounts';

export interface InternalRoutesDeps {
  accounts: Pick<StaffAccounts, 'activeTechnicians'>;
  /**
   * Whether a request may reach /internal/*: by default only one no proxy forwarded (service-kit `notForwarded`,
   * the rule of the gateway's /metrics). Every request through the edge proxy carries X-Forwarded-For/Forwarded,
   * and the NetworkPolicies let only the edge proxy, Prometheus and the declared callers (deploy/service-calls.json:
   * booking) reach the gateway's pods.
   */
  internalRequest?: (req: Request) => boolean;
}

/** The internal routes' paths: never in ROUTES or OWN_ROUTES (routing.ts), so the edge never treats them as API. */
export const INTERNAL_ROUTES = { technicians: '/internal/technicians' } as const;

/**
 * Service-to-service routes the gateway answers itself (docs/service-guide.md: `/internal/*` is never routed to the
 * public). A request that came through a proxy falls through as if the path did not exist (the front ends' 404),
 * the same answer any unknown path gets, so the route is not even visible from outside.
 *
 * GET /internal/technicians: booking's roster sync (services/booking/src/app/roster-sync.ts) pulls the active
 * technicians once after its upgrade, so technicians created before booking kept a roster reach it even when no
 * user event was ever queued for booking.
 */
export function internalRoutes({ accounts, internalRequest = notForwarded }: InternalRoutesDeps): Router {
  const router = Router();
  router.use('/internal', (req, _res, next) => (internalRequest(req) ? next() : next('router')));
  router.get(INTERNAL_ROUTES.technicians, async (_req, res) => {
    res.json({ technicians: await accounts.activeTechnicians() });
  });
  return router;
}
