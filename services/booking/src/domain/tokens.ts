import { createHash, randomBytes } from 'node:crypto';

/**
 * Booking tokens are bearer capabilities for the checkout page (/checkout/{token}): 256 random bits, base64url
 * (43 characters). Only their sha256 is stored, so a database leak does not expose payable checkouts.
 */
export const newBookingToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
/** Shape check before touching the database. */
export const looksLikeToken = (token: string) => /^[A-Za-z0-9_-]{16,200}$/.test(token);

/** Job numbers: JOB- and at least six digits from a Postgres sequence (JOB-000123; JOB-1234567 after a million). */
export const formatJobNumber = (seq: number | bigint) => `JOB-${String(seq).padStart(6, '0')}`;
