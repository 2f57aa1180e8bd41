import { Router, type Express, type Response } from 'express';
import { mountOpenApi, parseOr400, requireAdmin, responseContractCheck } from '@tyres/service-kit';
import type { ReportUseCases } from '../app/reports';
import { reportingOpenApi, reportingPaths } from './openapi';
import { periodQuery } from './period-query';

/** Financial data: never cached by a browser or a proxy. */
function noStore(res: Response): Response {
  return res.setHeader('Cache-Control', 'no-store');
}

/** The pieces with `separator` between each two (the pieces of `pieces.join(separator)`, without the copy). */
const COMMA = Buffer.from(',');

/** The pieces with `separator` between each two (the pieces of a join, without the copy). */
function joinedWith(pieces: Buffer[], separator: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) out.push(separator);
    out.push(pieces[i] as Buffer);
  }
  return out;
}

/** A 200 JSON answer whose body is the concatenation of `pieces`, written piece by piece in one corked burst. */
function sendJsonPieces(res: Response, pieces: (string | Buffer)[]): void {
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece);
  res.status(200).type('application/json').setHeader('Content-Length', length);
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
}

/**
 * GET /api/dashboard/reports/{gst,purchases-payables,enhanced-pl}?startDate=YYYY-MM-DD&endDate=YYYY-MM-DD
 * Admin only (the gateway checks it too). Dates are inclusive Perth calendar dates; either may be left out.
 */
export function reportsRouter(reports: ReportUseCases): Router {
  const router = Router();
  router.use(requireAdmin);

  router.get('/gst', async (req, res) => {
    const period = parseOr400(periodQuery, req.query);
    const report = await reports.gst(period);
    // Over a whole history the lists run to tens of megabytes. They are stored as pre-rendered JSON (day blocks,
    // cached as bytes by revision: src/app/gst-block-cache.ts) and written out as they are, block by block, instead
    // of being parsed, serialised and copied again for every request. res.send is not used: it would hash the
    // whole body for an ETag, pointless for an uncacheable answer.
    const totals = JSON.stringify(report.totals).slice(0, -1);
    sendJsonPieces(noStore(res), [
      `${totals},"customerInvoices":[`,
      ...joinedWith(report.customerBlocks, COMMA),
      '],"purchaseInvoices":[',
      ...joinedWith(report.purchaseBlocks, COMMA),
      ']}',
    ]);
  });

  router.get('/purchases-payables', async (req, res) => {
    const period = parseOr400(periodQuery, req.query);
    noStore(res).json(await reports.payables(period));
  });

  router.get('/enhanced-pl', async (req, res) => {
    const period = parseOr400(periodQuery, req.query);
    noStore(res).json(await reports.enhancedPl(period));
  });

  return router;
}

/** The reporting service's HTTP routes (mounted behind the gateway; see docs/team-conventions.md). */
export function mountRoutes(reports: ReportUseCases): (app: Express) => void {
  return (app) => {
    // The document first: every JSON answer below is checked against it in the tests (OPENAPI_RESPONSE_CHECK=strict).
    // The GST report is written in pieces, not through res.json: its test parses it with the documented schema.
    app.use(responseContractCheck(reportingPaths));
    mountOpenApi(app, reportingOpenApi());
    app.use('/api/dashboard/reports', reportsRouter(reports));
  };
}
