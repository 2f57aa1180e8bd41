/** Queries on the roster, technician leave, calendar blocks and opened holidays (issue 19; app/calendar.ts). */
import { randomUUID } from 'node:crypto';
import type { Sql } from './client';

export interface RosterRow {
  userId: string;
  username: string;
  isActive: boolean;
  weekdays: number[];
}

export interface LeaveRow {
  id: string;
  userId: string;
  startDate: string;
  endDate: string;
  reason: string;
}

export interface CalendarBlockRow {
  id: string;
  kind: 'day' | 'range' | 'recurring';
  startDate: string;
  endDate: string | null;
  weekday: number | null;
  timeSlot: string | null;
  reason: string;
  createdAt: string;
}

/** A technician's fact from the gateway (user.created / user.status-changed); an older fact never wins. */
export async function applyTechnicianFact(
  db: Sql,
  fact: { userId: string; username: string; isActive: boolean; at: Date },
): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO booking.roster_technicians (user_id, username, is_active, fact_at)
     VALUES ($1::uuid, $2, $3, $4::timestamptz)
     ON CONFLICT (user_id) DO UPDATE SET username = EXCLUDED.username, is_active = EXCLUDED.is_active,
            fact_at = EXCLUDED.fact_at, updated_at = now()
      WHERE booking.roster_technicians.fact_at <= EXCLUDED.fact_at`,
    fact.userId,
    fact.username,
    fact.isActive,
    fact.at.toISOString(),
  );
}

export async function rosterRows(db: Sql): Promise<RosterRow[]> {
  const rows = await db.$queryRawUnsafe<
    { user_id: string; username: string; is_active: boolean; weekdays: number[] }[]
  >(
    `SELECT user_id::text, username, is_active, weekdays FROM booking.roster_technicians
      ORDER BY is_active DESC, lower(username)`,
  );
  return rows.map((r) => ({
    userId: r.user_id,
    username: r.username,
    isActive: r.is_active,
    weekdays: r.weekdays,
  }));
}

export async function setWeekdays(db: Sql, userId: string, weekdays: number[], by: string): Promise<boolean> {
  const n = await db.$executeRawUnsafe(
    `UPDATE booking.roster_technicians SET weekdays = $2::int[], changed_by = $3::uuid, updated_at = now()
      WHERE user_id = $1::uuid`,
    userId,
    weekdays,
    by,
  );
  return n > 0;
}

const LEAVE_COLS = `id::text, user_id::text, to_char(start_date, 'YYYY-MM-DD') AS start_date,
       to_char(end_date, 'YYYY-MM-DD') AS end_date, reason`;
type LeaveDb = { id: string; user_id: string; start_date: string; end_date: string; reason: string };
const leave = (r: LeaveDb): LeaveRow => ({
  id: r.id,
  userId: r.user_id,
  startDate: r.start_date,
  endDate: r.end_date,
  reason: r.reason,
});

/** Leave not deleted that ends on or after `from`. */
export async function leaveFrom(db: Sql, from: string): Promise<LeaveRow[]> {
  const rows = await db.$queryRawUnsafe<LeaveDb[]>(
    `SELECT ${LEAVE_COLS} FROM booking.technician_leave
      WHERE deleted_at IS NULL AND end_date >= $1::date ORDER BY start_date, id`,
    from,
  );
  return rows.map(leave);
}

export async function insertLeave(db: Sql, l: Omit<LeaveRow, 'id'>, by: string): Promise<LeaveRow> {
  const [row] = await db.$queryRawUnsafe<LeaveDb[]>(
    `INSERT INTO booking.technician_leave (id, user_id, start_date, end_date, reason, created_by)
     VALUES ($1::uuid, $2::uuid, $3::date, $4::date, $5, $6::uuid) RETURNING ${LEAVE_COLS}`,
    randomUUID(),
    l.userId,
    l.startDate,
    l.endDate,
    l.reason,
    by,
  );
  return leave(row!);
}

export async function deleteLeave(db: Sql, userId: string, id: string): Promise<boolean> {
  const n = await db.$executeRawUnsafe(
    `UPDATE booking.technician_leave SET deleted_at = now()
      WHERE id = $1::uuid AND user_id = $2::uuid AND deleted_at IS NULL`,
    id,
    userId,
  );
  return n > 0;
}

const BLOCK_COLS = `id::text, kind, to_char(start_date, 'YYYY-MM-DD') AS start_date,
       to_char(end_date, 'YYYY-MM-DD') AS end_date, weekday, time_slot, reason,
       to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
type BlockDb = {
  id: string;
  kind: CalendarBlockRow['kind'];
  start_date: string;
  end_date: string | null;
  weekday: number | null;
  time_slot: string | null;
  reason: string;
  created_at: string;
};
const block = (r: BlockDb): CalendarBlockRow => ({
  id: r.id,
  kind: r.kind,
  startDate: r.start_date,
  endDate: r.end_date,
  weekday: r.weekday,
  timeSlot: r.time_slot,
  reason: r.reason,
  createdAt: r.created_at,
});

/** Blocks not deleted that are still in force on or after `from`. */
export async function blocksFrom(db: Sql, from: string): Promise<CalendarBlockRow[]> {
  const rows = await db.$queryRawUnsafe<BlockDb[]>(
    `SELECT ${BLOCK_COLS} FROM booking.calendar_blocks
      WHERE deleted_at IS NULL AND (end_date IS NULL OR end_date >= $1::date) ORDER BY start_date, created_at`,
    from,
  );
  return rows.map(block);
}

export async function insertBlock(
  db: Sql,
  b: Omit<CalendarBlockRow, 'id' | 'createdAt'>,
  by: string,
): Promise<CalendarBlockRow> {
  const [row] = await db.$queryRawUnsafe<BlockDb[]>(
    `INSERT INTO booking.calendar_blocks (id, kind, start_date, end_date, weekday, time_slot, reason, created_by)
     VALUES ($1::uuid, $2, $3::date, $4::date, $5::int, $6, $7, $8::uuid) RETURNING ${BLOCK_COLS}`,
    randomUUID(),
    b.kind,
    b.startDate,
    b.endDate,
    b.weekday,
    b.timeSlot,
    b.reason,
    by,
  );
  return block(row!);
}

export async function deleteBlock(db: Sql, id: string, by: string): Promise<boolean> {
  const n = await db.$executeRawUnsafe(
    `UPDATE booking.calendar_blocks SET deleted_at = now(), deleted_by = $2::uuid
      WHERE id = $1::uuid AND deleted_at IS NULL`,
    id,
    by,
  );
  return n > 0;
}

/** Opened holidays between two dates. */
export async function openedHolidays(db: Sql, from: string, to: string): Promise<Map<string, string | null>> {
  const rows = await db.$queryRawUnsafe<{ date: string; reason: string | null }[]>(
    `SELECT to_char(date, 'YYYY-MM-DD') AS date, reason FROM booking.holiday_openings
      WHERE date BETWEEN $1::date AND $2::date`,
    from,
    to,
  );
  return new Map(rows.map((r) => [r.date, r.reason]));
}

export async function openHoliday(db: Sql, date: string, reason: string | null, by: string): Promise<void> {
  await db.$executeRawUnsafe(
    `INSERT INTO booking.holiday_openings (date, reason, opened_by) VALUES ($1::date, $2, $3::uuid)
     ON CONFLICT (date) DO UPDATE SET reason = EXCLUDED.reason, opened_by = EXCLUDED.opened_by, opened_at = now()`,
    date,
    reason,
    by,
  );
}

export async function closeHoliday(db: Sql, date: string): Promise<void> {
  await db.$executeRawUnsafe(`DELETE FROM booking.holiday_openings WHERE date = $1::date`, date);
}

/**
 * Technicians free for (date, slot): active, working that weekday, not on leave, and not assigned to another job
 * holding that slot; fewest jobs that day first (the suggestion), then by name.
 */
export async function freeTechnicians(
  db: Sql,
  date: string,
  slot: string,
  weekday: number,
  exceptJobId: string | null,
): Promise<{ userId: string; username: string; jobsThatDay: number }[]> {
  const rows = await db.$queryRawUnsafe<{ user_id: string; username: string; jobs: number }[]>(
    `SELECT rt.user_id::text, rt.username,
            (SELECT count(*)::int FROM booking.slot_reservations r JOIN booking.job_technicians jt ON jt.job_id = r.job_id
              WHERE r.date = $1::date AND r.released_at IS NULL AND jt.technician_id = rt.user_id
                AND ($4::uuid IS NULL OR r.job_id <> $4::uuid)) AS jobs
       FROM booking.roster_technicians rt
      WHERE rt.is_active AND $3::int = ANY (rt.weekdays)
        AND NOT EXISTS (SELECT 1 FROM booking.technician_leave l WHERE l.user_id = rt.user_id AND l.deleted_at IS NULL
                          AND l.start_date <= $1::date AND l.end_date >= $1::date)
        AND NOT EXISTS (SELECT 1 FROM booking.slot_reservations r JOIN booking.job_technicians jt ON jt.job_id = r.job_id
                         WHERE r.date = $1::date AND r.time_slot = $2 AND r.released_at IS NULL
                           AND jt.technician_id = rt.user_id AND ($4::uuid IS NULL OR r.job_id <> $4::uuid))
      ORDER BY jobs, lower(rt.username)`,
    date,
    slot,
    weekday,
    exceptJobId,
  );
  return rows.map((r) => ({ userId: r.user_id, username: r.username, jobsThatDay: Number(r.jobs) }));
}

/** A user who is not (or no longer) a technician: off the roster, if listed (an older fact never wins). */
export async function deactivateTechnician(db: Sql, userId: string, at: Date): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE booking.roster_technicians SET is_active = false, fact_at = $2::timestamptz, updated_at = now()
      WHERE user_id = $1::uuid AND fact_at <= $2::timestamptz`,
    userId,
    at.toISOString(),
  );
}

/** A live job (booking or unexpired prepaid hold) in the time a new block covers: kept, and reported to the admin. */
export interface KeptBookingRow {
  jobId: string;
  jobNumber: string;
  date: string;
  slot: string;
  kind: 'booking' | 'hold';
}

/**
 * The live reservations (bookings, holds not expired at `now`) a block's scope covers: dates from `startDate` to
 * `endDate` (open-ended when null), on ISO `weekday` only when given, in `timeSlot` only when given (else the whole
 * day). Ordered by date, then slot (`slotOrder`: the slot labels in the day's order), then job number.
 */
export async function liveReservationsIn(
  db: Sql,
  scope: { startDate: string; endDate: string | null; weekday: number | null; timeSlot: string | null },
  now: Date,
  slotOrder: readonly string[],
): Promise<KeptBookingRow[]> {
  const rows = await db.$queryRawUnsafe<
    { job_id: string; job_number: string; date: string; time_slot: string; kind: 'booking' | 'hold' }[]
  >(
    `SELECT r.job_id::text AS job_id, b.job_number, to_char(r.date, 'YYYY-MM-DD') AS date, r.time_slot,
            r.kind::text AS kind
       FROM booking.slot_reservations r JOIN booking.bookings b ON b.id = r.booking_id
      WHERE r.released_at IS NULL AND (r.kind = 'booking' OR r.expires_at > $5::timestamptz)
        AND r.date >= $1::date AND ($2::date IS NULL OR r.date <= $2::date)
        AND ($3::int IS NULL OR extract(isodow FROM r.date)::int = $3::int)
        AND ($4::text IS NULL OR r.time_slot = $4::text)
      ORDER BY r.date, array_position($6::text[], r.time_slot), b.job_number`,
    scope.startDate,
    scope.endDate,
    scope.weekday,
    scope.timeSlot,
    now.toISOString(),
    [...slotOrder],
  );
  return rows.map((r) => ({
    jobId: r.job_id,
    jobNumber: r.job_number,
    date: r.date,
    slot: r.time_slot,
    kind: r.kind,
  }));
}

/** Whether the one-off pull of the gateway's technicians has been applied (booking.roster_sync, app/roster-sync.ts). */
export async function rosterSynced(db: Sql): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<{ one: number }[]>(
    `SELECT 1 AS one FROM booking.roster_sync WHERE id = 1`,
  );
  return rows.length > 0;
}

/**
 * Records the pull, in the transaction that applied it; false when another replica recorded it first (its snapshot
 * was applied too: the upserts are idempotent and keep the newest fact, so both are harmless).
 */
export async function markRosterSynced(db: Sql, technicians: number, at: Date): Promise<boolean> {
  const n = await db.$executeRawUnsafe(
    `INSERT INTO booking.roster_sync (id, synced_at, technicians) VALUES (1, $1::timestamptz, $2)
     ON CONFLICT (id) DO NOTHING`,
    at.toISOString(),
    technicians,
  );
  return n > 0;
}
