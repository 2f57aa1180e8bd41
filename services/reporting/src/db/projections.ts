/**
 * Writes the facts of one aggregate (live handler) or of many (rebuild). Both paths go through the same row
 * mappers, so a rebuilt row is exactly the row the live path wrote.
 *
 * Rows are plain objects keyed by column name and written with `jsonb_populate_record(set)`: one statement (one
 * round trip) per aggregate on the live path, one statement per few thousand rows on the rebuild path. Values are
 * JSON strings Postgres casts to the column types (money "12.34" → numeric, "2026-07-01" → date, ISO → timestamptz).
 */
import type { AggregateRef, AggregateType, ConsumedEvent, StoredEvent } from '../domain/aggregates';
import {
  affectedDays,
  reduceCustomerInvoice,
  reduceExpense,
  reduceJob,
  reducePurchaseInvoice,
  type CustomerInvoiceFact,
  type ExpenseFact,
  type JobRevenueFact,
  type PurchaseInvoiceFact,
} from '../domain/facts';
import { formatMoney } from '../domain/money';
import type { SqlExecutor } from '@tyres/events';
import { markDaysSql, SUMMARY_TABLES, type DayKind } from './day-summaries';

/** The aggregate types that have a projection (payments are stored for later use, not projected). */
export const PROJECTED: readonly AggregateType[] = ['customer-invoice', 'purchase-invoice', 'expense', 'job'];

type Row = Record<string, string | boolean | null>;

interface FactTable {
  name: string;
  key: string[];
  columns: string[];
}

const CUSTOMER_INVOICES: FactTable = {
  name: 'customer_invoice_facts',
  key: ['invoice_id'],
  columns: [
    'invoice_id',
    'invoice_number',
    'job_id',
    'job_number',
    'customer_name',
    'status',
    'issued',
    'invoice_date',
    'due_date',
    'subtotal',
    'gst_amount',
    'total_amount',
    'updated_at',
    'source_event_id',
    'gst_row',
  ],
};
const REVENUE_LINES: FactTable = {
  name: 'customer_invoice_revenue_facts',
  key: ['invoice_id', 'category'],
  columns: ['invoice_id', 'category', 'amount', 'issued', 'invoice_date'],
};
const PURCHASES: FactTable = {
  name: 'purchase_invoice_facts',
  key: ['purchase_invoice_id'],
  columns: [
    'purchase_invoice_id',
    'job_id',
    'invoice_number',
    'supplier_name',
    'category',
    'invoice_date',
    'due_date',
    'subtotal',
    'gst_amount',
    'total_amount',
    'is_paid',
    'paid_at',
    'updated_at',
    'source_event_id',
    'gst_row',
  ],
};
const EXPENSES: FactTable = {
  name: 'expense_facts',
  key: ['expense_id'],
  columns: [
    'expense_id',
    'expense_date',
    'supplier_name',
    'invoice_number',
    'description',
    'category',
    'amount',
    'gst_amount',
    'subtotal',
    'due_date',
    'is_paid',
    'paid_at',
    'updated_at',
    'source_event_id',
    'gst_row',
  ],
};
const JOBS: FactTable = {
  name: 'job_revenue_facts',
  key: ['job_id'],
  columns: [
    'job_id',
    'job_number',
    'service_type',
    'status',
    'customer_value',
    'completed_at',
    'recognised',
    'revenue_date',
    'last_event_at',
  ],
};

/** Every projection table: day summaries, then facts with children first (the order a full delete needs). */
export const FACT_TABLES: readonly string[] = [
  ...SUMMARY_TABLES,
  ...[REVENUE_LINES, CUSTOMER_INVOICES, PURCHASES, EXPENSES, JOBS].map((t) => t.name),
];

const q = (ident: string) => `"${ident}"`;
const qualified = (t: FactTable) => `"reporting".${q(t.name)}`;
const columnList = (t: FactTable) => t.columns.map(q).join(', ');

/** INSERT the row(s) of a JSON array parameter. */
const insertSetSql = (t: FactTable, param: string) =>
  `INSERT INTO ${qualified(t)} (${columnList(t)}) SELECT ${columnList(t)} FROM jsonb_populate_recordset(NULL::${qualified(t)}, ${param}::jsonb)`;

/** INSERT or replace the row of a JSON object parameter (`record`) or the rows of a JSON array parameter (`recordset`). */
const upsertSql = (t: FactTable, param: string, source: 'record' | 'recordset' = 'record') =>
  `INSERT INTO ${qualified(t)} (${columnList(t)}) SELECT ${columnList(t)} FROM jsonb_populate_${source}(NULL::${qualified(t)}, ${param}::jsonb)
   ON CONFLICT (${t.key.map(q).join(', ')}) DO UPDATE SET ${t.columns
     .filter((c) => !t.key.includes(c))
     .map((c) => `${q(c)} = EXCLUDED.${q(c)}`)
     .join(', ')}`;

// --- row mappers ---------------------------------------------------------------------------------------------------

const money = (cents: bigint): string => formatMoney(cents);

export function customerInvoiceRow(f: CustomerInvoiceFact): Row {
  return {
    invoice_id: f.invoiceId,
    invoice_number: f.invoiceNumber,
    job_id: f.jobId,
    job_number: f.jobNumber,
    customer_name: f.customerName,
    status: f.status,
    issued: f.issued,
    invoice_date: f.invoiceDate,
    due_date: f.dueDate,
    subtotal: money(f.subtotal),
    gst_amount: money(f.gstAmount),
    total_amount: money(f.totalAmount),
    updated_at: f.updatedAt,
    source_event_id: f.sourceEventId,
    gst_row: f.gstRow,
  };
}

export function revenueRows(f: CustomerInvoiceFact): Row[] {
  return f.revenueLines.map((l) => ({
    invoice_id: f.invoiceId,
    category: l.category,
    amount: money(l.amount),
    issued: f.issued,
    invoice_date: f.invoiceDate,
  }));
}

export function purchaseRow(f: PurchaseInvoiceFact): Row {
  return {
    purchase_invoice_id: f.purchaseInvoiceId,
    job_id: f.jobId,
    invoice_number: f.invoiceNumber,
    supplier_name: f.supplierName,
    category: f.category,
    invoice_date: f.invoiceDate,
    due_date: f.dueDate,
    subtotal: money(f.subtotal),
    gst_amount: money(f.gstAmount),
    total_amount: money(f.totalAmount),
    is_paid: f.isPaid,
    paid_at: f.paidAt,
    updated_at: f.updatedAt,
    source_event_id: f.sourceEventId,
    gst_row: f.gstRow,
  };
}

export function expenseRow(f: ExpenseFact): Row {
  return {
    expense_id: f.expenseId,
    expense_date: f.expenseDate,
    supplier_name: f.supplierName,
    invoice_number: f.invoiceNumber,
    description: f.description,
    category: f.category,
    amount: money(f.amount),
    gst_amount: money(f.gstAmount),
    subtotal: money(f.subtotal),
    due_date: f.dueDate,
    is_paid: f.isPaid,
    paid_at: f.paidAt,
    updated_at: f.updatedAt,
    source_event_id: f.sourceEventId,
    gst_row: f.gstRow,
  };
}

export function jobRow(f: JobRevenueFact): Row {
  return {
    job_id: f.jobId,
    job_number: f.jobNumber,
    service_type: f.serviceType,
    status: f.status,
    customer_value: money(f.customerValue),
    completed_at: f.completedAt,
    recognised: f.recognised,
    revenue_date: f.revenueDate,
    last_event_at: f.lastEventAt,
  };
}

// --- live path: one aggregate -------------------------------------------------------------------------------------

/**
 * Fact writes. Each also marks the aggregate's days ($2, a JSON array of dates) dirty, in the same statement, for
 * the day refresher.
 */
const markingDays = (kind: DayKind, write: string) => `WITH ${write}, ${markDaysSql(kind, '$2')} SELECT 1`;

const DELETE_SQL: Record<Exclude<AggregateType, 'payment'>, string> = {
  // Revenue lines go with their invoice (ON DELETE CASCADE).
  'customer-invoice': markingDays(
    'customer',
    `gone AS (DELETE FROM ${qualified(CUSTOMER_INVOICES)} WHERE "invoice_id" = $1::uuid RETURNING 1)`,
  ),
  'purchase-invoice': markingDays(
    'cost',
    `gone AS (DELETE FROM ${qualified(PURCHASES)} WHERE "purchase_invoice_id" = $1::uuid RETURNING 1)`,
  ),
  expense: markingDays(
    'cost',
    `gone AS (DELETE FROM ${qualified(EXPENSES)} WHERE "expense_id" = $1::uuid RETURNING 1)`,
  ),
  job: `DELETE FROM ${qualified(JOBS)} WHERE "job_id" = $1::uuid`,
};

/**
 * The invoice upserted and its revenue lines replaced, in one statement ($1 the invoice row, $3 its lines). The
 * sub-statements share one snapshot and touch disjoint rows (lines of categories that are gone are deleted, the
 * others upserted); the lines' foreign key is checked at the end of the statement, after the invoice is in.
 */
const CUSTOMER_INVOICE_SQL = markingDays(
  'customer',
  `invoice AS (${upsertSql(CUSTOMER_INVOICES, '$1')} RETURNING 1),
  gone AS (DELETE FROM ${qualified(REVENUE_LINES)}
            WHERE "invoice_id" = ($1::jsonb ->> 'invoice_id')::uuid
              AND "category" NOT IN (SELECT l ->> 'category' FROM jsonb_array_elements($3::jsonb) AS l) RETURNING 1),
  lines AS (${upsertSql(REVENUE_LINES, '$3', 'recordset')} RETURNING 1)`,
);
const PURCHASE_SQL = markingDays('cost', `fact AS (${upsertSql(PURCHASES, '$1')} RETURNING 1)`);
const EXPENSE_SQL = markingDays('cost', `fact AS (${upsertSql(EXPENSES, '$1')} RETURNING 1)`);
const JOB_SQL = upsertSql(JOBS, '$1');

/** Replaces one aggregate's facts with what its stored events say now, and marks the days they touch dirty. */
export async function reproject(tx: SqlExecutor, ref: AggregateRef, events: StoredEvent[]): Promise<void> {
  if (ref.type === 'payment') return;
  if (ref.type === 'job') {
    const f = reduceJob(events);
    if (f) await tx.$executeRawUnsafe(JOB_SQL, JSON.stringify(jobRow(f)));
    else await tx.$executeRawUnsafe(DELETE_SQL.job, ref.id);
    return;
  }
  const days = JSON.stringify(affectedDays(events));
  switch (ref.type) {
    case 'customer-invoice': {
      const f = reduceCustomerInvoice(events);
      if (f)
        await tx.$executeRawUnsafe(
          CUSTOMER_INVOICE_SQL,
          JSON.stringify(customerInvoiceRow(f)),
          days,
          JSON.stringify(revenueRows(f)),
        );
      else await tx.$executeRawUnsafe(DELETE_SQL[ref.type], ref.id, days);
      break;
    }
    case 'purchase-invoice': {
      const f = reducePurchaseInvoice(events);
      if (f) await tx.$executeRawUnsafe(PURCHASE_SQL, JSON.stringify(purchaseRow(f)), days);
      else await tx.$executeRawUnsafe(DELETE_SQL[ref.type], ref.id, days);
      break;
    }
    case 'expense': {
      const f = reduceExpense(events);
      if (f) await tx.$executeRawUnsafe(EXPENSE_SQL, JSON.stringify(expenseRow(f)), days);
      else await tx.$executeRawUnsafe(DELETE_SQL[ref.type], ref.id, days);
      break;
    }
  }
}

// --- rebuild path: many aggregates ---------------------------------------------------------------------------------

/** Facts of many aggregates, gathered for bulk inserts. */
export class FactBatch {
  private readonly rows = new Map<FactTable, Row[]>();

  private push(t: FactTable, ...rows: Row[]) {
    const list = this.rows.get(t) ?? [];
    list.push(...rows);
    this.rows.set(t, list);
  }

  /** Folds one aggregate's events into the batch (nothing when the aggregate has no fact: deleted, or incomplete). */
  add(type: AggregateType, events: StoredEvent[]): void {
    switch (type) {
      case 'customer-invoice': {
        const f = reduceCustomerInvoice(events);
        if (f) {
          this.push(CUSTOMER_INVOICES, customerInvoiceRow(f));
          this.push(REVENUE_LINES, ...revenueRows(f));
        }
        return;
      }
      case 'purchase-invoice': {
        const f = reducePurchaseInvoice(events);
        if (f) this.push(PURCHASES, purchaseRow(f));
        return;
      }
      case 'expense': {
        const f = reduceExpense(events);
        if (f) this.push(EXPENSES, expenseRow(f));
        return;
      }
      case 'job': {
        const f = reduceJob(events);
        if (f) this.push(JOBS, jobRow(f));
        return;
      }
      case 'payment':
        return;
    }
  }

  /** Facts gathered (revenue lines not counted). */
  get size(): number {
    let n = 0;
    for (const [t, rows] of this.rows) if (t !== REVENUE_LINES) n += rows.length;
    return n;
  }

  async insert(tx: SqlExecutor, chunk = 5_000): Promise<void> {
    // Parents before children (revenue lines reference their invoice).
    for (const t of [CUSTOMER_INVOICES, REVENUE_LINES, PURCHASES, EXPENSES, JOBS]) {
      const rows = this.rows.get(t) ?? [];
      for (let i = 0; i < rows.length; i += chunk)
        await tx.$executeRawUnsafe(insertSetSql(t, '$1'), JSON.stringify(rows.slice(i, i + chunk)));
    }
    this.rows.clear();
  }
}

/** An envelope read back from `events.envelope` (as text): it was validated by its contract before it was stored. */
export function storedEvent(seq: bigint, envelope: string | unknown): StoredEvent {
  return { seq, event: (typeof envelope === 'string' ? JSON.parse(envelope) : envelope) as ConsumedEvent };
}
