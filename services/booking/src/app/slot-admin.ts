/** The dashboard's time slot management: list a date's slots with their state, block and unblock. */
import type { Outbox } from '@tyres/events';
import { TIME_SLOTS, type TimeSlot } from '@tyres/kernel';
import type { Identity } from '@tyres/service-kit';
import { TX_OPTIONS } from '../db/bookings';
import { liveReservationsIn, type KeptBookingRow } from '../db/calendar';
import type { Db } from '../db/client';
import { blockSlot, slotBlock, unblockSlot } from '../db/slot-admin';
import { lockSlot, readSlots } from '../db/slots';
import { slotStates, type SlotUnavailability } from '../domain/slots';
import { eventMeta, slotBlockedEvent, slotUnblockedEvent } from '../events/builders';

export interface AdminSlot {
  /** Stable per date and slot ("2030-06-03_0800"). */
  id: string;
  date: string;
  slot: TimeSlot;
  isAvailable: boolean;
  blockedReason: string | null;
  isBlocked: boolean;
  /** Never 'not-open': admins block slots past the booking horizon too (holidays planned ahead). */
  state: NonNullable<SlotUnavailability> | 'available' | 'held';
  /** The first job holding the slot (kept for the single-job view). */
  booking: { jobId: string; jobNumber: string; kind: 'hold' | 'booking' } | null;
  /** Every job holding the slot (issue 19: a slot holds up to `capacity` jobs). */
  bookings: { jobId: string; jobNumber: string; kind: 'hold' | 'booking' }[];
  /** Jobs the slot holds that day: technicians rostered minus leave (0 with nobody rostered), 1 with no technician at all. */
  capacity: number;
}

/** A slot block's answer: the slot now, and the live jobs the block keeps (the admin contacts those customers). */
export interface BlockedSlot extends AdminSlot {
  keptBookings: KeptBookingRow[];
}

export const slotId = (date: string, slot: TimeSlot) =>
  `${date}_${(TIME_SLOTS.find((s) => s.slot === slot)?.start ?? '').replace(':', '')}`;

export class SlotAdmin {
  constructor(
    private readonly deps: {
      db: Db;
      outbox: Outbox;
      wake: () => void;
      clock: () => Date;
      onSlotsChanged: (date: string) => void;
    },
  ) {}

  async list(date: string): Promise<AdminSlot[]> {
    const now = this.deps.clock();
    const { blocks, reservations, day } = await readSlots(this.deps.db, date);
    return slotStates(date, now, blocks, reservations, undefined, day).map((s) => ({
      id: slotId(date, s.slot),
      date,
      slot: s.slot,
      isAvailable: s.isAvailable,
      blockedReason: s.blockedReason,
      isBlocked: s.isBlocked,
      state:
        s.state === 'booked' && s.reservations.every((r) => r.kind === 'hold')
          ? 'held'
          : (s.state ?? 'available'),
      booking: s.reservation
        ? { jobId: s.reservation.jobId, jobNumber: s.reservation.jobNumber, kind: s.reservation.kind }
        : null,
      bookings: s.reservations.map((r) => ({ jobId: r.jobId, jobNumber: r.jobNumber, kind: r.kind })),
      capacity: s.capacity,
    }));
  }

  private async one(date: string, slot: TimeSlot): Promise<AdminSlot> {
    return (await this.list(date)).find((s) => s.slot === slot)!;
  }

  /**
   * Blocks a slot with a reason, whatever its capacity and however many jobs it holds: the block stops new bookings
   * and moves into the slot; the jobs (bookings and unexpired prepaid holds) already there are kept, as for calendar
   * blocks, and listed in `keptBookings` (read under the slot's lock, so no booking can slip in unreported).
   */
  async block(date: string, slot: TimeSlot, reason: string, by: Identity): Promise<BlockedSlot> {
    const keptBookings = await this.deps.db.$transaction(async (tx) => {
      const now = this.deps.clock();
      await lockSlot(tx, date, slot);
      const kept = await liveReservationsIn(
        tx,
        { startDate: date, endDate: date, weekday: null, timeSlot: slot },
        now,
        TIME_SLOTS.map((s) => s.slot),
      );
      const before = await slotBlock(tx, date, slot);
      if (before && !before.isAvailable && before.blockedReason === reason) return kept;
      await blockSlot(tx, date, slot, reason, by.id);
      await this.deps.outbox.enqueue(
        tx,
        slotBlockedEvent({ date, timeSlot: slot, reason, by: by.id, at: now }, eventMeta()),
      );
      return kept;
    }, TX_OPTIONS);
    this.deps.onSlotsChanged(date);
    this.deps.wake();
    return { ...(await this.one(date, slot)), keptBookings };
  }

  /** Unblocks a slot (idempotent: SlotUnblocked only when it was blocked). */
  async unblock(date: string, slot: TimeSlot, by: Identity): Promise<AdminSlot> {
    await this.deps.db.$transaction(async (tx) => {
      const now = this.deps.clock();
      await lockSlot(tx, date, slot);
      const before = await slotBlock(tx, date, slot);
      if (!before || before.isAvailable) return;
      await unblockSlot(tx, before.id, by.id);
      await this.deps.outbox.enqueue(
        tx,
        slotUnblockedEvent({ date, timeSlot: slot, by: by.id, at: now }, eventMeta()),
      );
    }, TX_OPTIONS);
    this.deps.onSlotsChanged(date);
    this.deps.wake();
    return this.one(date, slot);
  }
}
