/**
 * Claiming a slot inside a transaction: the slot's advisory lock, then its state. Expired holds found on the way are
 * released and their quotes announced (BookingExpired) in the same transaction.
 */
import type { Outbox } from '@tyres/events';
import { bookingExpiredEvent, eventMeta } from '../events/builders';
import type { Sql } from '../db/client';
import { expireDueHolds, lockSlot, slotState } from '../db/slots';
import { closedHoliday, hasRoom, slotCapacity } from '../domain/capacity';

export type ReserveOutcome = 'reserved' | 'blocked' | 'taken';

/**
 * Under the slot's lock (taken by the caller): releases its expired holds with BookingExpired, and reports whether
 * the slot is closed (a public holiday not opened, a calendar or slot block, no technician) or full: the jobs other
 * than `exceptJobId` holding it already reach its capacity (issue 19).
 */
export async function checkSlot(
  tx: Sql,
  outbox: Outbox,
  date: string,
  slot: string,
  now: Date,
  exceptJobId?: string,
): Promise<ReserveOutcome> {
  const state = await slotState(tx, date, slot, now, exceptJobId);
  if (state.expired.length > 0)
    await outbox.enqueue(
      tx,
      state.expired.map((quoteId) =>
        bookingExpiredEvent({ quoteId, scheduledDate: date, timeSlot: slot, expiredAt: now }, eventMeta()),
      ),
    );
  if (closedHoliday(date, state.holidayOpened) || state.calendarBlock || state.blocked) return 'blocked';
  const capacity = slotCapacity(state);
  if (capacity === 0) return 'blocked';
  if (!hasRoom(state.holders.length, capacity)) return 'taken';
  return 'reserved';
}

/**
 * Checks and claims a slot inside `tx`: the slot's advisory lock, then checkSlot. The caller then inserts or moves
 * its reservation row; a unique violation on the one-live-reservation index at that point (should these checks ever
 * be bypassed) still means 'taken'.
 */
export async function claimSlot(
  tx: Sql,
  outbox: Outbox,
  date: string,
  slot: string,
  now: Date,
  exceptJobId?: string,
): Promise<ReserveOutcome> {
  await lockSlot(tx, date, slot);
  return checkSlot(tx, outbox, date, slot, now, exceptJobId);
}

/** The sweeper's batch: due holds released, their quotes expired, BookingExpired for each, in `tx`. */
export async function expireHolds(tx: Sql, outbox: Outbox, now: Date, limit = 100): Promise<number> {
  const expired = await expireDueHolds(tx, now, limit);
  if (expired.length > 0)
    await outbox.enqueue(
      tx,
      expired.map((h) =>
        bookingExpiredEvent(
          { quoteId: h.quoteId, scheduledDate: h.date, timeSlot: h.timeSlot, expiredAt: now },
          eventMeta(),
        ),
      ),
    );
  return expired.length;
}
