/**
 * Report queries. Each report is one SQL statement (one consistent snapshot, one round trip); the database sums
 * Decimal(10,2) columns exactly and hands the sums over as text, parsed into cents. Ordering is total (ties broken
 * by id, byte-order collation), so the same facts always give the same bytes.
 */
import { Prisma } from './generated/client';
import type { Db } from './client';
import { addDays, type IsoDate } from '../domain/dates';
import type { PayableSource } from '../domain/facts';
import { parseNumeric } from '../domain/money';
import { sqlBounds, type Period } from '../domain/period';
import {
  UPCOMING_DAYS,
  UPCOMING_LIMIT,
  type CategoryAmount,
  type PayableGroupSums,
  type PayablesInput,
  type PlInput,
  type UpcomingItem,
} from '../domain/reports';

export interface GstData {
  collected: bigint;
  paid: bigint;
  /** Pre-rendered JSON rows, comma-joined, in report order. */
  customerRows: string;
  purchaseRows: string;
}

export async function gstData(db: Db, period: Period): Promise<GstData> {
  const { start, end } = sqlBounds(period);
  // Day blocks in date order: the rows of each day are already in report order inside its block.
  const [row] = await db.$queryRaw<
    { collected: string; paid: string; customer_rows: string; purchase_rows: string }[]
  >(Prisma.sql`
    SELECT
      (SELECT COALESCE(SUM("gst_amount"), 0) FROM "reporting"."gst_day_blocks"
        WHERE "kind" = 'customer' AND "day" BETWEEN ${start}::date AND ${end}::date)::text AS collected,
      (SELECT COALESCE(SUM("gst_amount"), 0) FROM "reporting"."gst_day_blocks"
        WHERE "kind" = 'purchase' AND "day" BETWEEN ${start}::date AND ${end}::date)::text AS paid,
      (SELECT COALESCE(string_agg("rows", ',' ORDER BY "day"), '') FROM "reporting"."gst_day_blocks"
        WHERE "kind" = 'customer' AND "day" BETWEEN ${start}::date AND ${end}::date) AS customer_rows,
      (SELECT COALESCE(string_agg("rows", ',' ORDER BY "day"), '') FROM "reporting"."gst_day_blocks"
        WHERE "kind" = 'purchase' AND "day" BETWEEN ${start}::date AND ${end}::date) AS purchase_rows`);
  if (!row) throw new Error('GST query returned no row');
  return {
    collected: parseNumeric(row.collected),
    paid: parseNumeric(row.paid),
    customerRows: row.customer_rows,
    purchaseRows: row.purchase_rows,
  };
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
 * pass, grouping sets); overdue and upcoming from the unpaid items themselves (a partial index, few rows).
 */
export async function payablesData(db: Db, period: Period, today: IsoDate): Promise<PayablesInput> {
  const { start, end } = sqlBounds(period);
  const horizon = addDays(today, UPCOMING_DAYS);
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
         SELECT j."service_type" AS category, SUM(j."customer_value") AS amount FROM "reporting"."job_revenue_facts" j
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
