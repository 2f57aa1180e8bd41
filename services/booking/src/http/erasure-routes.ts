/**
 * Issue 18 (privacy): POST /api/dashboard/bookings/{jobId}/erase-customer (admin). The dashboard's job detail knows
 * the job, so the customer is found through the job's booking. Mounted by routes.ts; documented in
 * erasure-openapi.ts.
 */
import type { Express } from 'express';
import { notFound, parseOr400, requireAdmin } from '@tyres/service-kit';
import type { CustomerErasure } from '../app/erasure';
import { eraseCustomerSchema, ERASURE_MSG } from '../domain/erasure';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function erasureRoutes(deps: { erasure: CustomerErasure }) {
  return (app: Express): void => {
    app.post('/api/dashboard/bookings/:jobId/erase-customer', requireAdmin, async (req, res) => {
      const jobId = String(req.params.jobId);
      if (!UUID.test(jobId)) throw notFound(ERASURE_MSG.noBooking);
      const { reason } = parseOr400(eraseCustomerSchema, req.body ?? {});
      res.json(await deps.erasure.eraseByJob(jobId, reason, req.identity!));
    });
  };
}
