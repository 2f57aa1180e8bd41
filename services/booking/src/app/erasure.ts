/**
 * Issue 18 (privacy, APP 11.2): an admin erases a customer on request. One transaction: every personal field of the
 * customer, their vehicles and bookings is replaced, their manage links revoked, their photos deleted, tombstones
 * recorded, and CustomerErased (ids only) goes through the outbox so every other service de-identifies its copy.
 * Erasing again answers 200 with the first erasure's result (idempotent; nothing is written or emitted twice).
 */
import type { Outbox } from '@tyres/events';
import { notFound, type Identity } from '@tyres/service-kit';
import { TX_OPTIONS } from '../db/bookings';
import type { Db } from '../db/client';
import { customerBookings, eraseCustomerRows, lockCustomerOfJob } from '../db/erasure';
import { ERASURE_MSG } from '../domain/erasure';
import { customerErasedEvent, eventMeta } from '../events/erasure-builders';

export interface ErasureResult {
  customerId: string;
  erasedAt: string;
  erasedByUserId: string;
  jobIds: string[];
  bookingIds: string[];
  /** true when the customer had already been erased (nothing was done this time). */
  alreadyErased: boolean;
}

export class CustomerErasure {
  constructor(private readonly deps: { db: Db; outbox: Outbox; wake: () => void; clock: () => Date }) {}

  async eraseByJob(jobId: string, reason: string, by: Identity): Promise<ErasureResult> {
    const result = await this.deps.db.$transaction(async (tx) => {
      const target = await lockCustomerOfJob(tx, jobId);
      if (!target) throw notFound(ERASURE_MSG.noBooking);
      const bookings = await customerBookings(tx, target.customerId);
      const ids = { jobIds: bookings.map((b) => b.jobId), bookingIds: bookings.map((b) => b.bookingId) };
      if (target.erasedAt)
        return {
          customerId: target.customerId,
          erasedAt: target.erasedAt.toISOString(),
          erasedByUserId: target.erasedByUserId ?? by.id,
          ...ids,
          alreadyErased: true,
        };
      const at = this.deps.clock();
      await eraseCustomerRows(tx, { customerId: target.customerId, ...ids, by: by.id, reason, at });
      const data = {
        customerId: target.customerId,
        erasedAt: at.toISOString(),
        erasedByUserId: by.id,
        ...ids,
      };
      await this.deps.outbox.enqueue(tx, customerErasedEvent(data, eventMeta()));
      return { ...data, alreadyErased: false };
    }, TX_OPTIONS);
    if (!result.alreadyErased) this.deps.wake();
    return result;
  }
}
