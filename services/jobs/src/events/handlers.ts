import type {
  BatchEventHandler,
  BookingCreated,
  EventEnvelope,
  EventHandler,
  EventOf,
  Inbox,
  SqlExecutor,
  TransactionRunner,
} from '@tyres/events';
import type { BookingChangeFacts } from '../app/booking-changes';
import type { BookingFacts } from '../app/bookings';
import type { InvoiceFacts } from '../app/invoices';
import type { TechnicianUseCases } from '../app/technicians';
import type { Tx } from '../db/client';

export interface HandlerDeps {
  /** The jobs schema's inbox: each handler's effect commits with its (eventId, handler) row. */
  inbox: Inbox<Tx>;
  /** Runs the batch handler's transaction (the inbox's own database). */
  db: TransactionRunner<Tx>;
  /**
   * The same database on the pg driver (`pgExecutor(poolOf(db))`): a batch of new bookings with nothing waiting for
   * them runs there first, all raw SQL, without Prisma's per-statement cost; anything else runs on `db`.
   */
  raw?: TransactionRunner<SqlExecutor>;
  /** The batch handler's transaction options (as the inbox's). */
  transactionOptions?: { timeout?: number; maxWait?: number };
  /** Nudges the outbox relay once a handler's transaction committed. */
  wake: () => void;
  /** Whether the handler's transaction wrote events (the runtime's outbox): only then is the relay woken. */
  wroteEvents: (tx: Tx) => boolean;
  bookings: BookingFacts;
  bookingChanges: BookingChangeFacts;
  invoices: InvoiceFacts;
  technicians: TechnicianUseCases;
}

/**
 * The event handlers, thin: each opens the inbox transaction (a redelivered event changes nothing), runs one use
 * case in it, and wakes the relay after the commit when the use case enqueued events. The inbox names (`jobs.on…`) are the idempotency keys of the
 * events already handled: never rename them. What each handler consumes: ./subscriptions.ts.
 */
export function jobsHandlers(deps: HandlerDeps) {
  const { bookings, bookingChanges, invoices, technicians } = deps;
  const once = <E extends EventEnvelope>(
    name: string,
    useCase: (tx: Tx, event: E) => Promise<void>,
  ): EventHandler<E> => {
    // The events whose transaction enqueued something (most write nothing: a BookingCreated adopts the job).
    const wrote = new WeakSet<E>();
    const handler = deps.inbox.handler<E>(`jobs.${name}`, async (tx, event) => {
      await useCase(tx, event);
      if (deps.wroteEvents(tx)) wrote.add(event);
    });
    return async (event, ctx) => {
      const outcome = await handler(event, ctx);
      if (wrote.delete(event)) deps.wake();
      return outcome;
    };
  };
  type BookingCreatedEvent = EventOf<typeof BookingCreated>;
  /**
   * BookingCreated in batches (./subscriptions.ts): one transaction per batch with the inbox rows of all its events
   * (the same inbox name as one at a time, so each event is still adopted once), the job ids locked in one statement.
   * A batch that fails is handed back one event at a time by the bus (a job number taken by another job is then
   * dead-lettered on its own).
   */
  /** First copies of fresh ids are applied (undefined); other copies, and ids handled before, are duplicates. */
  const split = (items: readonly { event: BookingCreatedEvent }[], fresh: Set<string>) => {
    const adopt: BookingCreatedEvent[] = [];
    const result = items.map(({ event }): 'duplicate' | undefined => {
      if (!fresh.delete(event.id)) return 'duplicate';
      adopt.push(event);
      return undefined;
    });
    return { adopt, result };
  };
  /** The common case on the pg driver; null (rolled back) when a booking needs more than its insert. */
  const plain = async (items: readonly { event: BookingCreatedEvent }[]) => {
    if (!deps.raw) return null;
    try {
      return await deps.raw.$transaction(async (tx) => {
        const fresh = await deps.inbox.claim(
          tx,
          items.map((i) => i.event.id),
          BOOKING_CREATED_INBOX,
        );
        const { adopt, result } = split(items, fresh);
        if (!(await bookings.bookingsCreatedPlain(tx, adopt))) throw new NotPlain();
        return result;
      });
    } catch (err) {
      if (err instanceof NotPlain) return null;
      throw err;
    }
  };
  const bookingsCreated: BatchEventHandler<BookingCreatedEvent> = async (items) => {
    let wrote = false;
    const outcomes =
      (await plain(items)) ??
      (await deps.db.$transaction(async (tx) => {
        const fresh = await deps.inbox.claim(
          tx,
          items.map((i) => i.event.id),
          BOOKING_CREATED_INBOX,
        );
        const { adopt, result } = split(items, fresh);
        await bookings.bookingsCreated(tx, adopt);
        wrote = deps.wroteEvents(tx);
        return result;
      }, deps.transactionOptions));
    if (wrote) deps.wake();
    items.forEach(({ ctx }, i) => {
      if (outcomes[i] === 'duplicate')
        ctx.logger.info({ handler: BOOKING_CREATED_INBOX }, 'event already handled; skipped (inbox)');
    });
    return outcomes;
  };
  return {
    bookingsCreated,
    bookingPhotoAdded: once('onBookingPhotoAdded', bookings.photoAdded.bind(bookings)),
    bookingRescheduled: once('onBookingRescheduled', bookingChanges.rescheduled.bind(bookingChanges)),
    bookingCancelled: once('onBookingCancelled', bookingChanges.cancelled.bind(bookingChanges)),
    bookingUpdated: once('onBookingUpdated', bookingChanges.updated.bind(bookingChanges)),
    paymentSucceeded: once('onPaymentSucceeded', bookings.paymentSucceeded.bind(bookings)),
    // One inbox name for v1 and v2: an event id is one version.
    customerInvoiceIssued: once('onCustomerInvoiceIssued', invoices.issued.bind(invoices)),
    customerInvoiceUpdated: once('onCustomerInvoiceUpdated', invoices.updated.bind(invoices)),
    customerInvoiceDeleted: once('onCustomerInvoiceDeleted', invoices.deleted.bind(invoices)),
    purchaseInvoiceRecorded: once('onPurchaseInvoiceRecorded', invoices.purchaseChanged.bind(invoices)),
    purchaseInvoiceUpdated: once('onPurchaseInvoiceUpdated', invoices.purchaseChanged.bind(invoices)),
    purchaseInvoiceDeleted: once('onPurchaseInvoiceDeleted', invoices.purchaseDeleted.bind(invoices)),
    userCreated: once('onUserCreated', technicians.userCreated.bind(technicians)),
    userStatusChanged: once('onUserStatusChanged', technicians.userStatusChanged.bind(technicians)),
  };
}

export type JobsHandlers = ReturnType<typeof jobsHandlers>;

/** A batch that needs more than inserting its jobs: rolled back on the driver, run again on Prisma. */
class NotPlain extends Error {}

/** The inbox name of BookingCreated (one at a time or in batches): never rename it. */
const BOOKING_CREATED_INBOX = 'jobs.onBookingCreated';
