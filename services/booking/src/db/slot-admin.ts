/** Queries on slot blocks (app/slot-admin.ts blocks and unblocks). */
import { randomUUID } from 'node:crypto';
import { dateToDb } from '@tyres/kernel';
import type { TimeSlot } from '@tyres/kernel';
import type { Tx } from './client';

export interface SlotBlockRow {
  id: string;
  isAvailable: boolean;
  blockedReason: string | null;
}

/** The stored state of a (date, slot), if it was ever blocked. */
export async function slotBlock(tx: Tx, date: string, slot: TimeSlot): Promise<SlotBlockRow | undefined> {
  return (
    (await tx.timeSlot.findUnique({
      where: { date_slot: { date: dateToDb(date), slot } },
      select: { id: true, isAvailable: true, blockedReason: true },
    })) ?? undefined
  );
}

export async function blockSlot(tx: Tx, date: string, slot: TimeSlot, reason: string, by: string) {
  await tx.timeSlot.upsert({
    where: { date_slot: { date: dateToDb(date), slot } },
    create: {
      id: randomUUID(),
      date: dateToDb(date),
      slot,
      isAvailable: false,
      blockedReason: reason,
      changedBy: by,
    },
    update: { isAvailable: false, blockedReason: reason, changedBy: by },
  });
}

export async function unblockSlot(tx: Tx, id: string, by: string) {
  await tx.timeSlot.update({
    where: { id },
    data: { isAvailable: true, blockedReason: null, changedBy: by },
  });
}
