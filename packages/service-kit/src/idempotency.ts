import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { quoteIdent, type SqlExecutor } from '@tyres/events';
import { badRequest, HttpError } from './errors';

/**
 * Idempotency-Key, one implementation for every service (issue 13): the key is claimed in Postgres inside the same
 * transaction as the effect, and the answer is stored in that transaction too. So a retried request either replays
 * the committed answer or, when the first attempt rolled back, does the work itself; there is no window where the
 * effect exists without its key, and no dependency on Redis. A key reused for a different request (other body,
 * path or caller) is a 409, never a silent replay of someone else's answer.
 *
 * Table: `<schema>.idempotency_keys` (packages/events `sharedTableModels(schema, { idempotency: true })`).
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** What a client may send: 8-128 characters of letters, digits and `._:-` (UUIDs and ULIDs fit). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** Keys are kept a day: far longer than any client retries. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600_000;

export interface IdempotencyRequest {
  /** The operation (e.g. "booking.create"): the same key may be used once per scope. */
  scope: string;
  key: string;
  /** sha256 of what makes the request this request (caller, path, body). */
  fingerprint: string;
}

export interface IdempotencyClaimOptions {
  /**
   * The status answered when the key was used for a different request: 409 by default; booking keeps the 422 its
   * clients have always been given.
   */
  reusedStatus?: 409 | 422;
}

export type IdempotencyClaim =
  { claimed: true } | { claimed: false; replay: { statusCode: number; body: unknown } };

/** A stable sha256 of any JSON-like value (object keys sorted, so property order does not matter). */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/**
 * The idempotency request of an HTTP request, or undefined when it carries no Idempotency-Key. A malformed key is a
 * 400 (a client that sends one expects protection; silently ignoring it would not give any).
 */
export function idempotencyRequest(req: Request, scope: string): IdempotencyRequest | undefined {
  const key = req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw badRequest(
      'Idempotency-Key must be 8 to 128 letters, digits, dots, colons, dashes or underscores',
      undefined,
      'invalid_idempotency_key',
    );
  const caller = req.identity?.id ?? null;
  return { scope, key, fingerprint: requestFingerprint({ caller, path: req.originalUrl, body: req.body }) };
}

/**
 * Claims the key at the start of the transaction that does the work. A concurrent request with the same key waits
 * on the row lock until the first commits (then its answer is replayed) or rolls back (then this one proceeds).
 */
export async function claimIdempotencyKey(
  tx: SqlExecutor,
  schema: string,
  req: IdempotencyRequest,
  options: IdempotencyClaimOptions = {},
): Promise<IdempotencyClaim> {
  const table = `${quoteIdent(schema)}."idempotency_keys"`;
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO ${table} (scope, key, request_hash, status_code, response)
     VALUES ($1, $2, $3, 0, '{}'::jsonb) ON CONFLICT (scope, key) DO NOTHING`,
    req.scope,
    req.key,
    req.fingerprint,
  );
  if (Number(inserted) === 1) return { claimed: true };
  const rows = await tx.$queryRawUnsafe<{ request_hash: string; status_code: number; response: unknown }[]>(
    `SELECT request_hash, status_code, response FROM ${table} WHERE scope = $1 AND key = $2`,
    req.scope,
    req.key,
  );
  const row = rows[0];
  // The row vanished between the two statements (purged): treat the key as new.
  if (!row) return claimIdempotencyKey(tx, schema, req, options);
  if (row.request_hash !== req.fingerprint)
    throw new HttpError(
      options.reusedStatus ?? 409,
      'This Idempotency-Key was already used for a different request',
      'idempotency_key_reused',
    );
  return { claimed: false, replay: { statusCode: row.status_code, body: row.response } };
}

/** Stores the answer to replay, in the same transaction as the work. */
export async function completeIdempotencyKey(
  tx: SqlExecutor,
  schema: string,
  req: IdempotencyRequest,
  statusCode: number,
  body: unknown,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE ${quoteIdent(schema)}."idempotency_keys" SET status_code = $3, response = $4::jsonb
     WHERE scope = $1 AND key = $2`,
    req.scope,
    req.key,
    statusCode,
    JSON.stringify(body ?? null),
  );
}
