import type { EventOf } from '@tyres/events';
import type {
  BookingCreatedV1,
  CustomerInvoiceDeletedV1,
  CustomerInvoiceIssuedV1,
  CustomerInvoiceIssuedV2,
  CustomerInvoiceUpdatedV1,
  CustomerInvoiceUpdatedV2,
  ExpenseDeletedV1,
  ExpenseRecordedV1,
  ExpenseUpdatedV1,
  JobCompletedV1,
  JobDeletedV1,
  JobRescheduledV1,
  JobStatusChangedV1,
  JobUpdatedV1,
  PaymentSucceededV1,
  PurchaseInvoiceDeletedV1,
  PurchaseInvoiceRecordedV1,
  PurchaseInvoiceUpdatedV1,
} from '@tyres/events';

/**
 * Every event reporting consumes (and stores). Customer invoices in both versions: billing emits v2 (amount type,
 * GST-free lines, surcharge), and v1 events stay in the store (rebuild) and in queues.
 */
export type ConsumedEvent =
  | EventOf<typeof CustomerInvoiceIssuedV1>
  | EventOf<typeof CustomerInvoiceUpdatedV1>
  | EventOf<typeof CustomerInvoiceIssuedV2>
  | EventOf<typeof CustomerInvoiceUpdatedV2>
  | EventOf<typeof CustomerInvoiceDeletedV1>
  | EventOf<typeof PurchaseInvoiceRecordedV1>
  | EventOf<typeof PurchaseInvoiceUpdatedV1>
  | EventOf<typeof PurchaseInvoiceDeletedV1>
  | EventOf<typeof ExpenseRecordedV1>
  | EventOf<typeof ExpenseUpdatedV1>
  | EventOf<typeof ExpenseDeletedV1>
  | EventOf<typeof BookingCreatedV1>
  | EventOf<typeof JobStatusChangedV1>
  | EventOf<typeof JobCompletedV1>
  | EventOf<typeof JobRescheduledV1>
  | EventOf<typeof JobDeletedV1>
  | EventOf<typeof JobUpdatedV1>
  | EventOf<typeof PaymentSucceededV1>;

export type ConsumedType = ConsumedEvent['type'];

/** What a stored event belongs to; each aggregate's projection is recomputed from its own events. */
export type AggregateType = 'customer-invoice' | 'purchase-invoice' | 'expense' | 'job' | 'payment';

export interface AggregateRef {
  type: AggregateType;
  id: string;
}

/** An event as the store hands it back: `seq` is its arrival order (stable across rebuilds). */
export interface StoredEvent<E extends ConsumedEvent = ConsumedEvent> {
  seq: bigint;
  event: E;
}

export function aggregateOf(event: ConsumedEvent): AggregateRef {
  switch (event.type) {
    case 'customer-invoice.issued.v1':
    case 'customer-invoice.updated.v1':
    case 'customer-invoice.issued.v2':
    case 'customer-invoice.updated.v2':
    case 'customer-invoice.deleted.v1':
      return { type: 'customer-invoice', id: event.data.invoiceId };
    case 'purchase-invoice.recorded.v1':
    case 'purchase-invoice.updated.v1':
    case 'purchase-invoice.deleted.v1':
      return { type: 'purchase-invoice', id: event.data.purchaseInvoiceId };
    case 'expense.recorded.v1':
    case 'expense.updated.v1':
    case 'expense.deleted.v1':
      return { type: 'expense', id: event.data.expenseId };
    case 'booking.created.v1':
    case 'job.status-changed.v1':
    case 'job.completed.v1':
    case 'job.rescheduled.v1':
    case 'job.deleted.v1':
    case 'job.updated.v1':
      return { type: 'job', id: event.data.jobId };
    case 'payment.succeeded.v1':
      return { type: 'payment', id: event.data.paymentId };
  }
}
