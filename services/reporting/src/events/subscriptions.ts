import {
  BookingCreated,
  CustomerErased,
  CustomerInvoiceDeleted,
  CustomerInvoiceIssuedV1,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV1,
  CustomerInvoiceUpdatedV2,
  ExpenseDeleted,
  ExpenseRecorded,
  ExpenseUpdated,
  JobCompleted,
  JobDeleted,
  JobRescheduled,
  JobStatusChanged,
  JobUpdated,
  PaymentSucceeded,
  PurchaseInvoiceDeleted,
  PurchaseInvoiceRecorded,
  PurchaseInvoiceUpdated,
  type EventBus,
} from '@tyres/events';
import type { ReportingHandlers } from './handlers';
import type { ErasureHandlers } from './erasure-handlers';

/**
 * Everything reporting consumes, in one place: every event is stored and folded into the projections
 * (src/events/handlers.ts).
 */
export function subscribeReporting(
  bus: EventBus,
  { storeBatch }: ReportingHandlers,
  erasure?: ErasureHandlers,
  batch: { maxMessages: number; lingerMs: number; concurrency: number } = REPORTING_BATCH,
): void {
  // booking: a customer erased on request (issue 18, privacy); one by one, beside the batches.
  if (erasure) bus.subscribe(CustomerErased, erasure.customerErased);
  // In batches: a backlog (after an outage, a deploy) is folded a few hundred events per transaction, as fast as a
  // rebuild folds; one event alone waits at most the linger before it is applied.
  bus.subscribeBatch(
    [
      // billing: GST collected, revenue by category. Both versions, named explicitly (not the unversioned aliases):
      // billing emits v2, v1 events may still be queued, and both must be stored for a rebuild.
      CustomerInvoiceIssuedV1,
      CustomerInvoiceUpdatedV1,
      CustomerInvoiceIssuedV2,
      CustomerInvoiceUpdatedV2,
      CustomerInvoiceDeleted,
      // billing: GST paid, payables, job costs
      PurchaseInvoiceRecorded,
      PurchaseInvoiceUpdated,
      PurchaseInvoiceDeleted,
      // billing: GST paid, payables, business expenses
      ExpenseRecorded,
      ExpenseUpdated,
      ExpenseDeleted,
      // booking + jobs: job revenue facts (jobs completed without an issued invoice)
      BookingCreated,
      JobStatusChanged,
      JobCompleted,
      JobRescheduled,
      JobDeleted,
      // jobs: an admin's edit (issue 19): the job's value changes
      JobUpdated,
      // billing: stored for future reports (cash received); no projection yet
      PaymentSucceeded,
    ],
    storeBatch,
    batch,
  );
}

/**
 * Up to 500 events per transaction, two transactions at once by default (the next batch is parsed and folded while
 * the previous one waits on Postgres; per-aggregate locks keep two batches off the same invoice or job, and the fold
 * does not depend on arrival order; REPORTING_BATCH_CONCURRENCY changes it); a lone event waits at most 20 ms for
 * company.
 */
export const REPORTING_BATCH = { maxMessages: 500, lingerMs: 20, concurrency: 2 } as const;

/** Before batches: every event on its own through `store` (kept for tools and tests that feed events one by one). */
export function subscribeReportingOneByOne(bus: EventBus, { store }: ReportingHandlers): void {
  // billing: GST collected, revenue by category. Both versions, named explicitly (not the unversioned aliases):
  // billing emits v2, v1 events may still be queued, and both must be stored for a rebuild.
  bus.subscribe(CustomerInvoiceIssuedV1, store);
  bus.subscribe(CustomerInvoiceUpdatedV1, store);
  bus.subscribe(CustomerInvoiceIssuedV2, store);
  bus.subscribe(CustomerInvoiceUpdatedV2, store);
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
  bus.subscribe(JobUpdated, store);
  // billing: stored for future reports (cash received); no projection yet
  bus.subscribe(PaymentSucceeded, store);
}
