import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { Logger } from 'pino';
import { currentCorrelationId } from './context';
import { loggableUrl } from './logger';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  isTransactionConflict,
} from './database-errors';

/** The one error shape every service answers with. Front ends show `message`. */
export interface ErrorBody {
  message: string;
  code?: string;
  details?: unknown;
}

export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly code?: string,
    public readonly details?: unknown,
    /** Extra top-level fields some spec'd responses carry (e.g. callbackRequired). */
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, details?: unknown, code = 'bad_request') =>
  new HttpError(400, message, code, details);
export const unauthorized = (message = 'Not authenticated') => new HttpError(401, message, 'unauthorized');
export const forbidden = (message = 'You do not have permission to do that') =>
  new HttpError(403, message, 'forbidden');
export const notFound = (message = 'Not found') => new HttpError(404, message, 'not_found');
export const conflict = (message: string, details?: unknown, code = 'conflict') =>
  new HttpError(409, message, code, details);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new HttpError(429, message, 'too_many_requests', retryAfterSeconds ? { retryAfterSeconds } : undefined);
export const serviceUnavailable = (
  message: string,
  retryAfterSeconds?: number,
  code = 'service_unavailable',
) => new HttpError(503, message, code, retryAfterSeconds ? { retryAfterSeconds } : undefined);

export function zodDetails(error: ZodError) {
  return error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

/** Turns a zod failure into the 400 the front ends expect: the first field message, and all of them in details. */
export function fromZodError(error: ZodError): HttpError {
  const details = zodDetails(error);
  return new HttpError(400, details[0]?.message ?? 'Invalid request', 'validation_failed', details);
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  expose?: boolean;
}

export function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof ZodError) return fromZodError(err);
  // Express's router cannot decode a path parameter such as "%E0%A4%A": a URIError with status 400 but no `expose`.
  if (err instanceof URIError)
    return new HttpError(400, 'The address of this request is malformed.', 'malformed_url');
  const e = err as BodyParserError;
  if (e && typeof e === 'object') {
    if (e.type === 'entity.too.large')
      return new HttpError(413, 'Request body is too large', 'payload_too_large');
    if (e.type === 'entity.parse.failed')
      return new HttpError(400, 'Request body is not valid JSON', 'malformed_json');
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
      return new HttpError(415, 'Unsupported request encoding', 'unsupported_encoding');
    // Any other refusal of the body parser (e.g. content-encoding gzip over bytes that are not gzip): the same
    // answer on every route, named so clients and the OpenAPI check can tell it from the route's own.
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500 && e.expose)
      return new HttpError(e.status, e.message, 'malformed_body');
  }
  // A database restart, a dropped connection or a serialization race that outlived its retries: the request can be
  // repeated, so say so (503 + Retry-After) instead of a 500 that reads like a bug.
  if (isDatabaseUnavailable(err) || isTransactionConflict(err))
    return serviceUnavailable(
      DATABASE_UNAVAILABLE_MESSAGE,
      DATABASE_RETRY_AFTER_SECONDS,
      'database_unavailable',
    );
  return undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = toHttpError(err);
    if (res.headersSent) {
      logger.error({ err }, 'error after response started');
      res.destroy();
      return;
    }
    if (!known) {
      logger.error({ err, method: req.method, url: loggableUrl(req.originalUrl) }, 'unhandled error');
      res.status(500).json({ message: 'Something went wrong. Please try again.', code: 'internal_error' });
      return;
    }
    if (known.code === 'database_unavailable') logger.warn({ err }, 'database unavailable: answered 503');
    else if (known.status >= 500) logger.error({ err }, known.message);
    const body: ErrorBody & Record<string, unknown> = { ...known.extra, message: known.message };
    if (known.code) body.code = known.code;
    if (known.details !== undefined) body.details = known.details;
    if (
      (known.status === 429 || known.status === 503) &&
      known.details &&
      typeof known.details === 'object'
    ) {
      const retry = (known.details as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retry) res.setHeader('Retry-After', String(retry));
    }
    res.status(known.status).json(body);
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(notFound(`No route for ${req.method} ${req.path}`));
};

/** For logging outside express (workers, consumers). */
export function describeError(err: unknown) {
  return { err, correlationId: currentCorrelationId() };
}
