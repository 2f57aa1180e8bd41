import {
  BookingCreated,
  createInbox,
  JobAssigned,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  type EventBus,
  type EventOf,
} from '@tyres/events';
import type { BillingContext } from '../context';
import { DB_SCHEMA, TX_OPTIONS, type Tx } from '../db/client';
import {
  applyAssigned,
  applyCompleted,
  applyDeleted,
  applyRescheduled,
  applyStatusChanged,
  upsertFromBookingCreated,
} from '../db/jobs';

/**
 * Everything billing reacts to, in one place. Each handler runs in one transaction with its inbox row
 * (`billing.<handler>`), so a redelivered event has no second effect. Invalid messages are dead-lettered by the bus.
 */
export function subscribeBilling(bus: EventBus, ctx: BillingContext): void {
  const inbox = createInbox<Tx>(ctx.db, { schema: DB_SCHEMA, transactionOptions: TX_OPTIONS });

  // The job projection (invoice generation, job number and customer on lists, technician scoping).
  bus.subscribe(
    BookingCreated,
    inbox.handler('billing.jobs.bookingCreated', (tx, event) => upsertFromBookingCreated(tx, event.data)),
  );
  bus.subscribe(
    JobAssigned,
    inbox.handler('billing.jobs.assigned', (tx, event) => applyAssigned(tx, event.data)),
  );
  bus.subscribe(
    JobCompleted,
    inbox.handler('billing.jobs.completed', (tx, event) => applyCompleted(tx, event.data)),
  );
  bus.subscribe(
    JobRescheduled,
    inbox.handler('billing.jobs.rescheduled', (tx, event) => applyRescheduled(tx, event.data)),
  );
  bus.subscribe(
    JobDeleted,
    inbox.handler('billing.jobs.deleted', (tx, event) => applyDeleted(tx, event.data)),
  );
  const onStatusChanged = inbox.handler<EventOf<typeof JobStatusChanged>>(
    'billing.jobs.statusChanged',
    async (tx, event, hctx) => {
      const applied = await applyStatusChanged(tx, event.data);
      // "Mark as Paid" on the job settles its open invoice (jobs in turn ignores the CustomerInvoiceUpdated it
      // causes: the job is already paid).
      if (applied?.to === 'paid') {
        const settled = await ctx.invoices.markPaidForJob(
          tx,
          event.data.jobId,
          new Date(event.data.changedAt),
          event,
        );
        if (settled) hctx.logger.info({ jobId: event.data.jobId }, 'job paid: its invoice is marked paid');
      }
    },
  );
  bus.subscribe(JobStatusChanged, async (event, hctx) => {
    const outcome = await onStatusChanged(event, hctx);
    ctx.wakeRelay();
    return outcome;
  });
}
