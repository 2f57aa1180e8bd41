/**
 * End-to-end reconciliation (issue 12, "reports agree with the invoices"), through the gateway with the real
 * services. A small generated set is made through billing's API as staff would make it: bookings completed by the
 * jobs service, a generated invoice (tax inclusive, its total the job's price), manual invoices tax inclusive and
 * tax exclusive with odd amounts and a GST-free line, an extra-work invoice left as a draft and one cancelled,
 * purchase invoices and business expenses (some GST-free). Once reporting has caught up (events), the GST, payables
 * and P&L reports of the period must equal the sums over billing's own answers, to the cent.
 *
 * Everything is dated in a period of its own, two or three years ahead (invoice, purchase and expense dates are the document's
 * date, which staff may set), so other specs sharing the database do not touch it, and no due date has passed
 * (billing would report an unpaid invoice as overdue). Amounts come from a seed: E2E_MONEY_SEED (default below); a
 * failure names it.
 */
import { isDeepStrictEqual } from 'node:util';
import { exGstByCategory, formatMoney, gstInInclusive, toCents, type Cents } from '@tyres/kernel';
import { assertStackIsUp } from './browser';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  ApiSession,
  createBooking,
  waitForJob,
  type Booking,
} from './dashboard-helpers';

jest.setTimeout(180_000);

const SEED = Number(process.env.E2E_MONEY_SEED ?? Date.now() % 100_000);

/** mulberry32: the same seed makes the same amounts. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    int,
    /** An amount in dollars and cents, never a multiple of 11 cents (the ÷ 11 rounding must show). */
    money(maxCents: number): string {
      let cents = int(101, maxCents);
      if (cents % 11 === 0) cents += 1;
      return formatMoney(BigInt(cents));
    },
  };
}
const rnd = seeded(SEED);

// The period: five days in a random month two or three years ahead: clear of every other spec's dates, and within
// billing's accounting-date range (1 Jan 2000 to five years ahead, due dates included: DUE is at most four years on).
const YEAR = new Date().getUTCFullYear() + 2 + rnd.int(0, 1);
const MONTH = String(rnd.int(1, 12)).padStart(2, '0');
const day = (d: number) => `${YEAR}-${MONTH}-${String(d).padStart(2, '0')}`;
const PERIOD = `?startDate=${day(10)}&endDate=${day(14)}`;
const DUE = `${YEAR + 1}-01-31`;

interface Item {
  category: string;
  totalPrice: string;
  gstFree: boolean;
}
interface Invoice {
  id: string;
  jobId: string;
  invoiceNumber: string;
  customerName: string;
  status: string;
  amountType: 'inclusive' | 'exclusive';
  invoiceDate: string;
  subtotalAmount: string;
  gstAmount: string;
  totalAmount: string;
  items: Item[];
}
interface Purchase {
  id: string;
  invoiceNumber: string;
  supplierName: string;
  invoiceDate: string;
  dueDate: string | null;
  subtotal: string;
  gstAmount: string;
  totalAmount: string;
  category: string;
  isPaid: boolean;
  gstFree: boolean;
}
interface Expense {
  id: string;
  invoiceNumber: string | null;
  supplierName: string;
  expenseDate: string;
  dueDate: string | null;
  amount: string;
  gstAmount: string;
  category: string;
  isPaid: boolean;
  gstFree: boolean;
}
interface JobView {
  id: string;
  jobNumber: string;
  customerValue: string;
  status: string;
}

let admin: ApiSession;
const jobs: Booking[] = [];
const invoiceIds: string[] = [];
const purchaseJobs = new Set<string>();
const expenseIds: string[] = [];
let generated: Invoice;
let jobA: JobView;

async function retry<T>(what: string, attempt: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

async function completeJob(jobId: string): Promise<void> {
  await waitForJob(admin, jobId);
  await admin.call('PATCH', `/api/dashboard/jobs/${jobId}/status`, { status: 'in-progress' });
  await admin.call('PATCH', `/api/dashboard/jobs/${jobId}/status`, { status: 'completed' });
}

/** A manual invoice ("Create Invoice"), its lines, then its status. */
async function manualInvoice(
  jobId: string,
  amountType: 'inclusive' | 'exclusive',
  invoiceDate: string,
  lines: { category: string; quantity: number; unitPrice: string; gstFree?: boolean }[],
  status: string,
): Promise<string> {
  const { customerInvoice } = await retry('create invoice', () =>
    admin.call<{ customerInvoice: Invoice }>('POST', '/api/dashboard/customer-invoices', {
      jobId,
      status: 'draft',
      amountType,
      invoiceDate,
      dueDate: DUE,
    }),
  );
  for (const [n, line] of lines.entries())
    await admin.call('POST', `/api/dashboard/customer-invoices/${customerInvoice.id}/items`, {
      description: `${line.category} ${n + 1}${line.gstFree ? ' (GST-free)' : ''}`,
      ...line,
    });
  if (status !== 'draft')
    await admin.call('PATCH', `/api/dashboard/customer-invoices/${customerInvoice.id}`, { status });
  invoiceIds.push(customerInvoice.id);
  return customerInvoice.id;
}

beforeAll(async () => {
  await assertStackIsUp();
  admin = await ApiSession.login(ADMIN_USERNAME, ADMIN_PASSWORD);

  for (let n = 0; n < 3; n++) jobs.push(await createBooking({ serviceType: 'puncture-repair' }));
  for (const j of jobs) await completeJob(j.jobId);
  const [a, b, c] = jobs as [Booking, Booking, Booking];
  jobA = await admin.call<JobView>('GET', `/api/dashboard/jobs/${a.jobId}`);

  // "Generate Invoice": tax inclusive, total = the job's price; dated into the period and sent.
  const gen = await retry('generate invoice', () =>
    admin.call<{ customerInvoice: Invoice }>('POST', `/api/dashboard/customer-invoices/generate/${a.jobId}`),
  );
  await admin.call('PATCH', `/api/dashboard/customer-invoices/${gen.customerInvoice.id}`, {
    invoiceDate: day(10),
    dueDate: DUE,
    status: 'sent',
  });
  invoiceIds.push(gen.customerInvoice.id);

  // Extra work on job A, tax inclusive with a GST-free line, paid; and a draft that does not count yet.
  await manualInvoice(
    a.jobId,
    'inclusive',
    day(11),
    [
      { category: 'tyre', quantity: rnd.int(1, 4), unitPrice: rnd.money(40_000) },
      { category: 'labour', quantity: 1, unitPrice: rnd.money(9_000) },
      { category: 'note', quantity: 1, unitPrice: rnd.money(3_000), gstFree: true },
    ],
    'paid',
  );
  await manualInvoice(
    a.jobId,
    'inclusive',
    day(12),
    [{ category: 'labour', quantity: 1, unitPrice: '50.00' }],
    'draft',
  );
  // Tax exclusive (GST added on top), odd amounts, a GST-free line.
  await manualInvoice(
    b.jobId,
    'exclusive',
    day(12),
    [
      { category: 'callout', quantity: 1, unitPrice: rnd.money(12_000) },
      { category: 'labour', quantity: rnd.int(1, 3), unitPrice: rnd.money(6_000) },
      { category: 'battery', quantity: 1, unitPrice: rnd.money(30_000), gstFree: true },
    ],
    'sent',
  );
  // Tax inclusive, then cancelled (void: not counted), and a sent one on the last day of the period.
  await manualInvoice(
    c.jobId,
    'inclusive',
    day(13),
    [{ category: 'battery', quantity: 1, unitPrice: rnd.money(40_000) }],
    'cancelled',
  );
  await manualInvoice(
    c.jobId,
    'inclusive',
    day(14),
    [
      { category: 'battery', quantity: 1, unitPrice: rnd.money(40_000) },
      { category: 'callout', quantity: 1, unitPrice: '0.01' },
    ],
    'sent',
  );

  // Supplier invoices against the jobs (one GST-free, one paid) and business expenses (one GST-free, one paid).
  const purchases: [Booking, string, boolean, boolean][] = [
    [a, 'Tyre Wholesale WA', false, false],
    [b, 'Battery World', true, false],
    [c, 'Battery World', false, true],
  ];
  for (const [n, [job, supplierName, gstFree, isPaid]] of purchases.entries()) {
    await retry('record purchase', () =>
      admin.call('POST', '/api/dashboard/purchase-invoices', {
        jobId: job.jobId,
        invoiceNumber: `E2E-P-${SEED}-${n}`,
        supplierName,
        invoiceDate: day(10 + n),
        dueDate: DUE,
        totalAmount: rnd.money(60_000),
        gstFree,
        isPaid,
      }),
    );
    purchaseJobs.add(job.jobId);
  }
  const expenses: [string, string, boolean, boolean][] = [
    ['Ampol', 'fuel', false, true],
    ['Perth Council', 'admin', true, false],
    ['Officeworks', 'admin', false, false],
  ];
  for (const [n, [supplierName, category, gstFree, isPaid]] of expenses.entries()) {
    const { expense } = await admin.call<{ expense: Expense }>('POST', '/api/dashboard/business-expenses', {
      supplierName,
      invoiceNumber: `E2E-X-${SEED}-${n}`,
      description: `${category} for the van`,
      amount: rnd.money(50_000),
      category,
      expenseDate: day(11 + n),
      dueDate: DUE,
      isPaid,
      gstFree,
    });
    expenseIds.push(expense.id);
  }
  generated = await admin.call<Invoice>('GET', `/api/dashboard/customer-invoices/${gen.customerInvoice.id}`);
});

// --- what billing says --------------------------------------------------------------------------------------------

async function billingBooks() {
  const invoices = await Promise.all(
    invoiceIds.map((id) => admin.call<Invoice>('GET', `/api/dashboard/customer-invoices/${id}`)),
  );
  const purchases = (
    await Promise.all(
      [...purchaseJobs].map((jobId) =>
        admin.call<Purchase[]>('GET', `/api/dashboard/purchase-invoices/job/${jobId}`),
      ),
    )
  )
    .flat()
    .filter((p) => p.invoiceNumber.startsWith(`E2E-P-${SEED}-`));
  const expenses = await Promise.all(
    expenseIds.map((id) => admin.call<Expense>('GET', `/api/dashboard/business-expenses/${id}`)),
  );
  return { invoices, purchases, expenses };
}

const sum = (values: Cents[]) => values.reduce((t, v) => t + v, 0n);
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byCentsDesc = (a: Cents, b: Cents) => (a > b ? -1 : a < b ? 1 : 0);
const add = (map: Map<string, Cents>, key: string, amount: Cents) =>
  map.set(key, (map.get(key) ?? 0n) + amount);
function pct(part: Cents, whole: Cents): string {
  if (whole === 0n) return '0.00';
  const sign = part < 0n !== whole < 0n ? -1n : 1n;
  const n = (part < 0n ? -part : part) * 10_000n;
  const d = whole < 0n ? -whole : whole;
  return formatMoney(sign * ((n * 2n + d) / (2n * d)));
}

/** The three reports as they must be, from billing's answers alone. */
function expectedReports(books: Awaited<ReturnType<typeof billingBooks>>) {
  const issued = books.invoices
    .filter((i) => ['sent', 'paid', 'overdue'].includes(i.status))
    .sort((a, b) => byText(a.invoiceDate, b.invoiceDate) || byText(a.invoiceNumber, b.invoiceNumber));
  const bills = [
    ...books.purchases.map((p) => ({
      id: p.id,
      source: 'purchase-invoice' as const,
      number: p.invoiceNumber as string | null,
      supplierName: p.supplierName,
      category: p.category,
      date: p.invoiceDate,
      isPaid: p.isPaid,
      total: toCents(p.totalAmount),
      gst: toCents(p.gstAmount),
    })),
    ...books.expenses.map((e) => ({
      id: e.id,
      source: 'business-expense' as const,
      number: e.invoiceNumber,
      supplierName: e.supplierName,
      category: e.category,
      date: e.expenseDate,
      isPaid: e.isPaid,
      total: toCents(e.amount),
      gst: toCents(e.gstAmount),
    })),
  ].sort(
    (a, b) =>
      byText(a.date, b.date) ||
      byText(a.number ?? '', b.number ?? '') ||
      byText(a.source === 'purchase-invoice' ? '0' : '1', b.source === 'purchase-invoice' ? '0' : '1'),
  );

  const collected = sum(issued.map((i) => toCents(i.gstAmount)));
  const paid = sum(bills.map((b) => b.gst));
  const gst = {
    gstCollected: formatMoney(collected),
    gstPaid: formatMoney(paid),
    netGST: formatMoney(collected - paid),
    customerInvoices: issued.map((i) => ({
      invoiceNumber: i.invoiceNumber,
      customerName: i.customerName,
      subtotal: i.subtotalAmount,
      gstAmount: i.gstAmount,
      totalAmount: i.totalAmount,
      issueDate: i.invoiceDate,
      status: i.status,
    })),
    purchaseInvoices: bills.map((b) => ({
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

  const groups = (key: 'supplierName' | 'category') => {
    const map = new Map<string, { total: Cents; paid: Cents; count: number }>();
    for (const b of bills) {
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
  const totalBills = sum(bills.map((b) => b.total));
  const paidBills = sum(bills.filter((b) => b.isPaid).map((b) => b.total));
  const payables = {
    totalPurchases: formatMoney(totalBills),
    totalPaid: formatMoney(paidBills),
    totalPayables: formatMoney(totalBills - paidBills),
    overduePurchases: '0.00', // every due date is years ahead
    purchasesBySupplier: groups('supplierName'),
    purchasesByCategory: groups('category'),
    upcomingPayments: [], // none due within 30 days
  };

  // Income: each issued invoice's ex-GST subtotal, split by category the kernel's way; costs ex GST.
  const streams = new Map<string, Cents>();
  for (const i of issued) {
    const byCategory = exGstByCategory(
      i.items.map((l) => ({ category: l.category, amount: toCents(l.totalPrice), gstFree: l.gstFree })),
      i.amountType,
    );
    for (const [category, amount] of byCategory) add(streams, category, amount);
    const unexplained = toCents(i.subtotalAmount) - sum([...byCategory.values()]);
    if (unexplained !== 0n) add(streams, 'uncategorised', unexplained);
  }
  const income = sum(issued.map((i) => toCents(i.subtotalAmount)));
  const costs = new Map<string, Cents>();
  for (const b of bills) add(costs, b.category, b.total - b.gst);
  const jobCosts = sum(bills.filter((b) => b.source === 'purchase-invoice').map((b) => b.total - b.gst));
  const businessExpenses = sum(
    bills.filter((b) => b.source === 'business-expense').map((b) => b.total - b.gst),
  );
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
  const pl = {
    // The jobs were completed today, outside the period: all of the period's income is invoiced.
    revenue: { customerInvoices: formatMoney(income), jobRevenue: '0.00', totalRevenue: formatMoney(income) },
    expenses: {
      jobCosts: formatMoney(jobCosts),
      businessExpenses: formatMoney(businessExpenses),
      totalExpenses: formatMoney(totalExpenses),
    },
    profit: {
      grossProfit: formatMoney(income - jobCosts),
      grossMargin: pct(income - jobCosts, income),
      netProfit: formatMoney(income - totalExpenses),
      netMargin: pct(income - totalExpenses, income),
    },
    breakdown: {
      topRevenueStreams: breakdown(streams, income),
      topExpenseCategories: breakdown(costs, totalExpenses),
    },
  };
  return { gst, payables, pl };
}

async function reports() {
  const [gst, payables, pl] = await Promise.all(
    ['gst', 'purchases-payables', 'enhanced-pl'].map((r) =>
      admin.call(`GET`, `/api/dashboard/reports/${r}${PERIOD}`),
    ),
  );
  return { gst, payables, pl };
}

test(`billing made the set as asked (seed ${SEED})`, async () => {
  const books = await billingBooks();
  // The generated invoice is tax inclusive and its total is the job's price to the cent; its GST is total ÷ 11.
  expect(generated).toMatchObject({
    amountType: 'inclusive',
    totalAmount: jobA.customerValue,
    status: 'sent',
  });
  expect(generated.gstAmount).toBe(formatMoney(gstInInclusive(toCents(jobA.customerValue))));
  expect(books.invoices.map((i) => [i.amountType, i.status])).toEqual([
    ['inclusive', 'sent'],
    ['inclusive', 'paid'],
    ['inclusive', 'draft'],
    ['exclusive', 'sent'],
    ['inclusive', 'cancelled'],
    ['inclusive', 'sent'],
  ]);
  expect(books.invoices.flatMap((i) => i.items.filter((l) => l.gstFree))).toHaveLength(2);
  expect(books.purchases).toHaveLength(3);
  expect(books.purchases.filter((p) => p.gstFree).map((p) => p.gstAmount)).toEqual(['0.00']);
  expect(books.expenses.filter((e) => e.gstFree).map((e) => e.gstAmount)).toEqual(['0.00']);
});

test(`the GST, payables and P&L reports equal the sums over billing's answers, to the cent (seed ${SEED})`, async () => {
  const expected = expectedReports(await billingBooks());
  // Reporting learns everything from events: wait until it has caught up (or show the difference).
  const deadline = Date.now() + 30_000;
  let actual = await reports();
  while (!isDeepStrictEqual(actual, expected) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    actual = await reports();
  }
  expect(actual.gst).toEqual(expected.gst);
  expect(actual.payables).toEqual(expected.payables);
  expect(actual.pl).toEqual(expected.pl);
  // What a bookkeeper checks first: GST collected is the issued invoices' GST, income their ex-GST amounts.
  expect(expected.gst.customerInvoices).toHaveLength(4);
  expect(expected.pl.revenue.totalRevenue).toBe(
    formatMoney(sum(expected.gst.customerInvoices.map((i) => toCents(i.subtotal)))),
  );
});
