import { enhancedPl, gstTotals, payablesReport, UPCOMING_LIMIT, type UpcomingItem } from './reports';

describe('GST totals', () => {
  it('nets collected against paid, exactly', () => {
    expect(gstTotals(123456n, 23456n)).toEqual({
      gstCollected: '1234.56',
      gstPaid: '234.56',
      netGST: '1000.00',
    });
  });

  it('shows a refund as a negative net', () => {
    expect(gstTotals(1000n, 2500n)).toEqual({ gstCollected: '10.00', gstPaid: '25.00', netGST: '-15.00' });
    expect(gstTotals(0n, 0n)).toEqual({ gstCollected: '0.00', gstPaid: '0.00', netGST: '0.00' });
  });
});

describe('payables report', () => {
  const today = '2026-11-21';
  const item = (over: Partial<UpcomingItem>): UpcomingItem => ({
    id: 'a',
    source: 'purchase-invoice',
    supplierName: 'Tyre Co',
    invoiceNumber: 'P-1',
    totalAmount: 11000n,
    dueDate: today,
    ...over,
  });

  it('derives payables and unpaid amounts, biggest suppliers first', () => {
    const report = payablesReport(
      {
        total: 100000n,
        paid: 60000n,
        overdue: 15000n,
        bySupplier: [
          { key: 'B Parts', total: 30000n, paid: 30000n, count: 2 },
          { key: 'A Tyres', total: 70000n, paid: 30000n, count: 3 },
          { key: 'Aa Tyres', total: 30000n, paid: 0n, count: 1 },
        ],
        byCategory: [{ key: 'cost-of-goods-sold', total: 100000n, paid: 60000n, count: 6 }],
        upcoming: [],
      },
      today,
    );
    expect(report).toMatchObject({
      totalPurchases: '1000.00',
      totalPaid: '600.00',
      totalPayables: '400.00',
      overduePurchases: '150.00',
    });
    expect(report.purchasesBySupplier).toEqual([
      {
        supplierName: 'A Tyres',
        totalAmount: '700.00',
        paidAmount: '300.00',
        unpaidAmount: '400.00',
        invoiceCount: 3,
      },
      {
        supplierName: 'Aa Tyres',
        totalAmount: '300.00',
        paidAmount: '0.00',
        unpaidAmount: '300.00',
        invoiceCount: 1,
      },
      {
        supplierName: 'B Parts',
        totalAmount: '300.00',
        paidAmount: '300.00',
        unpaidAmount: '0.00',
        invoiceCount: 2,
      },
    ]);
    expect(report.purchasesByCategory).toEqual([
      {
        category: 'cost-of-goods-sold',
        totalAmount: '1000.00',
        paidAmount: '600.00',
        unpaidAmount: '400.00',
        invoiceCount: 6,
      },
    ]);
  });

  it('counts days until due in Perth calendar days, overdue negative, earliest first', () => {
    const report = payablesReport(
      {
        total: 0n,
        paid: 0n,
        overdue: 0n,
        bySupplier: [],
        byCategory: [],
        upcoming: [
          item({ id: 'c', dueDate: '2026-12-21' }),
          item({ id: 'b', dueDate: '2026-11-21', source: 'business-expense', invoiceNumber: null }),
          item({ id: 'a', dueDate: '2026-11-14' }),
        ],
      },
      today,
    );
    expect(report.upcomingPayments.map((u) => [u.id, u.dueDate, u.daysUntilDue])).toEqual([
      ['a', '2026-11-14', -7],
      ['b', '2026-11-21', 0],
      ['c', '2026-12-21', 30],
    ]);
    expect(report.upcomingPayments[1]).toEqual({
      id: 'b',
      supplierName: 'Tyre Co',
      invoiceNumber: null,
      totalAmount: '110.00',
      dueDate: '2026-11-21',
      daysUntilDue: 0,
      source: 'business-expense',
    });
  });

  it('lists at most UPCOMING_LIMIT payments', () => {
    const upcoming = Array.from({ length: UPCOMING_LIMIT + 5 }, (_, i) =>
      item({ id: String(i).padStart(4, '0') }),
    );
    expect(
      payablesReport({ total: 0n, paid: 0n, overdue: 0n, bySupplier: [], byCategory: [], upcoming }, today)
        .upcomingPayments,
    ).toHaveLength(UPCOMING_LIMIT);
  });
});

describe('enhanced P&L', () => {
  it('computes profits and margins from exact cents', () => {
    const pl = enhancedPl({
      invoiceRevenue: 300000n, // 3000.00
      jobRevenue: 12980n, // 129.80
      jobCosts: 100000n, // 1000.00
      businessExpenses: 45000n, // 450.00
      revenueByCategory: [
        { category: 'tyre', amount: 200000n },
        { category: 'labour', amount: 100000n },
        { category: 'puncture-repair', amount: 12980n },
      ],
      expensesByCategory: [
        { category: 'cost-of-goods-sold', amount: 100000n },
        { category: 'fuel', amount: 40000n },
        { category: 'admin', amount: 5000n },
      ],
    });
    expect(pl).toEqual({
      revenue: { customerInvoices: '3000.00', jobRevenue: '129.80', totalRevenue: '3129.80' },
      expenses: { jobCosts: '1000.00', businessExpenses: '450.00', totalExpenses: '1450.00' },
      profit: {
        grossProfit: '2129.80',
        grossMargin: '68.05', // 2129.80 / 3129.80 = 68.0491…%
        netProfit: '1679.80',
        netMargin: '53.67', // 1679.80 / 3129.80 = 53.6712…%
      },
      breakdown: {
        topRevenueStreams: [
          { category: 'tyre', amount: '2000.00', percentage: '63.90' }, // 63.9018…
          { category: 'labour', amount: '1000.00', percentage: '31.95' }, // 31.9509…
          { category: 'puncture-repair', amount: '129.80', percentage: '4.15' }, // 4.1472…
        ],
        topExpenseCategories: [
          { category: 'cost-of-goods-sold', amount: '1000.00', percentage: '68.97' }, // 68.9655…
          { category: 'fuel', amount: '400.00', percentage: '27.59' }, // 27.5862…
          { category: 'admin', amount: '50.00', percentage: '3.45' }, // 3.4482…
        ],
      },
    });
  });

  it('has zero margins and shares when there is no revenue or no expense (no division by zero)', () => {
    const pl = enhancedPl({
      invoiceRevenue: 0n,
      jobRevenue: 0n,
      jobCosts: 5000n,
      businessExpenses: 2500n,
      revenueByCategory: [],
      expensesByCategory: [
        { category: 'cost-of-goods-sold', amount: 5000n },
        { category: 'fuel', amount: 2500n },
      ],
    });
    expect(pl.profit).toEqual({
      grossProfit: '-50.00',
      grossMargin: '0.00',
      netProfit: '-75.00',
      netMargin: '0.00',
    });
    expect(pl.breakdown.topRevenueStreams).toEqual([]);
    expect(pl.breakdown.topExpenseCategories.map((c) => c.percentage)).toEqual(['66.67', '33.33']);

    const nothing = enhancedPl({
      invoiceRevenue: 0n,
      jobRevenue: 0n,
      jobCosts: 0n,
      businessExpenses: 0n,
      revenueByCategory: [],
      expensesByCategory: [],
    });
    expect(nothing.profit).toEqual({
      grossProfit: '0.00',
      grossMargin: '0.00',
      netProfit: '0.00',
      netMargin: '0.00',
    });
  });

  it('shows losses as negative margins, rounded half away from zero', () => {
    const pl = enhancedPl({
      invoiceRevenue: 80000n, // 800.00
      jobRevenue: 0n,
      jobCosts: 90000n, // 900.00: gross −100.00 → −12.5 %
      businessExpenses: 8760n, // 87.60: net −187.60 → −23.45 %
      revenueByCategory: [],
      expensesByCategory: [],
    });
    expect(pl.profit).toMatchObject({ grossMargin: '-12.50', netMargin: '-23.45' });
  });

  it('merges a category that comes from two sources and leaves out zero amounts', () => {
    const pl = enhancedPl({
      invoiceRevenue: 0n,
      jobRevenue: 0n,
      jobCosts: 11000n,
      businessExpenses: 1000n,
      revenueByCategory: [],
      expensesByCategory: [
        { category: 'cost-of-goods-sold', amount: 11000n },
        { category: 'cost-of-goods-sold', amount: 1000n },
        { category: 'misc', amount: 0n },
      ],
    });
    expect(pl.breakdown.topExpenseCategories).toEqual([
      { category: 'cost-of-goods-sold', amount: '120.00', percentage: '100.00' },
    ]);
  });
});
