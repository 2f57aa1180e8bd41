/**
 * Request guards that keep bad input at 4xx before any route runs (issue 3: "bad input is 400/404/409, never 500").
 *  - NUL characters: Postgres refuses U+0000 in text ("invalid byte sequence"), so a NUL in any JSON string or query
 *    value would otherwise surface as a 500 from the database. Refused up front with one clear 400.
 *  - Undecodable path parameters ("%E0%A4%A"): Express's router raises a URIError with status 400 that the shared
 *    error handler does not recognise (no `expose`), so it became a 500; mapped to a 400 here.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { badRequest } from '@tyres/service-kit';
import { hasNulCharacter } from '../domain/text';

export const NUL_MESSAGE = 'Text must not contain NUL characters';

export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  if (hasNulCharacter(req.body) || hasNulCharacter(req.query))
    return next(badRequest(NUL_MESSAGE, undefined, 'invalid_characters'));
  next();
};

export const undecodablePathTo400: ErrorRequestHandler = (err, _req, _res, next) => {
  if (err instanceof URIError)
    return next(badRequest('The address of this request is malformed.', undefined, 'malformed_url'));
  next(err);
};
