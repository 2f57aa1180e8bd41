/**
 * Reconciliation (issue 12, "reports agree with the invoices"): generated months of books (test/fixtures/
 * generated-books.ts: invoices of both contract versions and both amount types, GST-free and surcharge lines, odd
 * amounts, every status, edits, moves and deletes; purchase invoices and expenses, some GST-free; jobs with and
 * without invoices) go as events, shuffled, through RabbitMQ into a real reporting service. The GST, payables and
 * P&L reports of each period must then equal, to the cent, what this file computes on its own from the final state
 * of every generated record: GST collected = Σ GST of the issued invoices, income = Σ their ex-GST subtotals (the
 * surcharge included), costs = Σ ex-GST purchases and expenses, and so on. Then a rebuild from the stored mix of v1
 * and v2 events (the rebuild command, as its own process) must leave every fact and report byte for byte the same.
 *
 * Seeds: RECONCILIATION_SEEDS="1,2,3" (one month each); a failure names its seed.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { exGstByCategory, formatMoney, gstInInclusive, toCents, type Cents } from '@tyres/kernel';
import * as fx from '../fixtures/events';
import { generateBooks, type FinalInvoice, type GeneratedBooks } from '../fixtures/generated-books';
import { settled, startTestReporting, TODAY, type TestReporting } from './harness';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../../..');
const run = promisify(execFile);

/** One month per seed, two months apart, so nothing of one seed (a moved invoice) lands in another's periods. */
const MONTHS = ['2026-06', '2026-08', '2026-10'];
const SEEDS = (process.env.RECONCILIATION_SEEDS ?? '1201,77,4242')
  .split(',')
  .map((s) => Number(s.trim()))
  .slice(0, MONTHS.length);

interface Period {
  startDate: string;
  endDate: string;
}
const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};
/** A period inside the month (records on either side of both bounds) and one around all of it. */
const periodsOf = (month: string): Period[] => [
  { startDate: `${month}-04`, endDate: `${month}-24` },
  { startDate: `${month}-01`, endDate: `${nextMonth(month)}-15` },
];
const query = (p: Period) => `?startDate=${p.startDate}&endDate=${p.endDate}`;
const within = (date: string, p: Period) => date >= p.startDate && date <= p.endDate;

// --- the reports, computed here from the generated records ---------------------------------------------------------

const sum = (values: Cents[]) => values.reduce((t, v) => t + v, 0n);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byCentsDesc = (a: Cents, b: Cents) => (a > b ? -1 : a < b ? 1 : 0);
/** part / whole × 100, two decimals, half away from zero; "0.00" for a zero whole. */
function pct(part: Cents, whole: Cents): string {
  if (whole === 0n) return '0.00';
  const n = part * 10_000n * (whole < 0n ? -1n : 1n);
  const d = whole < 0n ? -whole : whole;
  const q = ((n < 0n ? -n : n) * 2n + d) / (2n * d);
  return formatMoney(n < 0n ? -q : q);
}
/** Perth is UTC+8 all year. */
const perthDateOf = (instant: string) =>
  new Date(Date.parse(instant) + 8 * 3600_000).toISOString().slice(0, 10);
const daysFromToday = (date: string) =>
  (Date.parse(`${date}T00:00:00Z`) - Date.parse(`${TODAY}T00:00:00Z`)) / 86_400_000;
const addToTotals = (map: Map<string, Cents>, key: string, amount: Cents) =>
  map.set(key, (map.get(key) ?? 0n) + amount);

interface InvoiceFigures {
  id: string;
  number: string;
  jobId: string;
  customerName: string;
  status: string;
  date: string;
  issued: boolean;
  subtotal: Cents;
  gst: Cents;
  total: Cents;
  /** Ex-GST income per line category; what the lines do not explain is "uncategorised". */
  income: Map<string, Cents>;
}

/** The invoice's figures as billing put them in its last snapshot (a v1 invoice is tax exclusive). */
function invoiceFigures(inv: FinalInvoice): InvoiceFigures {
  const snap = inv.version === 1 ? fx.invoiceSnapshot(inv.state) : fx.invoiceSnapshotV2(inv.state);
  const amountType = inv.version === 1 ? 'exclusive' : inv.state.amountType;
  const lines = snap.items.map((i) => ({
    category: i.category as string,
    amount: toCents(i.totalPrice),
    gstFree: 'gstFree' in i ? i.gstFree : false,
  }));
  const subtotal = toCents(snap.subtotalAmount);
  const income = exGstByCategory(lines, amountType);
  const unexplained = subtotal - sum([...income.values()]);
  if (unexplained !== 0n) addToTotals(income, 'uncategorised', unexplained);
  return {
    id: snap.invoiceId,
    number: snap.invoiceNumber,
    jobId: snap.jobId,
    customerName: snap.customerName,
    status: snap.status,
    date: snap.invoiceDate,
    issued: !inv.deleted && ['sent', 'paid', 'overdue'].includes(snap.status),
    subtotal,
    gst: toCents(snap.gstAmount),
    total: toCents(snap.totalAmount),
    income,
  };
}

interface Bill {
  id: string;
  source: 'purchase-invoice' | 'business-expense';
  number: string | null;
  supplierName: string;
  category: string;
  date: string;
  dueDate: string | null;
  isPaid: boolean;
  total: Cents;
  gst: Cents;
}

function bills(books: GeneratedBooks): Bill[] {
  return [
    ...books.purchases
      .filter((p) => !p.deleted)
      .map(({ state }): Bill => {
        const snap = fx.purchaseSnapshot(state);
        return {
          id: snap.purchaseInvoiceId,
          source: 'purchase-invoice',
          number: snap.invoiceNumber,
          supplierName: snap.supplierName,
          category: snap.category,
          date: snap.invoiceDate,
          dueDate: snap.dueDate,
          isPaid: snap.isPaid,
          total: toCents(snap.totalAmount),
          gst: toCents(snap.gstAmount),
        };
      }),
    ...books.expenses
      .filter((e) => !e.deleted)
      .map(({ state }): Bill => {
        const snap = fx.expenseSnapshot(state);
        return {
          id: snap.expenseId,
          source: 'business-expense',
          number: snap.invoiceNumber,
          supplierName: snap.supplierName,
          category: snap.category,
          date: snap.expenseDate,
          dueDate: snap.dueDate,
          isPaid: snap.isPaid,
          total: toCents(snap.amount),
          gst: toCents(snap.gstAmount),
        };
      }),
  ];
}

/** Of one date and number, purchase invoices come before expenses. */
const SOURCE_RANK: Record<Bill['source'], number> = { 'purchase-invoice': 0, 'business-expense': 1 };

function expectedGst(invoices: InvoiceFigures[], allBills: Bill[], p: Period) {
  const issued = invoices
    .filter((i) => i.issued && within(i.date, p))
    .sort((a, b) => byText(a.date, b.date) || byText(a.number, b.number) || byText(a.id, b.id));
  const inPeriod = allBills
    .filter((b) => within(b.date, p))
    .sort(
      (a, b) =>
        byText(a.date, b.date) ||
        byText(a.number ?? '', b.number ?? '') ||
        SOURCE_RANK[a.source] - SOURCE_RANK[b.source] ||
        byText(a.id, b.id),
    );
  const collected = sum(issued.map((i) => i.gst));
  const paid = sum(inPeriod.map((b) => b.gst));
  return {
    gstCollected: formatMoney(collected),
    gstPaid: formatMoney(paid),
    netGST: formatMoney(collected - paid),
    customerInvoices: issued.map((i) => ({
      invoiceNumber: i.number,
      customerName: i.customerName,
      subtotal: formatMoney(i.subtotal),
      gstAmount: formatMoney(i.gst),
      totalAmount: formatMoney(i.total),
      issueDate: i.date,
      status: i.status,
    })),
    purchaseInvoices: inPeriod.map((b) => ({
      invoiceNumber: b.number,
      supplierName: b.supplierName,
      subtotal: formatMoney(b.total - b.gst),
      gstAmount: formatMoney(b.gst),
      totalAmount: formatMoney(b.total),
      invoiceDate: b.date,
      isPaid: b.isPaid,
      source: b.source,
    })),
  };
}

function expectedPayables(allBills: Bill[], p: Period) {
  const inPeriod = allBills.filter((b) => within(b.date, p));
  const groups = (key: 'supplierName' | 'category') => {
    const map = new Map<string, { total: Cents; paid: Cents; count: number }>();
    for (const b of inPeriod) {
      const g = map.get(b[key]) ?? { total: 0n, paid: 0n, count: 0 };
      map.set(b[key], {
        total: g.total + b.total,
        paid: g.paid + (b.isPaid ? b.total : 0n),
        count: g.count + 1,
      });
    }
    return [...map.entries()]
      .sort(([ka, a], [kb, b]) => byCentsDesc(a.total, b.total) || byText(ka, kb))
      .map(([k, g]) => ({
        [key]: k,
        totalAmount: formatMoney(g.total),
        paidAmount: formatMoney(g.paid),
        unpaidAmount: formatMoney(g.total - g.paid),
        invoiceCount: g.count,
      }));
  };
  const total = sum(inPeriod.map((b) => b.total));
  const paid = sum(inPeriod.filter((b) => b.isPaid).map((b) => b.total));
  const unpaidDue = inPeriod.filter((b): b is Bill & { dueDate: string } => !b.isPaid && b.dueDate !== null);
  return {
    totalPurchases: formatMoney(total),
    totalPaid: formatMoney(paid),
    totalPayables: formatMoney(total - paid),
    overduePurchases: formatMoney(sum(unpaidDue.filter((b) => b.dueDate < TODAY).map((b) => b.total))),
    purchasesBySupplier: groups('supplierName'),
    purchasesByCategory: groups('category'),
    upcomingPayments: unpaidDue
      .filter((b) => daysFromToday(b.dueDate) <= 30)
      .sort(
        (a, b) =>
          byText(a.dueDate, b.dueDate) || byText(a.supplierName, b.supplierName) || byText(a.id, b.id),
      )
      .slice(0, 100)
      .map((b) => ({
        id: b.id,
        supplierName: b.supplierName,
        invoiceNumber: b.number,
        totalAmount: formatMoney(b.total),
        dueDate: b.dueDate,
        daysUntilDue: daysFromToday(b.dueDate),
        source: b.source,
      })),
  };
}

function expectedPl(books: GeneratedBooks, invoices: InvoiceFigures[], allBills: Bill[], p: Period) {
  const issued = invoices.filter((i) => i.issued && within(i.date, p));
  const streams = new Map<string, Cents>();
  for (const i of issued) for (const [category, amount] of i.income) addToTotals(streams, category, amount);
  const invoiceRevenue = sum(issued.map((i) => i.subtotal));
  // A completed job without any issued invoice (in any period) is revenue on its Perth completion date, ex GST.
  const invoicedJobs = new Set(invoices.filter((i) => i.issued).map((i) => i.jobId));
  let jobRevenue = 0n;
  for (const { job, completedAt } of books.jobs) {
    if (!completedAt || invoicedJobs.has(job.jobId) || !within(perthDateOf(completedAt), p)) continue;
    const value = toCents(job.customerValue);
    const exGst = value - gstInInclusive(value);
    jobRevenue += exGst;
    addToTotals(streams, job.serviceType, exGst);
  }
  const costs = new Map<string, Cents>();
  const inPeriod = allBills.filter((b) => within(b.date, p));
  for (const b of inPeriod) addToTotals(costs, b.category, b.total - b.gst);
  const jobCosts = sum(inPeriod.filter((b) => b.source === 'purchase-invoice').map((b) => b.total - b.gst));
  const businessExpenses = sum(
    inPeriod.filter((b) => b.source === 'business-expense').map((b) => b.total - b.gst),
  );
  const totalRevenue = invoiceRevenue + jobRevenue;
  const totalExpenses = jobCosts + businessExpenses;
  const breakdown = (map: Map<string, Cents>, whole: Cents) =>
    [...map.entries()]
      .filter(([, amount]) => amount !== 0n)
      .sort(([ca, a], [cb, b]) => byCentsDesc(a, b) || byText(ca, cb))
      .map(([category, amount]) => ({
        category,
        amount: formatMoney(amount),
        percentage: pct(amount, whole),
      }));
  return {
    revenue: {
      customerInvoices: formatMoney(invoiceRevenue),
      jobRevenue: formatMoney(jobRevenue),
      totalRevenue: formatMoney(totalRevenue),
    },
    expenses: {
      jobCosts: formatMoney(jobCosts),
      businessExpenses: formatMoney(businessExpenses),
      totalExpenses: formatMoney(totalExpenses),
    },
    profit: {
      grossProfit: formatMoney(totalRevenue - jobCosts),
      grossMargin: pct(totalRevenue - jobCosts, totalRevenue),
      netProfit: formatMoney(totalRevenue - totalExpenses),
      netMargin: pct(totalRevenue - totalExpenses, totalRevenue),
    },
    breakdown: {
      topRevenueStreams: breakdown(streams, totalRevenue),
      topExpenseCategories: breakdown(costs, totalExpenses),
    },
  };
}

// --- the run ------------------------------------------------------------------------------------------------------

let r: TestReporting;
const books = SEEDS.map((seed, i) => generateBooks(seed, MONTHS[i] as string));

beforeAll(async () => {
  r = await startTestReporting('reporting-reconciliation');
  await r.publish(books.flatMap((b) => b.events));
  await settled(r);
});

afterAll(async () => {
  await r?.stop();
});

describe.each(books.map((b, i) => [b.seed, MONTHS[i] as string, b] as const))(
  'generated books, seed %i (%s)',
  (seed, month, b) => {
    const invoices = b.invoices.map(invoiceFigures);
    const allBills = bills(b);

    it('covers what the rules are about (so a generator change cannot quietly drop a case)', () => {
      const types = new Set(b.events.map((e) => e.type));
      for (const type of [
        'customer-invoice.issued.v1',
        'customer-invoice.issued.v2',
        'customer-invoice.updated.v2',
        'customer-invoice.deleted.v1',
        'payment.succeeded.v1',
      ])
        expect([seed, type, types.has(type)]).toEqual([seed, type, true]);
      const v2 = b.invoices.flatMap((i) => (i.version === 2 ? [i.state] : []));
      expect(v2.some((s) => s.amountType === 'inclusive')).toBe(true);
      expect(v2.some((s) => s.amountType === 'exclusive')).toBe(true);
      expect(v2.some((s) => s.items.some((l) => l.gstFree))).toBe(true);
      expect(v2.some((s) => s.items.some((l) => l.category === 'surcharge'))).toBe(true);
      const statuses = new Set(invoices.map((i) => i.status));
      for (const status of ['draft', 'sent', 'paid', 'overdue', 'cancelled'])
        expect(statuses).toContain(status);
      expect(invoices.some((i) => i.issued && i.total % 11n !== 0n)).toBe(true);
      expect(allBills.some((x) => x.source === 'purchase-invoice' && x.gst === 0n)).toBe(true);
      expect(allBills.some((x) => x.source === 'business-expense' && x.gst === 0n)).toBe(true);
      expect(allBills.some((x) => x.gst > 0n)).toBe(true);
    });

    for (const period of periodsOf(month)) {
      describe(`${period.startDate} to ${period.endDate}`, () => {
        it('GST report: collected = Σ GST of the issued invoices, paid = Σ GST of purchases and expenses', async () => {
          const res = await r.get(`/api/dashboard/reports/gst${query(period)}`);
          expect(res.status).toBe(200);
          expect(res.body).toEqual(expectedGst(invoices, allBills, period));
        });

        it('payables report: totals, paid, overdue and groups = sums over the purchase invoices and expenses', async () => {
          const res = await r.get(`/api/dashboard/reports/purchases-payables${query(period)}`);
          expect(res.status).toBe(200);
          expect(res.body).toEqual(expectedPayables(allBills, period));
        });

        it('P&L: income = Σ ex-GST subtotals (surcharge included) + uninvoiced jobs ex GST; costs ex GST', async () => {
          const res = await r.get(`/api/dashboard/reports/enhanced-pl${query(period)}`);
          expect(res.status).toBe(200);
          const expected = expectedPl(b, invoices, allBills, period);
          expect(res.body).toEqual(expected);
          // The streams add up to the income exactly, whatever the amount types and GST-free lines.
          const streams = (res.body.breakdown.topRevenueStreams as { amount: string }[]).map((s) =>
            toCents(s.amount),
          );
          expect(formatMoney(sum(streams))).toBe(res.body.revenue.totalRevenue);
        });
      });
    }
  },
);

describe('rebuild over the stored mix of v1 and v2 events', () => {
  it('the rebuild command reproduces every fact and report byte for byte', async () => {
    const stored = await r.sql<{ type: string; n: bigint }>(
      `SELECT "type", count(*) AS n FROM "reporting"."events" WHERE "type" LIKE 'customer-invoice.%' GROUP BY "type"`,
    );
    expect(stored.map((s) => s.type).sort()).toEqual([
      'customer-invoice.deleted.v1',
      'customer-invoice.issued.v1',
      'customer-invoice.issued.v2',
      'customer-invoice.updated.v1',
      'customer-invoice.updated.v2',
    ]);
    const queries = MONTHS.flatMap(periodsOf)
      .map(query)
      .concat([''])
      .flatMap((q) =>
        ['gst', 'purchases-payables', 'enhanced-pl'].map((p) => `/api/dashboard/reports/${p}${q}`),
      );
    const reports = async () => Promise.all(queries.map(async (q) => (await r.get(q)).text));
    const facts = async () =>
      Promise.all(
        [
          `SELECT * FROM "reporting"."customer_invoice_facts" ORDER BY "invoice_id"`,
          `SELECT * FROM "reporting"."customer_invoice_revenue_facts" ORDER BY "invoice_id", "category"`,
          `SELECT * FROM "reporting"."purchase_invoice_facts" ORDER BY "purchase_invoice_id"`,
          `SELECT * FROM "reporting"."expense_facts" ORDER BY "expense_id"`,
          `SELECT * FROM "reporting"."job_revenue_facts" ORDER BY "job_id"`,
          `SELECT "kind", "day", "gst_amount", "row_count", "rows" FROM "reporting"."gst_day_blocks" ORDER BY "kind", "day"`,
          `SELECT * FROM "reporting"."revenue_daily" ORDER BY "day", "category"`,
          `SELECT * FROM "reporting"."cost_daily" ORDER BY "day", "source", "supplier_name", "category", "is_paid"`,
        ].map(async (q) =>
          JSON.stringify(await r.sql(q), (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
        ),
      );
    const reportsBefore = await reports();
    const factsBefore = await facts();

    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'services/reporting/src/rebuild.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: r.database.url,
        LOG_LEVEL: 'warn',
        TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.tests.json'),
      },
    });
    expect(stdout).toMatch(/^reporting: rebuilt \d+ facts from \d+ events/m);

    expect(await facts()).toEqual(factsBefore);
    const reportsAfter = await reports();
    for (let i = 0; i < queries.length; i++)
      expect([queries[i], reportsAfter[i]]).toEqual([queries[i], reportsBefore[i]]);
  });
});
