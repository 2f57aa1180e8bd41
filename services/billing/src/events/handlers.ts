import {
  createInbox,
  type BookingCancelled,
  type BookingCreated,
  type EventEnvelope,
  type EventHandler,
  type EventOf,
  type JobAssigned,
  type JobCompleted,
  type JobDeleted,
  type JobRescheduled,
  type JobStatusChanged,
  type JobUpdated,
} from '@tyres/events';
import type { JobProjection } from '../app/jobs';
import type { Refunds } from '../app/refunds';
import { DB_SCHEMA, TX_OPTIONS, type Db, type Tx } from '../db/client';

/** The handler, then a nudge to the outbox relay once its transaction committed. */
function waking<E extends EventEnvelope>(handler: EventHandler<E>, wake: () => void): EventHandler<E> {
  return async (event, ctx) => {
    const outcome = await handler(event, ctx);
    wake();
    return outcome;
  };
}

export interface BillingHandlers {
  bookingCreated: EventHandler<EventOf<typeof BookingCreated>>;
  jobAssigned: EventHandler<EventOf<typeof JobAssigned>>;
  jobCompleted: EventHandler<EventOf<typeof JobCompleted>>;
  jobRescheduled: EventHandler<EventOf<typeof JobRescheduled>>;
  jobDeleted: EventHandler<EventOf<typeof JobDeleted>>;
  jobStatusChanged: EventHandler<EventOf<typeof JobStatusChanged>>;
  jobUpdated: EventHandler<EventOf<typeof JobUpdated>>;
  bookingCancelled: EventHandler<EventOf<typeof BookingCancelled>>;
}

/**
 * Thin: each handler runs its use case in one transaction with its inbox row (`billing.jobs.<name>`, stable: it is
 * the idempotency key), so a redelivered event has no second effect. Handlers whose use case may write events wake
 * the outbox relay once committed.
 */
export function billingHandlers(deps: {
  db: Db;
  jobs: JobProjection;
  refunds: Refunds;
  wake: () => void;
}): BillingHandlers {
  const { jobs, refunds } = deps;
  const inbox = createInbox<Tx>(deps.db, { schema: DB_SCHEMA, transactionOptions: TX_OPTIONS });
  const cancellation = waking(
    inbox.handler<EventOf<typeof BookingCancelled>>('billing.refunds.bookingCancelled', (tx, event, ctx) =>
      refunds.bookingCancelled(tx, event, ctx.logger),
    ),
    deps.wake,
  );
  return {
    // The refund is recorded in the inbox transaction and requested from the provider only after it committed (also
    // on a redelivery, in case the first queueing was lost): a provider call never runs inside a transaction.
    bookingCancelled: async (event, ctx) => {
      const outcome = await cancellation(event, ctx);
      await refunds.requestForCancellation(event.id);
      return outcome;
    },
    bookingCreated: waking(
      inbox.handler<EventOf<typeof BookingCreated>>('billing.jobs.bookingCreated', (tx, event, ctx) =>
        jobs.bookingCreated(tx, event, ctx.logger),
      ),
      deps.wake,
    ),
    jobAssigned: inbox.handler('billing.jobs.assigned', (tx, event) => jobs.assigned(tx, event)),
    jobCompleted: inbox.handler('billing.jobs.completed', (tx, event) => jobs.completed(tx, event)),
    jobRescheduled: inbox.handler('billing.jobs.rescheduled', (tx, event) => jobs.rescheduled(tx, event)),
    jobDeleted: inbox.handler('billing.jobs.deleted', (tx, event) => jobs.deleted(tx, event)),
    // A job edit may bring its draft invoice up to date (CustomerInvoiceUpdated in the outbox): wake the relay.
    jobUpdated: waking(
      inbox.handler<EventOf<typeof JobUpdated>>('billing.jobs.updated', (tx, event, ctx) =>
        jobs.updated(tx, event, ctx.logger),
      ),
      deps.wake,
    ),
    jobStatusChanged: waking(
      inbox.handler<EventOf<typeof JobStatusChanged>>('billing.jobs.statusChanged', (tx, event, ctx) =>
        jobs.statusChanged(tx, event, ctx.logger),
      ),
      deps.wake,
    ),
  };
}
