import { createHash } from 'node:crypto';
import type { Sql } from './client';

export interface IdempotencyRequest {
  scope: string;
  key: string;
  requestHash: string;
}

export type ClaimResult =
  { claimed: true } | { claimed: false; statusCode: number; response: unknown; sameRequest: boolean };

export const requestHash = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

/**
 * Claims an Idempotency-Key at the start of the transaction that does the work. A concurrent request with the same
 * key waits here for the first one: if it committed, its answer is replayed; if it rolled back (e.g. a 409), the key
 * is free again and this request does the work itself.
 */
export async function claimKey(tx: Sql, req: IdempotencyRequest): Promise<ClaimResult> {
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO booking.idempotency_keys (scope, key, request_hash, status_code, response)
     VALUES ($1, $2, $3, 0, '{}'::jsonb) ON CONFLICT (scope, key) DO NOTHING`,
    req.scope,
    req.key,
    req.requestHash,
  );
  if (Number(inserted) === 1) return { claimed: true };
  const rows = await tx.$queryRawUnsafe<{ request_hash: string; status_code: number; response: unknown }[]>(
    `SELECT request_hash, status_code, response FROM booking.idempotency_keys WHERE scope = $1 AND key = $2`,
    req.scope,
    req.key,
  );
  const row = rows[0]!;
  return {
    claimed: false,
    statusCode: row.status_code,
    response: row.response,
    sameRequest: row.request_hash === req.requestHash,
  };
}

/** Stores the answer to replay, in the same transaction as the work. */
export async function completeKey(
  tx: Sql,
  req: IdempotencyRequest,
  statusCode: number,
  response: unknown,
): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE booking.idempotency_keys SET status_code = $3, response = $4::jsonb WHERE scope = $1 AND key = $2`,
    req.scope,
    req.key,
    statusCode,
    JSON.stringify(response),
  );
}

/** Keys are kept a day: long enough for any client retry. */
export async function purgeKeys(db: Sql, olderThanHours = 24) {
  return db.$executeRawUnsafe(
    `DELETE FROM booking.idempotency_keys WHERE created_at < now() - $1::int * interval '1 hour'`,
    olderThanHours,
  );
}
