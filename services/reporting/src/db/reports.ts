/**
 * Report queries. Each report is one SQL statement (one consistent snapshot, one round trip); the database sums
 * Decimal(10,2) columns exactly and hands the sums over as text, parsed into cents. Ordering is total (ties broken
 * by id, byte-order collation), so the same facts always give the same bytes.
 */
import { Prisma } from './generated/client';
import { poolOf, type Db } from './client';
import type { PayableSource } from '../domain/facts';
import { parseNumeric } from '../domain/money';
import { sqlBounds, type IsoDate, type Period } from '../domain/period';
import {
  UPCOMING_LIMIT,
  type CategoryAmount,
  type PayableGroupSums,
  type PayablesInput,
  type PlInput,
  type UpcomingItem,
} from '../domain/reports';

export type GstBlockKind = 'customer' | 'purchase';

/** A GST day block as the caller holds it (kind, day and the revision of its content). */
export interface GstBlockRef {
  kind: GstBlockKind;
  day: IsoDate;
  revision: string;
}

/** A GST day block of the period: its GST and revision, and its rows (null when the caller holds this revision). */
export type GstBlockRow = [
  kind: GstBlockKind,
  day: IsoDate,
  gst: string,
  revision: string,
  rows: string | null,
];

/** Blocks of the period in (kind, day) order; the content only where the caller does not hold that revision. */
const GST_SQL = `SELECT b."kind", b."day"::text, b."gst_amount"::text, b."revision"::text,
         CASE WHEN k."revision" IS NULL THEN b."rows" END
    FROM "reporting"."gst_day_blocks" b
    LEFT JOIN unnest($3::text[], $4::date[], $5::bigint[]) AS k("kind", "day", "revision")
      ON k."kind" = b."kind" AND k."day" = b."day" AND k."revision" = b."revision"
   WHERE b."day" BETWEEN $1::date AND $2::date
   ORDER BY b."kind", b."day"`;

/**
 * The GST day blocks of the period, at most one row per day and kind, in (kind, day) order (the rows inside each
 * block are already in report order). One statement (one snapshot), read through the driver directly (see poolOf):
 * over a whole history the rows run to tens of megabytes.
 */
export async function gstBlocks(db: Db, period: Period, held: Iterable<GstBlockRef>): Promise<GstBlockRow[]> {
  const { start, end } = sqlBounds(period);
  const kinds: string[] = [];
  const days: string[] = [];
  const revisions: string[] = [];
  for (const b of held) {
    kinds.push(b.kind);
    days.push(b.day);
    revisions.push(b.revision);
  }
  const result = await poolOf(db).query<GstBlockRow>({
    text: GST_SQL,
    values: [start, end, kinds, days, revisions],
    rowMode: 'array',
  });
  return result.rows;
}

interface GroupJson {
  supplierName: string | null;
  category: string | null;
  level: 'supplier' | 'category' | 'all';
  total: string | null;
  paid: string | null;
  count: number | null;
}
interface UpcomingJson {
  id: string;
  source: PayableSource;
  supplierName: string;
  invoiceNumber: string | null;
  totalAmount: string;
  dueDate: IsoDate;
}

/**
 * Purchase invoices and business expenses dated in the period: totals and groups from the day summaries (one
 * pass, grouping sets); overdue (due before `today`) and upcoming (due by `horizon`, the first UPCOMING_LIMIT) from
 * the unpaid items themselves (a partial index, few rows).
 */
export async function payablesData(
  db: Db,
  period: Period,
  { today, horizon }: { today: IsoDate; horizon: IsoDate },
): Promise<PayablesInput> {
  const { start, end } = sqlBounds(period);
  const [row] = await db.$queryRaw<{ groups: string; overdue: string; upcoming: string }[]>(Prisma.sql`
    WITH groups AS (
      SELECT "supplier_name", "category",
             CASE WHEN GROUPING("supplier_name") = 0 THEN 'supplier' WHEN GROUPING("category") = 0 THEN 'category' ELSE 'all' END AS level,
             SUM("total_amount") AS total, SUM("total_amount") FILTER (WHERE "is_paid") AS paid, SUM("item_count") AS n
        FROM "reporting"."cost_daily"
       WHERE "day" BETWEEN ${start}::date AND ${end}::date
       GROUP BY GROUPING SETS (("supplier_name"), ("category"), ())
    ),
    unpaid AS (
      SELECT 'purchase-invoice' AS source, "purchase_invoice_id" AS id, "supplier_name", "invoice_number", "total_amount" AS total, "due_date"
        FROM "reporting"."purchase_invoice_facts"
       WHERE NOT "is_paid" AND "due_date" IS NOT NULL AND "invoice_date" BETWEEN ${start}::date AND ${end}::date
      UNION ALL
      SELECT 'business-expense', "expense_id", "supplier_name", "invoice_number", "amount", "due_date"
        FROM "reporting"."expense_facts"
       WHERE NOT "is_paid" AND "due_date" IS NOT NULL AND "expense_date" BETWEEN ${start}::date AND ${end}::date
    )
    SELECT
      (SELECT COALESCE(json_agg(json_build_object('supplierName', "supplier_name", 'category', "category", 'level', level,
                 'total', total::text, 'paid', paid::text, 'count', n)), '[]'::json) FROM groups)::text AS groups,
      (SELECT COALESCE(SUM(total), 0) FROM unpaid WHERE "due_date" < ${today}::date)::text AS overdue,
      (SELECT COALESCE(json_agg(json_build_object(
          'id', id, 'source', source, 'supplierName', "supplier_name", 'invoiceNumber', "invoice_number",
          'totalAmount', total::text, 'dueDate', "due_date"::text)), '[]'::json)
         FROM (SELECT * FROM unpaid WHERE "due_date" <= ${horizon}::date
                ORDER BY "due_date", "supplier_name" COLLATE "C", id LIMIT ${Prisma.raw(String(UPCOMING_LIMIT))}) u)::text AS upcoming`);
  if (!row) throw new Error('payables query returned no row');
  const groups = JSON.parse(row.groups) as GroupJson[];
  const sums = (g: GroupJson, key: string): PayableGroupSums => ({
    key,
    total: parseNumeric(g.total),
    paid: parseNumeric(g.paid),
    count: Number(g.count ?? 0),
  });
  const all = groups.find((g) => g.level === 'all');
  return {
    total: parseNumeric(all?.total),
    paid: parseNumeric(all?.paid),
    overdue: parseNumeric(row.overdue),
    bySupplier: groups.filter((g) => g.level === 'supplier').map((g) => sums(g, g.supplierName ?? '')),
    byCategory: groups.filter((g) => g.level === 'category').map((g) => sums(g, g.category ?? '')),
    upcoming: (JSON.parse(row.upcoming) as UpcomingJson[]).map((u): UpcomingItem => ({
      ...u,
      totalAmount: parseNumeric(u.totalAmount),
    })),
  };
}

const toCategories = (json: string): CategoryAmount[] =>
  (JSON.parse(json) as { category: string; amount: string }[]).map((c) => ({
    category: c.category,
    amount: parseNumeric(c.amount),
  }));

/**
 * Revenue: issued customer invoices dated in the period (ex-GST, by line-item category, from the day summaries)
 * plus jobs completed in the period that have no issued invoice at all (their ex-GST value, by service type), so no
 * job is counted twice. Costs: purchase invoices and business expenses dated in the period, ex GST, by category.
 */
export async function plData(db: Db, period: Period): Promise<PlInput> {
  const { start, end } = sqlBounds(period);
  const [row] = await db.$queryRaw<
    { invoice_revenue: string; job_revenue: string; purchases: string; expenses: string }[]
  >(Prisma.sql`
    SELECT
      (SELECT COALESCE(json_agg(json_build_object('category', category, 'amount', amount::text)), '[]'::json) FROM (
         SELECT "category" AS category, SUM("amount") AS amount FROM "reporting"."revenue_daily"
          WHERE "day" BETWEEN ${start}::date AND ${end}::date GROUP BY "category") r)::text AS invoice_revenue,
      (SELECT COALESCE(json_agg(json_build_object('category', category, 'amount', amount::text)), '[]'::json) FROM (
         SELECT j."service_type" AS category, SUM(j."value_ex_gst") AS amount FROM "reporting"."job_revenue_facts" j
          WHERE j."recognised" AND j."revenue_date" BETWEEN ${start}::date AND ${end}::date
            AND NOT EXISTS (SELECT 1 FROM "reporting"."customer_invoice_facts" c WHERE c."job_id" = j."job_id" AND c."issued")
          GROUP BY j."service_type") j)::text AS job_revenue,
      (SELECT COALESCE(json_agg(json_build_object('category', category, 'amount', amount::text)), '[]'::json) FROM (
         SELECT "category" AS category, SUM("subtotal") AS amount FROM "reporting"."cost_daily"
          WHERE "source" = 'purchase-invoice' AND "day" BETWEEN ${start}::date AND ${end}::date GROUP BY "category") p)::text AS purchases,
      (SELECT COALESCE(json_agg(json_build_object('category', category, 'amount', amount::text)), '[]'::json) FROM (
         SELECT "category" AS category, SUM("subtotal") AS amount FROM "reporting"."cost_daily"
          WHERE "source" = 'business-expense' AND "day" BETWEEN ${start}::date AND ${end}::date GROUP BY "category") e)::text AS expenses`);
  if (!row) throw new Error('P&L query returned no row');
  const invoiceRevenue = toCategories(row.invoice_revenue);
  const jobRevenue = toCategories(row.job_revenue);
  const purchases = toCategories(row.purchases);
  const expenses = toCategories(row.expenses);
  const total = (rows: CategoryAmount[]) => rows.reduce((s, r) => s + r.amount, 0n);
  return {
    invoiceRevenue: total(invoiceRevenue),
    jobRevenue: total(jobRevenue),
    jobCosts: total(purchases),
    businessExpenses: total(expenses),
    revenueByCategory: [...invoiceRevenue, ...jobRevenue],
    expensesByCategory: [...purchases, ...expenses],
  };
}
