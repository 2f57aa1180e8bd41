import { Router, type Express, type Response } from 'express';
import { parseOr400, requireAdmin } from '@tyres/service-kit';
import type { Db } from '../db/client';
import { gstData, payablesData, plData } from '../db/reports';
import { perthDate } from '../domain/dates';
import { periodQuery } from '../domain/period';
import { enhancedPl, gstTotals, payablesReport } from '../domain/reports';

export interface ReportRoutesDeps {
  db: Db;
  /** "Now" for overdue and days until due (tests pin it). */
  clock: () => Date;
}

/** Financial data: never cached by a browser or a proxy. */
function noStore(res: Response): Response {
  return res.setHeader('Cache-Control', 'no-store');
}

/**
 * GET /api/dashboard/reports/{gst,purchases-payables,enhanced-pl}?startDate=YYYY-MM-DD&endDate=YYYY-MM-DD
 * Admin only (the gateway checks it too). Dates are inclusive Perth calendar dates; either may be left out.
 */
export function reportsRouter({ db, clock }: ReportRoutesDeps): Router {
  const router = Router();
  router.use(requireAdmin);

  router.get('/gst', async (req, res) => {
    const period = parseOr400(periodQuery, req.query);
    const data = await gstData(db, period);
    // The invoice lists can run to tens of thousands of rows: they are stored as pre-rendered JSON (day blocks)
    // and spliced in as they are, instead of being parsed and serialised again for every request. Written with
    // res.end: res.send would hash the whole body for an ETag, pointless for an uncacheable answer.
    const totals = JSON.stringify(gstTotals(data.collected, data.paid)).slice(0, -1);
    const body = Buffer.from(
      `${totals},"customerInvoices":[${data.customerRows}],"purchaseInvoices":[${data.purchaseRows}]}`,
    );
    noStore(res).status(200).type('application/json').setHeader('Content-Length', body.length);
    res.end(body);
  });

  router.get('/purchases-payables', async (req, res) => {
    const period = parseOr400(periodQuery, req.query);
    const today = perthDate(clock());
    noStore(res).json(payablesReport(await payablesData(db, period, today), today));
  });

  router.get('/enhanced-pl', async (req, res) => {
    const period = parseOr400(periodQuery, req.query);
    noStore(res).json(enhancedPl(await plData(db, period)));
  });

  return router;
}

/** The reporting service's HTTP routes (mounted behind the gateway; see docs/team-conventions.md). */
export function mountRoutes(app: Express, deps: ReportRoutesDeps): void {
  app.use('/api/dashboard/reports', reportsRouter(deps));
}
