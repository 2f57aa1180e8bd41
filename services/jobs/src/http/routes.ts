import { Router, type Express, type Request, type Response } from 'express';
import { mountOpenApi, parseOr400, requireStaff, responseContractCheck } from '@tyres/service-kit';
import type { JobEditUseCases } from '../app/job-edits';
import type { JobUseCases } from '../app/jobs';
import type { LineItemUseCases } from '../app/line-items';
import type { TechnicianUseCases } from '../app/technicians';
import type { JobShape } from '../domain/job-view';
import { LINE_ITEM_NOT_FOUND, TECHNICIAN_NOT_FOUND } from '../domain/messages';
import { jobEditBody } from './job-edit-schemas';
import { jobsOpenApi, jobsPaths } from './openapi';
import { actorOf, pathId } from './request';
import { sendPage } from './responses';
import { assignBody, lineItemBody, lineItemPatch, listQuery, rescheduleBody, statusBody } from './schemas';

/** The use cases the routes call. */
export interface JobsApi {
  jobs: JobUseCases;
  lineItems: LineItemUseCases;
  technicians: TechnicianUseCases;
  /** Issue 19: an admin's edits of a job after booking, and their history. */
  edits: JobEditUseCases;
}

/**
 * The jobs service's HTTP routes, behind the gateway (services/gateway/src/http/routing.ts sends
 * /api/dashboard/jobs*, /api/dashboard/jobs-with-details and /api/dashboard/technicians here for any logged-in
 * staff member). Each route parses (zod, the spec's messages), calls one use case (src/app) and serialises. Roles
 * and per-technician scoping are enforced again in the use cases: a technician only ever sees jobs assigned to
 * them, and anything else is 404 so job ids are not confirmed. Admin-only changes check access before the body is
 * read, so a technician gets 404 or 403 whatever the body says.
 */
export function jobsRouter({ jobs, lineItems, technicians, edits }: JobsApi): Router {
  const router = Router();
  router.use(
    ['/api/dashboard/jobs', '/api/dashboard/jobs-with-details', '/api/dashboard/technicians'],
    requireStaff,
  );

  const list = (shape: JobShape) => async (req: Request, res: Response) => {
    const q = parseOr400(listQuery, req.query);
    await sendPage(req, res, await jobs.list(actorOf(req), q, shape), q);
  };

  // Lists: newest first, ?status= (dashboard vocabulary) or ?scheduleStatus= (schedule vocabulary), ?page, ?pageSize.
  router.get('/api/dashboard/jobs', list('dashboard'));
  router.get('/api/dashboard/jobs-with-details', list('details'));

  router.get('/api/dashboard/jobs/:id', async (req, res) => {
    res.json(await jobs.get(actorOf(req), pathId(req.params.id)));
  });

  // Issue 19: an admin edits price, address, vehicle, notes or tyre details, with a reason; the history lists them.
  router.patch('/api/dashboard/jobs/:id', async (req, res) => {
    const id = pathId(req.params.id);
    const who = actorOf(req);
    await jobs.authorizeAdminChange(who, id);
    const body = parseOr400(jobEditBody(), req.body);
    await edits.edit(who, id, body);
    res.json(await jobs.get(who, id));
  });

  router.get('/api/dashboard/jobs/:id/history', async (req, res) => {
    res.json(await edits.history(actorOf(req), pathId(req.params.id)));
  });

  router.patch('/api/dashboard/jobs/:id/status', async (req, res) => {
    const id = pathId(req.params.id);
    const body = parseOr400(statusBody, req.body);
    const { job, smsRequested } = await jobs.changeStatus(actorOf(req), id, body);
    res.json({ ...job, smsRequested });
  });

  router.patch('/api/dashboard/jobs/:jobId/assign', async (req, res) => {
    const id = pathId(req.params.jobId);
    const who = actorOf(req);
    await jobs.authorizeAdminChange(who, id);
    const { technicianId } = parseOr400(assignBody, req.body);
    res.json(await jobs.assign(who, id, technicianId));
  });

  router.put('/api/dashboard/jobs/:id/reschedule', async (req, res) => {
    const id = pathId(req.params.id);
    const who = actorOf(req);
    await jobs.authorizeAdminChange(who, id);
    const slot = parseOr400(rescheduleBody, req.body);
    res.json(await jobs.reschedule(who, id, slot));
  });

  router.delete('/api/dashboard/jobs/:id', async (req, res) => {
    const id = pathId(req.params.id);
    const who = actorOf(req);
    await jobs.authorizeAdminChange(who, id);
    const deleted = await jobs.remove(who, id);
    res.json({
      success: true,
      message: `Job ${deleted.jobNumber} deleted`,
      id: deleted.id,
      jobNumber: deleted.jobNumber,
    });
  });

  // Job line items (spec entity job_line_items): staff read their visible jobs' items; admins change them.
  router.get('/api/dashboard/jobs/:id/line-items', async (req, res) => {
    res.json(await lineItems.list(actorOf(req), pathId(req.params.id)));
  });
  router.post('/api/dashboard/jobs/:id/line-items', async (req, res) => {
    const id = pathId(req.params.id);
    const who = actorOf(req);
    await jobs.authorizeAdminChange(who, id);
    res.status(201).json(await lineItems.add(who, id, parseOr400(lineItemBody, req.body)));
  });
  router.patch('/api/dashboard/jobs/:id/line-items/:itemId', async (req, res) => {
    const id = pathId(req.params.id);
    const who = actorOf(req);
    await jobs.authorizeAdminChange(who, id);
    const itemId = pathId(req.params.itemId, LINE_ITEM_NOT_FOUND);
    res.json(await lineItems.update(who, id, itemId, parseOr400(lineItemPatch, req.body)));
  });
  router.delete('/api/dashboard/jobs/:id/line-items/:itemId', async (req, res) => {
    const id = pathId(req.params.id);
    const who = actorOf(req);
    await jobs.authorizeAdminChange(who, id);
    const itemId = pathId(req.params.itemId, LINE_ITEM_NOT_FOUND);
    await lineItems.remove(who, id, itemId);
    res.json({ success: true, message: 'Line item deleted', id: itemId });
  });

  // Technician directory (active technicians; a technician sees only themselves).
  router.get('/api/dashboard/technicians', async (req, res) => {
    res.json(await technicians.list(actorOf(req).identity));
  });

  router.get('/api/dashboard/technicians/:id/jobs', async (req, res) => {
    const who = actorOf(req);
    const technicianId = pathId(req.params.id, TECHNICIAN_NOT_FOUND);
    jobs.authorizeTechnicianList(who, technicianId);
    const q = parseOr400(listQuery, req.query);
    await sendPage(req, res, await jobs.list(who, { ...q, technicianId }, 'details'), q);
  });

  return router;
}

/**
 * Mounts the routes on the service's app (serviceHttp's `routes`): GET /openapi.json, and the answers checked against
 * that document (strict in the integration suites, off in production unless OPENAPI_RESPONSE_CHECK says otherwise).
 */
export function jobsRoutes(api: JobsApi) {
  return (app: Express): void => {
    mountOpenApi(app, jobsOpenApi());
    app.use(responseContractCheck(jobsPaths));
    app.use(jobsRouter(api));
  };
}
