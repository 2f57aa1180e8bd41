/**
 * Projections as pure functions of an aggregate's stored events. Whatever order events arrive in (retries reorder
 * them, the broker redelivers them), the same set of events gives the same facts, which is what makes a rebuild
 * reproduce the live projections byte for byte.
 *
 * - Invoices, purchases and expenses: events carry snapshots. The newest snapshot wins, ordered by the record's
 *   `updatedAt`, ties broken by arrival order (`seq`). A delete is final: later or late snapshots never bring a
 *   deleted record back (ids are never reused).
 * - Jobs: events carry transitions. They are replayed in the order they happened (the event's own timestamp, then
 *   a fixed rank per type, then arrival order).
 */
import type { CustomerInvoiceStatus, JobStatus } from '@tyres/events';
import {
  exGstByCategory,
  formatMoney,
  gstInInclusive,
  toCents,
  type AmountType,
  perthDate,
  type Cents,
} from '@tyres/kernel';
import type { AggregateType, ConsumedEvent, StoredEvent } from './aggregates';
import type { IsoDate } from './period';

type Stored<T extends ConsumedEvent['type']> = StoredEvent<Extract<ConsumedEvent, { type: T }>>;

const instant = (iso: string): number => Date.parse(iso);

/** The newest snapshot: greatest (updatedAt, seq). */
function newest<E extends StoredEvent>(snapshots: E[], updatedAt: (e: E) => string): E | undefined {
  let best: E | undefined;
  let bestAt = -Infinity;
  for (const s of snapshots) {
    const at = instant(updatedAt(s));
    if (!best || at > bestAt || (at === bestAt && s.seq > best.seq)) {
      best = s;
      bestAt = at;
    }
  }
  return best;
}

function isType<T extends ConsumedEvent['type']>(...types: T[]) {
  return (s: StoredEvent): s is Stored<T> => (types as string[]).includes(s.event.type);
}

// --- customer invoices ------------------------------------------------------------------------------------------

/** Statuses of an issued invoice: GST collected and revenue count them. Drafts are not issued yet; cancelled ones void. */
export const ISSUED_STATUSES: readonly CustomerInvoiceStatus[] = ['sent', 'paid', 'overdue'];
export const isIssued = (status: CustomerInvoiceStatus): boolean => ISSUED_STATUSES.includes(status);

/** Revenue of invoice items whose total differs from the sum of the items (e.g. totals typed in by hand). */
export const UNCATEGORISED = 'uncategorised';

export interface RevenueLine {
  category: string;
  amount: Cents;
}

export interface CustomerInvoiceFact {
  invoiceId: string;
  invoiceNumber: string;
  jobId: string;
  jobNumber: string;
  customerName: string;
  status: CustomerInvoiceStatus;
  issued: boolean;
  invoiceDate: IsoDate;
  dueDate: IsoDate | null;
  subtotal: Cents;
  gstAmount: Cents;
  totalAmount: Cents;
  updatedAt: string;
  sourceEventId: string;
  /** The GST report's row for this invoice (JSON). */
  gstRow: string;
  /** Ex-GST revenue per line-item category, adding up to `subtotal`; categories with 0 left out. */
  revenueLines: RevenueLine[];
}

/** An invoice line as far as revenue is concerned (v1 lines have no `gstFree`: they all carry GST). */
export interface RevenueItem {
  category: string;
  totalPrice: string;
  gstFree?: boolean;
}

/**
 * Ex-GST revenue per line-item category (kernel `exGstByCategory`: a tax-inclusive invoice's lines lose their GST
 * share, the rounding cent going to the largest taxable category; a tax-exclusive invoice's lines are ex GST as
 * they stand). What the lines do not explain of the invoice's own ex-GST subtotal (totals typed in by hand) is
 * "uncategorised", so the categories always add up to the subtotal the invoice states.
 */
export function revenueLines(subtotal: Cents, items: RevenueItem[], amountType: AmountType): RevenueLine[] {
  const byCategory = exGstByCategory(
    items.map((item) => ({
      category: item.category,
      amount: toCents(item.totalPrice),
      gstFree: item.gstFree ?? false,
    })),
    amountType,
  );
  let explained = 0n;
  for (const amount of byCategory.values()) explained += amount;
  const rest = subtotal - explained;
  if (rest !== 0n) byCategory.set(UNCATEGORISED, (byCategory.get(UNCATEGORISED) ?? 0n) + rest);
  return [...byCategory.entries()]
    .filter(([, amount]) => amount !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([category, amount]) => ({ category, amount }));
}

/**
 * v1 and v2 snapshots of one invoice are one history (billing moved to v2 mid-life of some invoices): the newest
 * wins whatever its version. A v1 snapshot is a tax-exclusive invoice without GST-free lines. Either way the
 * snapshot's own figures are reported: subtotalAmount is the ex-GST amount, gstAmount the GST, totalAmount what
 * the customer pays.
 */
export function reduceCustomerInvoice(events: StoredEvent[]): CustomerInvoiceFact | null {
  if (events.some(isType('customer-invoice.deleted.v1'))) return null;
  const latest = newest(
    events.filter(
      isType(
        'customer-invoice.issued.v1',
        'customer-invoice.updated.v1',
        'customer-invoice.issued.v2',
        'customer-invoice.updated.v2',
      ),
    ),
    (s) => s.event.data.updatedAt,
  );
  if (!latest) return null;
  const e = latest.event;
  const d = e.data;
  const amountType: AmountType =
    e.type === 'customer-invoice.issued.v2' || e.type === 'customer-invoice.updated.v2'
      ? e.data.amountType
      : 'exclusive';
  const subtotal = toCents(d.subtotalAmount);
  const gstAmount = toCents(d.gstAmount);
  const totalAmount = toCents(d.totalAmount);
  return {
    invoiceId: d.invoiceId,
    invoiceNumber: d.invoiceNumber,
    jobId: d.jobId,
    jobNumber: d.jobNumber,
    customerName: d.customerName,
    status: d.status,
    issued: isIssued(d.status),
    invoiceDate: d.invoiceDate,
    dueDate: d.dueDate,
    subtotal,
    gstAmount,
    totalAmount,
    updatedAt: new Date(d.updatedAt).toISOString(),
    sourceEventId: latest.event.id,
    gstRow: JSON.stringify({
      invoiceNumber: d.invoiceNumber,
      customerName: d.customerName,
      subtotal: formatMoney(subtotal),
      gstAmount: formatMoney(gstAmount),
      totalAmount: formatMoney(totalAmount),
      issueDate: d.invoiceDate,
      status: d.status,
    }),
    revenueLines: revenueLines(subtotal, d.items, amountType),
  };
}

// --- purchase invoices and expenses ------------------------------------------------------------------------------

/** Which kind of record a GST-paid or payables row is. */
export type PayableSource = 'purchase-invoice' | 'business-expense';

export interface PurchaseInvoiceFact {
  purchaseInvoiceId: string;
  jobId: string | null;
  invoiceNumber: string;
  supplierName: string;
  category: string;
  invoiceDate: IsoDate;
  dueDate: IsoDate | null;
  subtotal: Cents;
  gstAmount: Cents;
  totalAmount: Cents;
  isPaid: boolean;
  paidAt: string | null;
  updatedAt: string;
  sourceEventId: string;
  gstRow: string;
}

/** A row of the GST report's `purchaseInvoices` list (purchase invoices and business expenses). */
function gstPaidRow(r: {
  invoiceNumber: string | null;
  supplierName: string;
  subtotal: Cents;
  gstAmount: Cents;
  totalAmount: Cents;
  invoiceDate: IsoDate;
  isPaid: boolean;
  source: PayableSource;
}): string {
  return JSON.stringify({
    invoiceNumber: r.invoiceNumber,
    supplierName: r.supplierName,
    subtotal: formatMoney(r.subtotal),
    gstAmount: formatMoney(r.gstAmount),
    totalAmount: formatMoney(r.totalAmount),
    invoiceDate: r.invoiceDate,
    isPaid: r.isPaid,
    source: r.source,
  });
}

export function reducePurchaseInvoice(events: StoredEvent[]): PurchaseInvoiceFact | null {
  if (events.some(isType('purchase-invoice.deleted.v1'))) return null;
  const latest = newest(
    events.filter(isType('purchase-invoice.recorded.v1', 'purchase-invoice.updated.v1')),
    (s) => s.event.data.updatedAt,
  );
  if (!latest) return null;
  const d = latest.event.data;
  const fact = {
    purchaseInvoiceId: d.purchaseInvoiceId,
    jobId: d.jobId,
    invoiceNumber: d.invoiceNumber,
    supplierName: d.supplierName,
    category: d.category,
    invoiceDate: d.invoiceDate,
    dueDate: d.dueDate,
    subtotal: toCents(d.subtotal),
    gstAmount: toCents(d.gstAmount),
    totalAmount: toCents(d.totalAmount),
    isPaid: d.isPaid,
    paidAt: d.paidAt ? new Date(d.paidAt).toISOString() : null,
    updatedAt: new Date(d.updatedAt).toISOString(),
    sourceEventId: latest.event.id,
  };
  return { ...fact, gstRow: gstPaidRow({ ...fact, source: 'purchase-invoice' }) };
}

export interface ExpenseFact {
  expenseId: string;
  expenseDate: IsoDate;
  supplierName: string;
  invoiceNumber: string | null;
  description: string;
  category: string;
  /** Including GST. */
  amount: Cents;
  gstAmount: Cents;
  /** amount − gstAmount. */
  subtotal: Cents;
  dueDate: IsoDate | null;
  isPaid: boolean;
  paidAt: string | null;
  updatedAt: string;
  sourceEventId: string;
  gstRow: string;
}

export function reduceExpense(events: StoredEvent[]): ExpenseFact | null {
  if (events.some(isType('expense.deleted.v1'))) return null;
  const latest = newest(
    events.filter(isType('expense.recorded.v1', 'expense.updated.v1')),
    (s) => s.event.data.updatedAt,
  );
  if (!latest) return null;
  const d = latest.event.data;
  const amount = toCents(d.amount);
  const gstAmount = toCents(d.gstAmount);
  const fact = {
    expenseId: d.expenseId,
    expenseDate: d.expenseDate,
    supplierName: d.supplierName,
    invoiceNumber: d.invoiceNumber,
    description: d.description,
    category: d.category,
    amount,
    gstAmount,
    subtotal: amount - gstAmount,
    dueDate: d.dueDate,
    isPaid: d.isPaid,
    paidAt: d.paidAt ? new Date(d.paidAt).toISOString() : null,
    updatedAt: new Date(d.updatedAt).toISOString(),
    sourceEventId: latest.event.id,
  };
  return {
    ...fact,
    gstRow: gstPaidRow({
      invoiceNumber: fact.invoiceNumber,
      supplierName: fact.supplierName,
      subtotal: fact.subtotal,
      gstAmount,
      totalAmount: amount,
      invoiceDate: fact.expenseDate,
      isPaid: fact.isPaid,
      source: 'business-expense',
    }),
  };
}

// --- jobs --------------------------------------------------------------------------------------------------------

/** Job statuses whose work is done: the job's value is revenue (from the day it was completed). */
export const REVENUE_STATUSES: readonly JobStatus[] = ['completed', 'invoiced', 'paid'];

export interface JobRevenueFact {
  jobId: string;
  jobNumber: string;
  serviceType: string;
  status: JobStatus;
  /** The job's price as quoted and booked: GST-inclusive, like every price a customer sees. */
  customerValue: Cents;
  /** Its ex-GST part, the P&L's revenue: customerValue − customerValue ÷ 11 (kernel, half-up). */
  valueExGst: Cents;
  completedAt: string | null;
  recognised: boolean;
  revenueDate: IsoDate | null;
  lastEventAt: string;
}

type JobEvent = Stored<
  | 'booking.created.v1'
  | 'job.status-changed.v1'
  | 'job.completed.v1'
  | 'job.rescheduled.v1'
  | 'job.deleted.v1'
  | 'job.updated.v1'
>;

function jobEventTime(s: JobEvent): string {
  const e = s.event;
  switch (e.type) {
    case 'booking.created.v1':
      return e.data.createdAt;
    case 'job.status-changed.v1':
      return e.data.changedAt;
    case 'job.completed.v1':
      return e.data.completedAt;
    case 'job.rescheduled.v1':
      return e.data.rescheduledAt;
    case 'job.deleted.v1':
      return e.data.deletedAt;
    case 'job.updated.v1':
      return e.data.updatedAt;
  }
}

/** Same instant: the booking first, then the status change, then JobCompleted (which accompanies it). */
const JOB_EVENT_RANK: Record<JobEvent['event']['type'], number> = {
  'booking.created.v1': 0,
  'job.status-changed.v1': 1,
  'job.completed.v1': 2,
  'job.rescheduled.v1': 3,
  'job.deleted.v1': 4,
  'job.updated.v1': 5,
};

export function reduceJob(events: StoredEvent[]): JobRevenueFact | null {
  const jobEvents = events.filter(
    isType(
      'booking.created.v1',
      'job.status-changed.v1',
      'job.completed.v1',
      'job.rescheduled.v1',
      'job.deleted.v1',
      'job.updated.v1',
    ),
  );
  if (jobEvents.length === 0 || jobEvents.some(isType('job.deleted.v1'))) return null;
  const ordered = jobEvents
    .map((s) => ({ s, at: instant(jobEventTime(s)) }))
    .sort(
      (a, b) =>
        a.at - b.at ||
        JOB_EVENT_RANK[a.s.event.type] - JOB_EVENT_RANK[b.s.event.type] ||
        (a.s.seq < b.s.seq ? -1 : a.s.seq > b.s.seq ? 1 : 0),
    );

  let jobId: string | undefined;
  let jobNumber: string | undefined;
  let serviceType: string | undefined;
  let customerValue: string | undefined;
  let status: JobStatus | undefined;
  let completedAt: string | undefined;
  let lastAt = -Infinity;

  for (const { s, at } of ordered) {
    const e = s.event;
    lastAt = Math.max(lastAt, at);
    jobId = e.data.jobId;
    switch (e.type) {
      case 'booking.created.v1':
        // The starting point: never overrides what the jobs service said (its clock may run ahead of booking's).
        jobNumber ??= e.data.jobNumber;
        serviceType ??= e.data.serviceType;
        customerValue ??= e.data.customerValue;
        status ??= 'new';
        break;
      case 'job.status-changed.v1':
        jobNumber = e.data.jobNumber;
        serviceType = e.data.serviceType;
        customerValue = e.data.customerValue;
        status = e.data.to;
        if (e.data.to === 'completed' || (REVENUE_STATUSES.includes(e.data.to) && !completedAt))
          completedAt = e.data.changedAt;
        break;
      case 'job.completed.v1':
        jobNumber = e.data.jobNumber;
        serviceType = e.data.serviceType;
        customerValue = e.data.customerValue;
        if (!status || !REVENUE_STATUSES.includes(status)) status = 'completed';
        completedAt = e.data.completedAt;
        break;
      case 'job.rescheduled.v1':
        jobNumber ??= e.data.jobNumber;
        break;
      case 'job.deleted.v1':
        break;
      case 'job.updated.v1':
        // Issue 19: an admin changed the price (or other details); a later status change carries the same value.
        jobNumber = e.data.jobNumber;
        customerValue = e.data.customerValue;
        break;
    }
  }
  // Nothing says what the job is worth yet (e.g. only a reschedule seen so far): no fact until something does.
  if (!jobId || !jobNumber || !serviceType || customerValue === undefined) return null;
  const finalStatus = status ?? 'new';
  const recognised = REVENUE_STATUSES.includes(finalStatus) && completedAt !== undefined;
  const value = toCents(customerValue);
  return {
    jobId,
    jobNumber,
    serviceType,
    status: finalStatus,
    customerValue: value,
    valueExGst: value - gstInInclusive(value),
    completedAt: completedAt ? new Date(completedAt).toISOString() : null,
    recognised,
    revenueDate: recognised && completedAt ? perthDate(new Date(completedAt)) : null,
    lastEventAt: new Date(lastAt).toISOString(),
  };
}

// --- days touched ----------------------------------------------------------------------------------------------------

/**
 * The dates whose day summaries an aggregate's events can affect: every date any of its snapshots carried (the old
 * date of a moved invoice included), sorted (the order the day locks are taken in, so handlers never deadlock).
 * Jobs have no day summaries.
 */
export function affectedDays(events: StoredEvent[]): IsoDate[] {
  const days = new Set<IsoDate>();
  for (const { event: e } of events) {
    switch (e.type) {
      case 'customer-invoice.issued.v1':
      case 'customer-invoice.updated.v1':
      case 'customer-invoice.issued.v2':
      case 'customer-invoice.updated.v2':
      case 'purchase-invoice.recorded.v1':
      case 'purchase-invoice.updated.v1':
        days.add(e.data.invoiceDate);
        break;
      case 'expense.recorded.v1':
      case 'expense.updated.v1':
        days.add(e.data.expenseDate);
        break;
      default:
        break;
    }
  }
  return [...days].sort();
}

// --- one aggregate's facts -----------------------------------------------------------------------------------------

/** The aggregate types that have a projection (payments are stored for later use, not projected). */
export const PROJECTED: readonly Exclude<AggregateType, 'payment'>[] = [
  'customer-invoice',
  'purchase-invoice',
  'expense',
  'job',
];

/** The fact an aggregate's events amount to, tagged with its type. */
export type AggregateFacts =
  | { type: 'customer-invoice'; fact: CustomerInvoiceFact }
  | { type: 'purchase-invoice'; fact: PurchaseInvoiceFact }
  | { type: 'expense'; fact: ExpenseFact }
  | { type: 'job'; fact: JobRevenueFact };

/** The aggregate's fact from its stored events; null when it has none (deleted, incomplete, or a payment). */
export function projectAggregate(type: AggregateType, events: StoredEvent[]): AggregateFacts | null {
  switch (type) {
    case 'customer-invoice': {
      const fact = reduceCustomerInvoice(events);
      return fact && { type, fact };
    }
    case 'purchase-invoice': {
      const fact = reducePurchaseInvoice(events);
      return fact && { type, fact };
    }
    case 'expense': {
      const fact = reduceExpense(events);
      return fact && { type, fact };
    }
    case 'job': {
      const fact = reduceJob(events);
      return fact && { type, fact };
    }
    case 'payment':
      return null;
  }
}
