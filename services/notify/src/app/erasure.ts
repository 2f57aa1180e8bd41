/**
 * Issue 18 (privacy): notify applies CustomerErased (booking erased a customer on request): its copies are erased
 * (db/erasure.ts) in the inbox transaction, then the day-before reminders of those bookings are removed from the
 * queue (after the commit; a reminder that runs anyway finds its messages withdrawn by the trigger).
 */
import type { CustomerErasedV1Data } from '@tyres/events';
import type { Logger } from '@tyres/service-kit';
import type { Db } from '../db/client';
import { eraseNotifyJobs, slotsOfJobs } from '../db/erasure';
import type { Prisma } from '../db/generated/client';
import { reminderJobId, type NotifyQueues } from '../workers/queues';

export class CustomerErasure {
  constructor(private readonly deps: { db: Db; queues: Pick<NotifyQueues, 'reminders'>; logger: Logger }) {}

  /** In the handler's transaction: erase the rows. */
  async erase(tx: Prisma.TransactionClient, data: CustomerErasedV1Data): Promise<void> {
    const { deliveries } = await eraseNotifyJobs(tx, {
      customerId: data.customerId,
      jobIds: data.jobIds,
      erasedAt: new Date(data.erasedAt),
    });
    this.deps.logger.info({ jobs: data.jobIds.length, deliveries }, 'customer erased from notify');
  }

  /** After the commit: the bookings' reminder jobs go (removing an absent job is a no-op, so a redelivery is too). */
  async removeReminders(jobIds: string[]): Promise<number> {
    const slots = jobIds.length ? await slotsOfJobs(this.deps.db, jobIds) : [];
    for (const s of slots)
      await this.deps.queues.reminders.remove(
        reminderJobId({ bookingJobId: s.jobId, scheduledDate: s.scheduledDate, timeSlot: s.timeSlot }),
      );
    return slots.length;
  }
}
