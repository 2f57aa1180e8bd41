/**
 * Writes the facts of one aggregate (live handler) or of many (rebuild). Both paths go through the same row
 * mappers, so a rebuilt row is exactly the row the live path wrote.
 *
 * Rows are plain objects keyed by column name and written with `jsonb_populate_record(set)`: one statement (one
 * round trip) per aggregate on the live path, one statement per few thousand rows on the rebuild path. Values are
 * JSON strings Postgres casts to the column types (money "12.34" → numeric, "2026-07-01" → date, ISO → timestamptz).
 */
import type { AggregateType } from '../domain/aggregates';
import type {
  AggregateFacts,
  CustomerInvoiceFact,
  ExpenseFact,
  JobRevenueFact,
  PurchaseInvoiceFact,
} from '../domain/facts';
import type { IsoDate } from '../domain/period';
import { formatMoney } from '@tyres/kernel';
import type { SqlExecutor } from '@tyres/events';
import type { Db } from './client';
import { markDaysSql, SUMMARY_TABLES, type DayKind } from './day-summaries';

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
    'value_ex_gst',
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
    value_ex_gst: money(f.valueExGst),
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

/**
 * Writes one aggregate's fact (insert or replace) and marks `days` (the days its events touched, sorted) dirty;
 * jobs have no day summaries.
 */
export async function writeFacts(tx: SqlExecutor, facts: AggregateFacts, days: IsoDate[]): Promise<void> {
  switch (facts.type) {
    case 'customer-invoice':
      await tx.$executeRawUnsafe(
        CUSTOMER_INVOICE_SQL,
        JSON.stringify(customerInvoiceRow(facts.fact)),
        JSON.stringify(days),
        JSON.stringify(revenueRows(facts.fact)),
      );
      return;
    case 'purchase-invoice':
      await tx.$executeRawUnsafe(PURCHASE_SQL, JSON.stringify(purchaseRow(facts.fact)), JSON.stringify(days));
      return;
    case 'expense':
      await tx.$executeRawUnsafe(EXPENSE_SQL, JSON.stringify(expenseRow(facts.fact)), JSON.stringify(days));
      return;
    case 'job':
      await tx.$executeRawUnsafe(JOB_SQL, JSON.stringify(jobRow(facts.fact)));
      return;
  }
}

/** Deletes one aggregate's fact (it has none any more) and marks `days` dirty; jobs have no day summaries. */
export async function deleteFacts(
  tx: SqlExecutor,
  type: Exclude<AggregateType, 'payment'>,
  id: string,
  days: IsoDate[],
): Promise<void> {
  if (type === 'job') await tx.$executeRawUnsafe(DELETE_SQL.job, id);
  else await tx.$executeRawUnsafe(DELETE_SQL[type], id, JSON.stringify(days));
}

/** Deletes the facts of many aggregates of one type (they have none any more); days are marked separately. */
export async function deleteFactsOf(
  tx: SqlExecutor,
  type: Exclude<AggregateType, 'payment'>,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  const table = {
    'customer-invoice': CUSTOMER_INVOICES,
    'purchase-invoice': PURCHASES,
    expense: EXPENSES,
    job: JOBS,
  }[type];
  // Revenue lines go with their invoice (ON DELETE CASCADE).
  await tx.$executeRawUnsafe(
    `DELETE FROM ${qualified(table)} WHERE ${q(table.key[0] as string)} = ANY($1::uuid[])`,
    ids,
  );
}

/** Marks days dirty for the day refresher (one statement: see markDaysSql). */
export async function markDays(tx: SqlExecutor, kind: DayKind, days: readonly IsoDate[]): Promise<void> {
  if (days.length === 0) return;
  await tx.$executeRawUnsafe(`WITH ${markDaysSql(kind, '$1')} SELECT 1`, JSON.stringify(days));
}

// --- rebuild path (and live batches): many aggregates ---------------------------------------------------------------------------------

/** Facts of many aggregates, gathered for bulk inserts. */
export class FactBatch {
  private readonly rows = new Map<FactTable, Row[]>();

  private push(t: FactTable, ...rows: Row[]) {
    const list = this.rows.get(t) ?? [];
    list.push(...rows);
    this.rows.set(t, list);
  }

  /** Adds one aggregate's fact to the batch. */
  add(facts: AggregateFacts): void {
    switch (facts.type) {
      case 'customer-invoice':
        this.push(CUSTOMER_INVOICES, customerInvoiceRow(facts.fact));
        this.push(REVENUE_LINES, ...revenueRows(facts.fact));
        return;
      case 'purchase-invoice':
        this.push(PURCHASES, purchaseRow(facts.fact));
        return;
      case 'expense':
        this.push(EXPENSES, expenseRow(facts.fact));
        return;
      case 'job':
        this.push(JOBS, jobRow(facts.fact));
        return;
    }
  }

  /** Facts gathered (revenue lines not counted). */
  get size(): number {
    let n = 0;
    for (const [t, rows] of this.rows) if (t !== REVENUE_LINES) n += rows.length;
    return n;
  }

  /**
   * Live batches: inserts or replaces the gathered facts, one statement per table, the invoices' revenue lines
   * replaced as a whole (those of categories that are gone deleted). Each aggregate at most once per batch.
   */
  async upsert(tx: SqlExecutor): Promise<void> {
    const invoices = this.rows.get(CUSTOMER_INVOICES) ?? [];
    if (invoices.length > 0) {
      await tx.$executeRawUnsafe(upsertSql(CUSTOMER_INVOICES, '$1', 'recordset'), JSON.stringify(invoices));
      await tx.$executeRawUnsafe(
        `DELETE FROM ${qualified(REVENUE_LINES)} WHERE "invoice_id" = ANY($1::uuid[])`,
        invoices.map((r) => r.invoice_id),
      );
    }
    for (const t of [REVENUE_LINES, PURCHASES, EXPENSES, JOBS]) {
      const rows = this.rows.get(t) ?? [];
      if (rows.length > 0) await tx.$executeRawUnsafe(upsertSql(t, '$1', 'recordset'), JSON.stringify(rows));
    }
    this.rows.clear();
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

/**
 * Deletes every projection row (rebuild, inside its transaction). DELETE, not TRUNCATE: TRUNCATE's exclusive lock
 * would block every report read until the rebuild commits, while a DELETE lets readers keep reading the old rows
 * (MVCC) in the meantime.
 */
export async function clearProjections(tx: SqlExecutor): Promise<void> {
  for (const table of FACT_TABLES) await tx.$executeRawUnsafe(`DELETE FROM "reporting"."${table}"`);
}

/**
 * Refreshes the planner's statistics and the visibility map (index-only scans) of every projection table, after a
 * rebuild rewrote every row, rather than whenever autovacuum gets to it. Outside any transaction (VACUUM cannot run
 * in one).
 */
export async function vacuumProjections(db: Db): Promise<void> {
  await db.$executeRawUnsafe(`VACUUM (ANALYZE) ${FACT_TABLES.map((t) => `"reporting"."${t}"`).join(', ')}`);
}
