/**
 * "Manage my booking" routes (issue 18): the customer's page, opened with the token from their confirmation email
 * or SMS. Public (the gateway routes /api/manage/** here, rate-limited per client); the token is the capability, and
 * every unknown, expired or revoked token gets the same 404. Mounted by routes.ts; documented in manage-openapi.ts.
 */
import type { Express, Response } from 'express';
import { badRequest, notFound, parseOr400, requireAdmin } from '@tyres/service-kit';
import type { ManageBooking } from '../app/manage';
import { PHOTO_TYPES } from '../domain/constants';
import { MANAGE_MSG } from '../domain/manage';
import { MSG } from '../domain/messages';
import type { PhotoChunks } from '../db/photo-chunks';
import { photoCountError } from '../app/errors';
import {
  manageCancelSchema,
  manageRescheduleSchema,
  manageUpdateSchema,
  noShowSchema,
  staffCancelSchema,
} from './manage-schemas';
import { finishBody, receivePhotoUpload, type UploadGuard } from './multipart';
import { photoView } from './responses';

export interface ManageRouteDeps {
  manage: ManageBooking;
  photoChunks: PhotoChunks;
  uploads: UploadGuard;
}

/** The token is in the address and the answer is personal: never stored by a browser or a proxy. */
const private_ = (res: Response) => res.setHeader('Cache-Control', 'no-store');

export function manageRoutes(deps: ManageRouteDeps) {
  return (app: Express) => {
    app.get('/api/manage/:token', async (req, res) => {
      private_(res);
      res.json(await deps.manage.view(req.params.token));
    });

    app.post('/api/manage/:token/reschedule', async (req, res) => {
      private_(res);
      const body = parseOr400(manageRescheduleSchema, req.body ?? {});
      res.json(await deps.manage.reschedule(req.params.token, body.scheduledDate, body.timeSlot));
    });

    app.post('/api/manage/:token/cancel', async (req, res) => {
      private_(res);
      const body = parseOr400(manageCancelSchema, req.body ?? {});
      res.json(await deps.manage.cancel(req.params.token, body.reason, body.expected));
    });

    app.patch('/api/manage/:token', async (req, res) => {
      private_(res);
      const body = parseOr400(manageUpdateSchema, req.body ?? {});
      res.json(await deps.manage.update(req.params.token, body));
    });

    // The booking's photo pipeline (multipart.ts, app/photos.ts): the same checks, limits and answers.
    app.post('/api/manage/:token/photos', async (req, res) => {
      private_(res);
      let received: string[] = [];
      try {
        const target = await deps.manage.photoTarget(req.params.token);
        if (target.remaining <= 0) throw photoCountError(target.max);
        const upload = await receivePhotoUpload(req, target, deps.photoChunks, deps.uploads);
        received = upload.files.map((f) => f.id);
        const type = (upload.fields.type ?? 'tyre-condition').trim() || 'tyre-condition';
        if (!(PHOTO_TYPES as readonly string[]).includes(type))
          throw badRequest(MSG.photoKind, undefined, 'invalid_photo_type');
        if (upload.files.length === 0) throw badRequest(MSG.photoNone, undefined, 'no_files');
        const stored = await deps.manage.storePhotos(target, type, upload.files);
        received = [];
        res.status(201).json({ photos: stored.map(photoView) });
      } catch (err) {
        await Promise.all([
          // Left behind if the database is down now: the hold sweeper purges abandoned uploads.
          deps.photoChunks.discard(received).catch(() => undefined),
          // Whatever the answer, it goes out once the body has been read (multipart.ts).
          finishBody(req, res, deps.uploads),
        ]);
        throw err;
      }
    });

    // ------------------------------------------------------------ dashboard: cancelling for the customer (admin)
    // The same policy and transaction as the customer's cancel; the dashboard shows the terms before confirming.
    app.get('/api/dashboard/bookings/:jobId/cancellation', requireAdmin, async (req, res) => {
      const jobId = String(req.params.jobId);
      if (!UUID.test(jobId)) throw notFound(MANAGE_MSG.noBooking);
      res.json(await deps.manage.forStaff(jobId));
    });
    app.post('/api/dashboard/bookings/:jobId/cancel', requireAdmin, async (req, res) => {
      const jobId = String(req.params.jobId);
      if (!UUID.test(jobId)) throw notFound(MANAGE_MSG.noBooking);
      const body = parseOr400(staffCancelSchema, req.body ?? {});
      res.json(
        await deps.manage.staffCancel(jobId, req.identity!, body.reason, body.waiveFee, body.expected),
      );
    });
    // Mark no-show (admin): once the slot has started, charged in full (the kernel's noShowTerms).
    app.post('/api/dashboard/bookings/:jobId/no-show', requireAdmin, async (req, res) => {
      const jobId = String(req.params.jobId);
      if (!UUID.test(jobId)) throw notFound(MANAGE_MSG.noBooking);
      const body = parseOr400(noShowSchema, req.body ?? {});
      res.json(await deps.manage.markNoShow(jobId, req.identity!, body.note));
    });
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
