/**
 * Slot reservations and blocks. The partial unique index slot_reservations_active_slot_key (migration SQL) is what
 * guarantees one live reservation per (date, slot); the advisory lock below only orders concurrent writers of one
 * slot so that "is it blocked?" / "is it taken?" answers stay true until the transaction commits (a block and a
 * booking racing for the same slot cannot both win).
 */
import { isUniqueViolation } from '@tyres/service-kit';
import type { LiveReservation, SlotBlock } from '../domain/slots';
import type { Prepared, Sql } from './client';

export const ACTIVE_SLOT_INDEX = 'slot_reservations_active_slot_key';

/** A unique violation of the one-live-reservation-per-slot index, from Prisma or from the driver. */
export const isSlotTaken = (err: unknown) => {
  const pgErr = err as { code?: string; constraint?: string };
  return (
    (pgErr?.code === '23505' && pgErr.constraint === ACTIVE_SLOT_INDEX) ||
    isUniqueViolation(err, ACTIVE_SLOT_INDEX)
  );
};

/** The advisory lock key of a (date, slot). */
export const slotLockKey = (date: string, slot: string) => `booking.slot|${date}|${slot}`;

/** Serialises writers of one (date, slot) until the end of the transaction. Take it before any row lock. */
export async function lockSlot(tx: Sql, date: string, slot: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
    slotLockKey(date, slot),
  );
}

interface SlotRow {
  t: 'r' | 'b';
  slot: string;
  job_id: string | null;
  job_number: string | null;
  kind: 'hold' | 'booking' | null;
  expires_ms: string | number | null;
  reason: string | null;
}

export interface SlotRows {
  blocks: SlotBlock[];
  /** Live rows, holds included whatever their expiry: slotStates decides with the current time (cacheable). */
  reservations: LiveReservation[];
}

const READ_SLOTS = `SELECT 'r' AS t, r.time_slot AS slot, r.job_id::text AS job_id, b.job_number, r.kind::text AS kind,
            (extract(epoch FROM r.expires_at) * 1000)::bigint AS expires_ms, NULL AS reason
       FROM booking.slot_reservations r JOIN booking.bookings b ON b.id = r.booking_id
      WHERE r.date = $1::date AND r.released_at IS NULL
     UNION ALL
     SELECT 'b', t.slot, NULL, NULL, NULL, NULL, t.blocked_reason
       FROM booking.time_slots t
      WHERE t.date = $1::date AND NOT t.is_available`;

/**
 * Blocks and unreleased reservations of a date, in one round trip: with `prepared` (the public slot lists, the
 * hottest read) as a named prepared statement, else through `db`.
 */
export async function readSlots(db: Sql, date: string, prepared?: Prepared): Promise<SlotRows> {
  const rows = prepared
    ? await prepared<SlotRow>('booking_read_slots', READ_SLOTS, [date])
    : await db.$queryRawUnsafe<SlotRow[]>(READ_SLOTS, date);
  const blocks: SlotBlock[] = [];
  const reservations: LiveReservation[] = [];
  for (const row of rows) {
    if (row.t === 'b') blocks.push({ slot: row.slot, reason: row.reason });
    else
      reservations.push({
        slot: row.slot,
        jobId: row.job_id ?? '',
        jobNumber: row.job_number ?? '',
        kind: row.kind ?? 'booking',
        expiresAt: row.expires_ms === null ? null : Number(row.expires_ms),
      });
  }
  return { blocks, reservations };
}

/** The live reservation on a slot other than `exceptJobId`'s, if any (expired holds count as free). */
export async function slotHolder(
  tx: Sql,
  date: string,
  slot: string,
  now: Date,
  exceptJobId?: string,
): Promise<string | undefined> {
  const rows = await tx.$queryRawUnsafe<{ job_id: string }[]>(
    `SELECT job_id::text AS job_id FROM booking.slot_reservations
      WHERE date = $1::date AND time_slot = $2 AND released_at IS NULL
        AND (kind = 'booking' OR expires_at > $3::timestamptz)
        AND ($4::uuid IS NULL OR job_id <> $4::uuid)`,
    date,
    slot,
    now.toISOString(),
    exceptJobId ?? null,
  );
  return rows[0]?.job_id;
}

/** A prepaid hold released because its time ran out (its quote is now expired). */
export interface ExpiredHold {
  quoteId: string;
  date: string;
  timeSlot: string;
}

/**
 * The sweeper's batch: releases prepaid holds whose time ran out and marks their quotes expired, in `tx`; returns
 * them (the caller writes BookingExpired). SKIP LOCKED so replicas share the work and never wait on a hold being
 * confirmed. (Holds on a slot someone is booking are expired inline by slotState.)
 */
export async function expireDueHolds(tx: Sql, now: Date, limit = 100): Promise<ExpiredHold[]> {
  const rows = await tx.$queryRawUnsafe<{ booking_id: string; date: string; time_slot: string }[]>(
    `WITH due AS (
       SELECT r.id FROM booking.slot_reservations r
        WHERE r.kind = 'hold' AND r.released_at IS NULL AND r.expires_at <= $1::timestamptz
        ORDER BY r.expires_at
        LIMIT $2::int
        FOR UPDATE SKIP LOCKED
     ), released AS (
       UPDATE booking.slot_reservations r
          SET released_at = $1::timestamptz, release_reason = 'expired', updated_at = now()
         FROM due WHERE r.id = due.id
       RETURNING r.booking_id, to_char(r.date, 'YYYY-MM-DD') AS date, r.time_slot
     ), quotes AS (
       UPDATE booking.bookings b SET status = 'expired', updated_at = now()
         FROM released WHERE b.id = released.booking_id AND b.status = 'quoted'
       RETURNING b.id
     )
     SELECT released.booking_id::text AS booking_id, released.date, released.time_slot
       FROM released JOIN quotes ON quotes.id = released.booking_id`,
    now.toISOString(),
    limit,
  );
  return rows.map((r) => ({ quoteId: r.booking_id, date: r.date, timeSlot: r.time_slot }));
}

export interface SlotState {
  blocked: boolean;
  /** The job holding the slot (a booking or an unexpired hold), other than the one asking. */
  holder: string | null;
  /** Quotes whose expired holds on this slot were released just now. */
  expired: string[];
}

/**
 * One statement, under the slot's advisory lock (taken in an earlier statement, so this one's snapshot sees every
 * commit made before the lock was granted): releases the slot's expired holds (their quotes become expired), and
 * reports whether the slot is blocked or held by another job.
 */
export async function slotState(
  tx: Sql,
  date: string,
  slot: string,
  now: Date,
  exceptJobId?: string,
): Promise<SlotState> {
  const [row] = await tx.$queryRawUnsafe<
    { blocked: boolean; holder: string | null; expired: string[] | string }[]
  >(
    `WITH due AS (
       SELECT r.id FROM booking.slot_reservations r
        WHERE r.kind = 'hold' AND r.released_at IS NULL AND r.expires_at <= $3::timestamptz
          AND r.date = $1::date AND r.time_slot = $2
        FOR UPDATE
     ), released AS (
       UPDATE booking.slot_reservations r SET released_at = $3::timestamptz, release_reason = 'expired', updated_at = now()
         FROM due WHERE r.id = due.id
       RETURNING r.booking_id
     ), quotes AS (
       UPDATE booking.bookings b SET status = 'expired', updated_at = now()
         FROM released WHERE b.id = released.booking_id AND b.status = 'quoted'
       RETURNING b.id
     )
     SELECT EXISTS (SELECT 1 FROM booking.time_slots WHERE date = $1::date AND slot = $2 AND NOT is_available) AS blocked,
            (SELECT job_id::text FROM booking.slot_reservations
              WHERE date = $1::date AND time_slot = $2 AND released_at IS NULL
                AND (kind = 'booking' OR expires_at > $3::timestamptz)
                AND ($4::uuid IS NULL OR job_id <> $4::uuid)
              LIMIT 1) AS holder,
            (SELECT coalesce(json_agg(id::text), '[]'::json) FROM quotes) AS expired`,
    date,
    slot,
    now.toISOString(),
    exceptJobId ?? null,
  );
  const expired = typeof row!.expired === 'string' ? (JSON.parse(row!.expired) as string[]) : row!.expired;
  return { blocked: row!.blocked, holder: row!.holder, expired };
}
