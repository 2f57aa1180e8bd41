import {
  BookingCreated,
  createInbox,
  pgExecutor,
  type SqlExecutor,
  CustomerInvoiceDeleted,
  CustomerInvoiceIssued,
  CustomerInvoiceUpdated,
  ExpenseDeleted,
  ExpenseRecorded,
  ExpenseUpdated,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  PaymentSucceeded,
  PurchaseInvoiceDeleted,
  PurchaseInvoiceRecorded,
  PurchaseInvoiceUpdated,
  type EventBus,
  type EventHandler,
} from '@tyres/events';
import { DB_SCHEMA, poolOf, type Db } from '../db/client';
import { recordEvent } from '../db/event-store';
import type { ConsumedEvent } from '../domain/aggregates';

/** Inbox key of the one effect every consumed event has: stored + its aggregate re-projected. Never rename. */
export const STORE_HANDLER = 'reporting.store';

/**
 * Everything reporting consumes, in one place. Each event is stored in `reporting.events` and folded into the
 * projections in one transaction with its inbox row (the day summaries follow through the day refresher); a
 * redelivery is acknowledged and skipped. Messages that fail
 * their contract are dead-lettered by the bus before reaching this code.
 */
export function subscribeReporting(bus: EventBus, db: Db, afterCommit: () => void = () => undefined): void {
  // Handler transactions run on the pg driver (the pool under the Prisma client): every statement here is raw SQL,
  // and going through Prisma's raw-query path cost more CPU than the statements themselves (catch-up was bound by
  // this process, with Postgres sessions idle in ClientRead).
  const inbox = createInbox<SqlExecutor>(pgExecutor(poolOf(db)), { schema: DB_SCHEMA });
  const record = inbox.handler<ConsumedEvent>(STORE_HANDLER, async (tx, event) => {
    await recordEvent(tx, event);
  });
  // After the commit: the day refresher picks up the days the event marked dirty at once.
  const store: EventHandler<ConsumedEvent> = async (event, ctx) => {
    const outcome = await record(event, ctx);
    afterCommit();
    return outcome;
  };

  // billing: GST collected, revenue by category
  bus.subscribe(CustomerInvoiceIssued, store);
  bus.subscribe(CustomerInvoiceUpdated, store);
  bus.subscribe(CustomerInvoiceDeleted, store);
  // billing: GST paid, payables, job costs
  bus.subscribe(PurchaseInvoiceRecorded, store);
  bus.subscribe(PurchaseInvoiceUpdated, store);
  bus.subscribe(PurchaseInvoiceDeleted, store);
  // billing: GST paid, payables, business expenses
  bus.subscribe(ExpenseRecorded, store);
  bus.subscribe(ExpenseUpdated, store);
  bus.subscribe(ExpenseDeleted, store);
  // booking + jobs: job revenue facts (jobs completed without an issued invoice)
  bus.subscribe(BookingCreated, store);
  bus.subscribe(JobStatusChanged, store);
  bus.subscribe(JobCompleted, store);
  bus.subscribe(JobRescheduled, store);
  bus.subscribe(JobDeleted, store);
  // billing: stored for future reports (cash received); no projection yet
  bus.subscribe(PaymentSucceeded, store);
}
