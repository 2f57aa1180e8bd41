import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Router, type Express, type Request, type Response } from 'express';
import {
  forbidden,
  IDENTITY_HEADER,
  notFound,
  parseOr400,
  requireStaff,
  unauthorized,
} from '@tyres/service-kit';
import type { JsonPage } from '../db/jobs-repository';
import type { JobShape } from '../db/job-json';
import { ADMIN_ONLY, JOB_NOT_FOUND, LINE_ITEM_NOT_FOUND, TECHNICIAN_NOT_FOUND } from '../domain/messages';
import type { Actor, JobService, ListOptions } from './job-service';
import {
  assignBody,
  lineItemBody,
  lineItemPatch,
  listQuery,
  rescheduleBody,
  statusBody,
  uuid,
} from './schemas';

/**
 * The jobs service's HTTP routes, behind the gateway (services/gateway/src/http/routing.ts sends
 * /api/dashboard/jobs*, /api/dashboard/jobs-with-details and /api/dashboard/technicians here for any logged-in
 * staff member). Roles and per-technician scoping are enforced again here: a technician only ever sees jobs
 * assigned to them, and anything else is 404 so job ids are not confirmed.
 */
export function jobsRouter(service: JobService): Router {
  const router = Router();
  router.use(
    ['/api/dashboard/jobs', '/api/dashboard/jobs-with-details', '/api/dashboard/technicians'],
    requireStaff,
  );

  const actor = (req: Request): Actor => {
    if (!req.identity) throw unauthorized();
    const token = req.headers[IDENTITY_HEADER];
    return {
      identity: req.identity,
      correlationId: req.correlationId,
      auth: { identityToken: Array.isArray(token) ? token[0] : token, requestId: req.correlationId },
    };
  };
  /** Unknown or malformed ids are the same 404 as someone else's job. */
  const jobId = (value: unknown, message = JOB_NOT_FOUND): string => {
    const parsed = uuid.safeParse(value);
    if (!parsed.success) throw notFound(message);
    return parsed.data;
  };

  /**
   * Admin-only changes: a technician gets 404 for a job that is not theirs (ids are not confirmed) and 403 for
   * their own, whatever the body says.
   */
  const adminOnly = async (who: Actor, id: string): Promise<void> => {
    if (who.identity.role === 'admin') return;
    await service.get(who, id);
    throw forbidden(ADMIN_ONLY);
  };

  const sendPage = async (req: Request, res: Response, page: JsonPage, q: ListOptions) => {
    const totalPages = Math.max(1, Math.ceil(page.total / q.pageSize));
    res.setHeader('X-Total-Count', String(page.total));
    res.setHeader('X-Page', String(q.page));
    res.setHeader('X-Page-Size', String(q.pageSize));
    res.setHeader('X-Total-Pages', String(totalPages));
    const links: string[] = [];
    const link = (p: number, rel: string) => {
      const params = new URLSearchParams(req.query as Record<string, string>);
      params.set('page', String(p));
      params.set('pageSize', String(q.pageSize));
      links.push(`<${req.baseUrl}${req.path}?${params.toString()}>; rel="${rel}"`);
    };
    if (q.page > 1) link(q.page - 1, 'prev');
    if (q.page < totalPages) link(q.page + 1, 'next');
    if (links.length) res.setHeader('Link', links.join(', '));
    // Postgres built the JSON array (src/db/job-json.ts); send it as is, compressed for clients that accept it.
    await sendJson(req, res, page.body);
  };

  const list = (shape: JobShape) => async (req: Request, res: Response) => {
    const q = parseOr400(listQuery, req.query);
    await sendPage(req, res, await service.list(actor(req), q, shape), q);
  };

  // Lists: newest first, ?status= (dashboard vocabulary) or ?scheduleStatus= (schedule vocabulary), ?page, ?pageSize.
  router.get('/api/dashboard/jobs', list('dashboard'));
  router.get('/api/dashboard/jobs-with-details', list('details'));

  router.get('/api/dashboard/jobs/:id', async (req, res) => {
    res.json(await service.get(actor(req), jobId(req.params.id)));
  });

  router.patch('/api/dashboard/jobs/:id/status', async (req, res) => {
    const id = jobId(req.params.id);
    const body = parseOr400(statusBody, req.body);
    const { job, smsRequested } = await service.changeStatus(actor(req), id, body);
    res.json({ ...job, smsRequested });
  });

  router.patch('/api/dashboard/jobs/:jobId/assign', async (req, res) => {
    const id = jobId(req.params.jobId);
    const who = actor(req);
    await adminOnly(who, id);
    const { technicianId } = parseOr400(assignBody, req.body);
    res.json(await service.assign(who, id, technicianId));
  });

  router.put('/api/dashboard/jobs/:id/reschedule', async (req, res) => {
    const id = jobId(req.params.id);
    const who = actor(req);
    await adminOnly(who, id);
    const slot = parseOr400(rescheduleBody, req.body);
    res.json(await service.reschedule(who, id, slot));
  });

  router.delete('/api/dashboard/jobs/:id', async (req, res) => {
    const id = jobId(req.params.id);
    const who = actor(req);
    await adminOnly(who, id);
    const deleted = await service.remove(who, id);
    res.json({
      success: true,
      message: `Job ${deleted.jobNumber} deleted`,
      id: deleted.id,
      jobNumber: deleted.jobNumber,
    });
  });

  // Job line items (spec entity job_line_items): staff read their visible jobs' items; admins change them.
  router.get('/api/dashboard/jobs/:id/line-items', async (req, res) => {
    res.json(await service.lineItems(actor(req), jobId(req.params.id)));
  });
  router.post('/api/dashboard/jobs/:id/line-items', async (req, res) => {
    const id = jobId(req.params.id);
    const who = actor(req);
    await adminOnly(who, id);
    res.status(201).json(await service.addLineItem(who, id, parseOr400(lineItemBody, req.body)));
  });
  router.patch('/api/dashboard/jobs/:id/line-items/:itemId', async (req, res) => {
    const id = jobId(req.params.id);
    const who = actor(req);
    await adminOnly(who, id);
    const itemId = jobId(req.params.itemId, LINE_ITEM_NOT_FOUND);
    res.json(await service.updateLineItem(who, id, itemId, parseOr400(lineItemPatch, req.body)));
  });
  router.delete('/api/dashboard/jobs/:id/line-items/:itemId', async (req, res) => {
    const id = jobId(req.params.id);
    const who = actor(req);
    await adminOnly(who, id);
    const itemId = jobId(req.params.itemId, LINE_ITEM_NOT_FOUND);
    await service.deleteLineItem(who, id, itemId);
    res.json({ success: true, message: 'Line item deleted', id: itemId });
  });

  // Technician directory (active technicians; a technician sees only themselves).
  router.get('/api/dashboard/technicians', async (req, res) => {
    const who = actor(req);
    res.json(
      await service.staff.activeTechnicians(who.identity.role === 'technician' ? who.identity.id : undefined),
    );
  });

  router.get('/api/dashboard/technicians/:id/jobs', async (req, res) => {
    const who = actor(req);
    const technicianId = jobId(req.params.id, TECHNICIAN_NOT_FOUND);
    if (who.identity.role === 'technician' && technicianId !== who.identity.id)
      throw notFound(TECHNICIAN_NOT_FOUND);
    const q = parseOr400(listQuery, req.query);
    await sendPage(req, res, await service.list(who, { ...q, technicianId }, 'details'), q);
  });

  return router;
}

const gzip = promisify(zlib.gzip);
/** Below this a compressed answer saves too little to be worth the CPU. */
const COMPRESS_MIN_BYTES = 2048;

/**
 * JSON text, gzip-compressed (level 1, on libuv's thread pool) when the client accepts it and the body is large:
 * a page of 50 jobs is ~46 KiB of JSON and ~6 KiB compressed, which is what the gateway then has to move.
 */
async function sendJson(req: Request, res: Response, body: string): Promise<void> {
  res.type('application/json');
  res.vary('Accept-Encoding');
  if (body.length >= COMPRESS_MIN_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    res.setHeader('Content-Encoding', 'gzip');
    res.send(await gzip(body, { level: 1 }));
    return;
  }
  res.send(body);
}

export function mountRoutes(service: JobService) {
  return (app: Express): void => {
    app.use(jobsRouter(service));
  };
}
