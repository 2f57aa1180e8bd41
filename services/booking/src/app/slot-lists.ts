/**
 * The public slot lists (booking dialog, staff form, reschedule dialog): each date's blocks and reservations from
 * the per-replica cache, judged on the Perth clock and the booking horizon per request (never cached).
 */
import type { SlotCache } from '../db/slot-cache';
import { slotStates, type SlotState } from '../domain/slots';
import type { BookingWindow } from './booking-window';

export class SlotLists {
  constructor(private readonly deps: { slotCache: SlotCache; clock: () => Date; window: BookingWindow }) {}

  /**
   * The four slots of a date. Past the horizon every slot shows unavailable with the reason, rather than a 400:
   * the booking dialog's calendar has no last date, and a 400 there would read as "could not check availability".
   */
  async forDate(date: string): Promise<SlotState[]> {
    const { blocks, reservations, day } = await this.deps.slotCache.get(date);
    return slotStates(date, this.deps.clock(), blocks, reservations, this.deps.window.horizon(), day);
  }
}
