import type { RequestHandler } from 'express';
import { badRequest } from './errors';

/** Text checks shared by request parsing. */

/**
 * True when `value` (a string, or any JSON-like object or array, however nested) holds a string or key with U+0000,
 * which Postgres cannot store in a text column. Depth-limited (JSON bodies are at most 100 kB anyway).
 */
export function hasNulCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key.includes('\u0000') || hasNulCharacter(inner, depth + 1)) return true;
  }
  return false;
}

export const NUL_MESSAGE = 'Text must not contain NUL characters';

/** A UTF-16 surrogate without its partner: not a character, and Postgres refuses it (22P02) like a NUL. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True when `value` (a string, or any JSON-like object or array, however nested) holds a string or key with a lone
 * UTF-16 surrogate ("A\ud800" in JSON decodes to one). Depth-limited like hasNulCharacter.
 */
export function hasLoneSurrogate(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value);
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (LONE_SURROGATE.test(key) || hasLoneSurrogate(inner, depth + 1)) return true;
  }
  return false;
}

export const INVALID_TEXT_MESSAGE =
  'Text contains characters that are not valid. Please remove them and try again.';

/**
 * Postgres refuses U+0000 in text ("invalid byte sequence"), so a NUL in any JSON string or query value would
 * surface as a 500 from the database. Every service refuses it up front with one clear 400 (createServiceApp puts
 * this after the JSON parser; a route that parses its own bodies, e.g. multipart, runs it again).
 */
export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  if (hasNulCharacter(req.body) || hasNulCharacter(req.query))
    return next(badRequest(NUL_MESSAGE, undefined, 'invalid_characters'));
  // Same for lone surrogates (issue 14): they would fail the outbox insert with 22P02 and answer 500.
  if (hasLoneSurrogate(req.body) || hasLoneSurrogate(req.query) || hasLoneSurrogate(req.params))
    return next(badRequest(INVALID_TEXT_MESSAGE, undefined, 'invalid_characters'));
  next();
};
