/**
 * Slot reservations, blocks and capacity (issue 19). A slot holds as many live reservations as its capacity (the
 * technicians rostered that day minus leave; one with no active technician at all). The guarantee is the per-(date, slot) advisory
 * lock below, which every writer of a slot takes before anything else: under it, slotState counts the slot's live
 * reservations in a fresh statement (READ COMMITTED: it sees every commit made before the lock was granted) and the
 * writer inserts or moves its row only when the count is under the capacity, all before the lock is released at
 * commit. So N writers racing for a slot of capacity C leave exactly C reservations, and a block and a booking
 * racing for the same slot cannot both win. A writer moving a job takes only the target slot's lock (freeing the
 * old slot never needs one), so two locks are never held at once and there is no lock-order deadlock.
 */
import { isUniqueViolation } from '@tyres/service-kit';
import { isoWeekday } from '../domain/capacity';
import type { DayFacts, LiveReservation, SlotBlock } from '../domain/slots';
import type { Prepared, Sql } from './client';

/**
 * The one-live-reservation unique index of before issue 19 (dropped by migration capacity_calendar). Kept so that
 * a database not yet migrated still answers 409 rather than 500.
 */
export const ACTIVE_SLOT_INDEX = 'slot_reservations_active_slot_key';

/** A unique violation of the old one-live-reservation-per-slot index, from Prisma or from the driver. */
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
  t: 'r' | 'b' | 'c' | 'k';
  slot: string | null;
  job_id: string | null;
  job_number: string | null;
  kind: 'hold' | 'booking' | null;
  expires_ms: string | number | null;
  reason: string | null;
  n1: number | null;
  n2: number | null;
  n3: number | null;
  n4: number | null;
}

export interface SlotRows {
  blocks: SlotBlock[];
  /** Live rows, holds included whatever their expiry: slotStates decides with the current time (cacheable). */
  reservations: LiveReservation[];
  /** The day's roster counts, holiday opening and calendar blocks (issue 19). */
  day: DayFacts;
}

/**
 * The roster counts of a date ($1), as SQL: active technicians working its ISO weekday, and those of them on leave.
 * `$2` is the ISO weekday (computed in TS: the same rule as the domain's).
 */
const rosteredSql = (dow: string) =>
  `(SELECT count(*)::int FROM booking.roster_technicians rt WHERE rt.is_active AND ${dow}::int = ANY (rt.weekdays))`;
const onLeaveSql = (dow: string) => `(SELECT count(*)::int FROM booking.roster_technicians rt
                    WHERE rt.is_active AND ${dow}::int = ANY (rt.weekdays)
                      AND EXISTS (SELECT 1 FROM booking.technician_leave l
                                   WHERE l.user_id = rt.user_id AND l.deleted_at IS NULL
                                     AND l.start_date <= $1::date AND l.end_date >= $1::date))`;
/** Active technicians on the roster, whatever their weekdays (none at all: one job per slot). */
const ACTIVE_TECHNICIANS = `(SELECT count(*)::int FROM booking.roster_technicians rt WHERE rt.is_active)`;
const HOLIDAY_OPENED = `(SELECT count(*)::int FROM booking.holiday_openings h WHERE h.date = $1::date)`;
/** Calendar blocks in force on $1 (ISO weekday `dow`): a day, a range, a recurring slot. */
const calendarBlocksOn = (dow: string) => `booking.calendar_blocks c
      WHERE c.deleted_at IS NULL AND c.start_date <= $1::date AND (c.end_date IS NULL OR c.end_date >= $1::date)
        AND (c.weekday IS NULL OR c.weekday = ${dow}::int)`;

const READ_SLOTS = `SELECT 'r' AS t, r.time_slot AS slot, r.job_id::text AS job_id, b.job_number, r.kind::text AS kind,
            (extract(epoch FROM r.expires_at) * 1000)::bigint AS expires_ms, NULL AS reason,
            NULL::int AS n1, NULL::int AS n2, NULL::int AS n3, NULL::int AS n4
       FROM booking.slot_reservations r JOIN booking.bookings b ON b.id = r.booking_id
      WHERE r.date = $1::date AND r.released_at IS NULL
     UNION ALL
     SELECT 'b', t.slot, NULL, NULL, NULL, NULL, t.blocked_reason, NULL, NULL, NULL, NULL
       FROM booking.time_slots t
      WHERE t.date = $1::date AND NOT t.is_available
     UNION ALL
     SELECT 'c', c.time_slot, NULL, NULL, NULL, NULL, c.reason, NULL, NULL, NULL, NULL
       FROM ${calendarBlocksOn('$2')}
     UNION ALL
     SELECT 'k', NULL, NULL, NULL, NULL, NULL, NULL, ${rosteredSql('$2')}, ${onLeaveSql('$2')}, ${HOLIDAY_OPENED},
            ${ACTIVE_TECHNICIANS}`;

/**
 * Blocks and unreleased reservations of a date, in one round trip: with `prepared` (the public slot lists, the
 * hottest read) as a named prepared statement, else through `db`.
 */
export async function readSlots(db: Sql, date: string, prepared?: Prepared): Promise<SlotRows> {
  const rows = prepared
    ? await prepared<SlotRow>('booking_read_slots_v3', READ_SLOTS, [date, isoWeekday(date)])
    : await db.$queryRawUnsafe<SlotRow[]>(READ_SLOTS, date, isoWeekday(date));
  const blocks: SlotBlock[] = [];
  const reservations: LiveReservation[] = [];
  const day: DayFacts = {
    activeTechnicians: 0,
    rostered: 0,
    onLeave: 0,
    holidayOpened: false,
    calendarBlocks: [],
  };
  for (const row of rows) {
    if (row.t === 'b') blocks.push({ slot: row.slot ?? '', reason: row.reason });
    else if (row.t === 'c') day.calendarBlocks.push({ slot: row.slot, reason: row.reason });
    else if (row.t === 'k') {
      day.rostered = Number(row.n1 ?? 0);
      day.onLeave = Number(row.n2 ?? 0);
      day.holidayOpened = Number(row.n3 ?? 0) > 0;
      day.activeTechnicians = Number(row.n4 ?? 0);
    } else
      reservations.push({
        slot: row.slot ?? '',
        jobId: row.job_id ?? '',
        jobNumber: row.job_number ?? '',
        kind: row.kind ?? 'booking',
        expiresAt: row.expires_ms === null ? null : Number(row.expires_ms),
      });
  }
  return { blocks, reservations, day };
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
  /** A slot block (time_slots). */
  blocked: boolean;
  /** A calendar block in force on the slot (a day, a range, a recurring slot): its reason. */
  calendarBlock: string | null;
  /** The jobs holding the slot (bookings and unexpired holds), other than the one asking. */
  holders: string[];
  /** The day's roster counts and whether an admin opened it (when it is a public holiday). */
  activeTechnicians: number;
  rostered: number;
  onLeave: number;
  holidayOpened: boolean;
  /** Quotes whose expired holds on this slot were released just now. */
  expired: string[];
}

/**
 * One statement, under the slot's advisory lock (taken in an earlier statement, so this one's snapshot sees every
 * commit made before the lock was granted): releases the slot's expired holds (their quotes become expired), and
 * reports the slot's blocks, the jobs holding it other than `exceptJobId`, and the day's capacity facts.
 */
export async function slotState(
  tx: Sql,
  date: string,
  slot: string,
  now: Date,
  exceptJobId?: string,
): Promise<SlotState> {
  const [row] = await tx.$queryRawUnsafe<
    {
      blocked: boolean;
      calendar_block: string | null;
      holders: string[] | string;
      active_technicians: number;
      rostered: number;
      on_leave: number;
      holiday_opened: number;
      expired: string[] | string;
    }[]
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
            (SELECT c.reason FROM ${calendarBlocksOn('$5')}
                AND (c.time_slot IS NULL OR c.time_slot = $2) LIMIT 1) AS calendar_block,
            (SELECT coalesce(json_agg(job_id::text), '[]'::json) FROM booking.slot_reservations
              WHERE date = $1::date AND time_slot = $2 AND released_at IS NULL
                AND (kind = 'booking' OR expires_at > $3::timestamptz)
                AND ($4::uuid IS NULL OR job_id <> $4::uuid)) AS holders,
            ${ACTIVE_TECHNICIANS} AS active_technicians,
            ${rosteredSql('$5')} AS rostered,
            ${onLeaveSql('$5')} AS on_leave,
            ${HOLIDAY_OPENED} AS holiday_opened,
            (SELECT coalesce(json_agg(id::text), '[]'::json) FROM quotes) AS expired`,
    date,
    slot,
    now.toISOString(),
    exceptJobId ?? null,
    isoWeekday(date),
  );
  const json = (v: string[] | string) => (typeof v === 'string' ? (JSON.parse(v) as string[]) : v);
  return {
    blocked: row!.blocked,
    calendarBlock: row!.calendar_block,
    holders: json(row!.holders),
    activeTechnicians: Number(row!.active_technicians),
    rostered: Number(row!.rostered),
    onLeave: Number(row!.on_leave),
    holidayOpened: Number(row!.holiday_opened) > 0,
    expired: json(row!.expired),
  };
}
