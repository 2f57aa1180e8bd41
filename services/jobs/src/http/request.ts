import type { Request } from 'express';
import { IDENTITY_HEADER, notFound, unauthorized } from '@tyres/service-kit';
import type { Actor } from '../app/actor';
import { JOB_NOT_FOUND } from '../domain/messages';
import { uuid } from './schemas';

/** The caller: the identity the gateway signed, the request id, and both to forward to booking. */
export function actorOf(req: Request): Actor {
  if (!req.identity) throw unauthorized();
  const token = req.headers[IDENTITY_HEADER];
  return {
    identity: req.identity,
    correlationId: req.correlationId,
    auth: { identityToken: Array.isArray(token) ? token[0] : token, requestId: req.correlationId },
  };
}

/** An id from the path. Unknown or malformed ids are the same 404 as someone else's job. */
export function pathId(value: unknown, message = JOB_NOT_FOUND): string {
  const parsed = uuid.safeParse(value);
  if (!parsed.success) throw notFound(message);
  return parsed.data;
}
