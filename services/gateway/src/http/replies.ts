import type http from 'node:http';
import type { HttpError } from '@tyres/service-kit';

/** The JSON error answers the edge gives itself, in the shape every service answers with. */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: { message: string; code?: string; details?: unknown },
) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** An HttpError as service-kit's errorHandler would answer it (Retry-After on 429 and 503). */
export function sendHttpError(res: http.ServerResponse, err: HttpError) {
  const retry = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
  if ((err.status === 429 || err.status === 503) && retry) res.setHeader('Retry-After', String(retry));
  sendJson(res, err.status, {
    ...err.extra,
    message: err.message,
    ...(err.code ? { code: err.code } : {}),
    ...(err.details !== undefined ? { details: err.details } : {}),
  });
}

export const LENGTH_REQUIRED = {
  message: 'Send the length of this request body (Content-Length)',
  code: 'length_required',
};
export const TOO_LARGE = { message: 'Request body is too large', code: 'payload_too_large' };
export const NOT_AUTHENTICATED = { message: 'Not authenticated', code: 'unauthorized' };
export const ADMIN_ONLY = { message: 'Only an admin can do that', code: 'forbidden' };
export const CROSS_SITE = { message: 'Cross-site request refused', code: 'forbidden' };
export const INTERNAL = { message: 'Something went wrong. Please try again.', code: 'internal_error' };
