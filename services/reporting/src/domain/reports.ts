/**
 * The three reports, assembled from sums the database computed (cents, exact). Formatting, derived figures
 * (net GST, unpaid amounts, profits, margins, shares), ordering and days until due live here, free of I/O.
 */
import { daysBetween, formatMoney, type Cents } from '@tyres/kernel';
import type { PayableSource } from './facts';
import { percentage } from './money';
import type { IsoDate } from './period';

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byCentsDesc = (a: Cents, b: Cents) => (a > b ? -1 : a < b ? 1 : 0);

// --- GST -----------------------------------------------------------------------------------------------------

export interface GstTotals {
  gstCollected: string;
  gstPaid: string;
  /** Collected − paid: positive is owed to the ATO, negative is a refund. */
  netGST: string;
}

export function gstTotals(collected: Cents, paid: Cents): GstTotals {
  return {
    gstCollected: formatMoney(collected),
    gstPaid: formatMoney(paid),
    netGST: formatMoney(collected - paid),
  };
}

// --- payables ------------------------------------------------------------------------------------------------

/** How many days ahead upcomingPayments looks (overdue items are always included). */
export const UPCOMING_DAYS = 30;
/** At most this many upcomingPayments, the earliest due first. */
export const UPCOMING_LIMIT = 100;

export interface PayableGroupSums {
  key: string;
  total: Cents;
  paid: Cents;
  count: number;
}

export interface UpcomingItem {
  id: string;
  source: PayableSource;
  supplierName: string;
  invoiceNumber: string | null;
  totalAmount: Cents;
  dueDate: IsoDate;
}

export interface PayablesInput {
  total: Cents;
  paid: Cents;
  overdue: Cents;
  bySupplier: PayableGroupSums[];
  byCategory: PayableGroupSums[];
  upcoming: UpcomingItem[];
}

interface GroupRow {
  totalAmount: string;
  paidAmount: string;
  unpaidAmount: string;
  invoiceCount: number;
}

function groupRows<K extends string>(
  groups: PayableGroupSums[],
  keyName: K,
): (Record<K, string> & GroupRow)[] {
  return [...groups]
    .sort((a, b) => byCentsDesc(a.total, b.total) || byText(a.key, b.key))
    .map(
      (g) =>
        ({
          [keyName]: g.key,
          totalAmount: formatMoney(g.total),
          paidAmount: formatMoney(g.paid),
          unpaidAmount: formatMoney(g.total - g.paid),
          invoiceCount: g.count,
        }) as Record<K, string> & GroupRow,
    );
}

export function payablesReport(input: PayablesInput, today: IsoDate) {
  return {
    totalPurchases: formatMoney(input.total),
    totalPaid: formatMoney(input.paid),
    totalPayables: formatMoney(input.total - input.paid),
    overduePurchases: formatMoney(input.overdue),
    purchasesBySupplier: groupRows(input.bySupplier, 'supplierName'),
    purchasesByCategory: groupRows(input.byCategory, 'category'),
    upcomingPayments: [...input.upcoming]
      .sort(
        (a, b) =>
          byText(a.dueDate, b.dueDate) || byText(a.supplierName, b.supplierName) || byText(a.id, b.id),
      )
      .slice(0, UPCOMING_LIMIT)
      .map((u) => ({
        id: u.id,
        supplierName: u.supplierName,
        invoiceNumber: u.invoiceNumber,
        totalAmount: formatMoney(u.totalAmount),
        dueDate: u.dueDate,
        daysUntilDue: daysBetween(today, u.dueDate),
        source: u.source,
      })),
  };
}

// --- enhanced P&L --------------------------------------------------------------------------------------------

export interface CategoryAmount {
  category: string;
  amount: Cents;
}

export interface PlInput {
  /** Ex-GST subtotals of issued customer invoices dated in the period. */
  invoiceRevenue: Cents;
  /** Ex-GST value of jobs completed in the period that have no issued invoice. */
  jobRevenue: Cents;
  /** Ex-GST purchase invoices dated in the period. */
  jobCosts: Cents;
  /** Ex-GST business expenses dated in the period. */
  businessExpenses: Cents;
  revenueByCategory: CategoryAmount[];
  expensesByCategory: CategoryAmount[];
}

function breakdown(rows: CategoryAmount[], whole: Cents) {
  const merged = new Map<string, Cents>();
  for (const r of rows) merged.set(r.category, (merged.get(r.category) ?? 0n) + r.amount);
  return [...merged.entries()]
    .filter(([, amount]) => amount !== 0n)
    .sort(([ca, a], [cb, b]) => byCentsDesc(a, b) || byText(ca, cb))
    .map(([category, amount]) => ({
      category,
      amount: formatMoney(amount),
      percentage: percentage(amount, whole),
    }));
}

export function enhancedPl(input: PlInput) {
  const totalRevenue = input.invoiceRevenue + input.jobRevenue;
  const totalExpenses = input.jobCosts + input.businessExpenses;
  const grossProfit = totalRevenue - input.jobCosts;
  const netProfit = totalRevenue - totalExpenses;
  return {
    revenue: {
      customerInvoices: formatMoney(input.invoiceRevenue),
      jobRevenue: formatMoney(input.jobRevenue),
      totalRevenue: formatMoney(totalRevenue),
    },
    expenses: {
      jobCosts: formatMoney(input.jobCosts),
      businessExpenses: formatMoney(input.businessExpenses),
      totalExpenses: formatMoney(totalExpenses),
    },
    profit: {
      grossProfit: formatMoney(grossProfit),
      grossMargin: percentage(grossProfit, totalRevenue),
      netProfit: formatMoney(netProfit),
      netMargin: percentage(netProfit, totalRevenue),
    },
    breakdown: {
      topRevenueStreams: breakdown(input.revenueByCategory, totalRevenue),
      topExpenseCategories: breakdown(input.expensesByCategory, totalExpenses),
    },
  };
}
