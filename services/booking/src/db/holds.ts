/** Queries on one client's open payment holds (prepaid quotes not yet paid nor expired). */
import type { Sql } from './client';

/**
 * Serialises the quotes of one client address until the end of the transaction, so two parallel quotes cannot
 * both see room under the cap. Taken after the slot's lock (the booking transaction's first statement).
 */
export async function lockClientHolds(tx: Sql, clientAddress: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
    `booking.client-holds|${clientAddress}`,
  );
}

export interface OpenHolds {
  count: number;
  /** When the oldest of them runs out (undefined when there is none). */
  firstExpiresAt: Date | undefined;
}

/** The client's quotes still holding a slot at `now`: status quoted (unpaid) and not yet expired. */
export async function openHoldsOf(tx: Sql, clientAddress: string, now: Date): Promise<OpenHolds> {
  const [row] = await tx.$queryRawUnsafe<{ n: number; first_ms: string | number | null }[]>(
    `SELECT count(*)::int AS n, floor(extract(epoch FROM min(expires_at)) * 1000)::bigint AS first_ms
       FROM booking.bookings
      WHERE client_address = $1 AND status = 'quoted' AND expires_at > $2::timestamptz`,
    clientAddress,
    now.toISOString(),
  );
  return {
    count: Number(row?.n ?? 0),
    firstExpiresAt: row?.first_ms == null ? undefined : new Date(Number(row.first_ms)),
  };
}
