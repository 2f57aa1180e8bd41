/**
 * A realistic quarter (July–September 2026) of billing, booking and jobs events goes through RabbitMQ into a real
 * reporting service; every figure of the three reports is checked against numbers worked out by hand. Then:
 * redelivery changes nothing, and a rebuild from the stored events reproduces every report byte for byte.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { EventEnvelope } from '@tyres/events';
import { rebuildProjections } from '../../src/app/rebuild';
import { GstReportSchema } from '../../src/http/responses';
import * as fx from '../fixtures/events';
import { settled, startTestReporting, type TestReporting } from './harness';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../../..');
const run = promisify(execFile);

const Q3 = '?startDate=2026-07-01&endDate=2026-09-30';

// --- the history ------------------------------------------------------------------------------------------------

const jA = fx.job({ jobNumber: 'JOB-A', serviceType: 'new-tyres', customerValue: '805.80' });
const jB = fx.job({ jobNumber: 'JOB-B', serviceType: 'puncture-repair', customerValue: '129.80' });
const jC = fx.job({ jobNumber: 'JOB-C', serviceType: 'battery-service', customerValue: '200.00' }); // draft invoice only
const jD = fx.job({ jobNumber: 'JOB-D', serviceType: 'emergency-callout', customerValue: '89.80' }); // cancelled invoice
const jK = fx.job({ jobNumber: 'JOB-K', serviceType: 'puncture-repair', customerValue: '129.80' }); // never invoiced
const jL = fx.job({ jobNumber: 'JOB-L', serviceType: 'new-tyres', customerValue: '600.00' }); // still in progress
const jM = fx.job({ jobNumber: 'JOB-M', serviceType: 'new-tyres', customerValue: '700.00' }); // completed, then deleted
const jN = fx.job({ jobNumber: 'JOB-N', serviceType: 'new-tyres', customerValue: '450.00' }); // completed in October
// 17:00 UTC on 30 September is 01:00 on 1 October in Perth: outside Q3 (inside if UTC dates were used).
const jP = fx.job({ jobNumber: 'JOB-P', serviceType: 'new-tyres', customerValue: '500.00' });
// 16:30 UTC on 30 June is 00:30 on 1 July in Perth: inside Q3 (outside if UTC dates were used).
const jQ = fx.job({ jobNumber: 'JOB-Q', serviceType: 'puncture-repair', customerValue: '50.00' });

const A = fx.invoice({
  invoiceNumber: 'INV-1001',
  jobId: jA.jobId,
  jobNumber: 'JOB-A',
  customerName: 'Alice Nguyen',
  status: 'sent',
  invoiceDate: '2026-07-15',
  items: [
    { category: 'callout', quantity: 1, unitPrice: '89.80' },
    { category: 'tyre', quantity: 4, unitPrice: '139.00' },
    { category: 'labour', quantity: 4, unitPrice: '25.00' },
    { category: 'labour', quantity: 4, unitPrice: '15.00' },
  ],
}); // 805.80 + GST 80.58
const B1 = fx.invoice({
  invoiceNumber: 'INV-1002',
  jobId: jB.jobId,
  jobNumber: 'JOB-B',
  customerName: 'Ben Smith',
  status: 'draft',
  invoiceDate: '2026-08-03',
  items: [
    { category: 'callout', quantity: 1, unitPrice: '89.80' },
    { category: 'labour', quantity: 1, unitPrice: '40.00' },
  ],
}); // 129.80 + GST 12.98
const B2 = { ...B1, status: 'sent' as const, updatedAt: fx.tick() };
const B3 = { ...B2, status: 'paid' as const, updatedAt: fx.tick() };
const C = fx.invoice({
  invoiceNumber: 'INV-1003',
  jobId: jC.jobId,
  jobNumber: 'JOB-C',
  status: 'draft',
  invoiceDate: '2026-08-10',
  items: [{ category: 'battery', quantity: 1, unitPrice: '200.00' }],
});
const D1 = fx.invoice({
  invoiceNumber: 'INV-1004',
  jobId: jD.jobId,
  jobNumber: 'JOB-D',
  status: 'sent',
  invoiceDate: '2026-08-11',
  items: [{ category: 'callout', quantity: 1, unitPrice: '89.80' }],
});
const D2 = { ...D1, status: 'cancelled' as const, updatedAt: fx.tick() };
const E = fx.invoice({
  invoiceNumber: 'INV-1005',
  customerName: 'Erin Walsh',
  status: 'overdue',
  invoiceDate: '2026-09-30',
  items: [{ category: 'battery', quantity: 1, unitPrice: '250.00' }],
}); // GST 25.00
const F = fx.invoice({
  invoiceNumber: 'INV-1006',
  status: 'sent',
  invoiceDate: '2026-10-01',
  items: [{ category: 'tyre', quantity: 2, unitPrice: '150.00' }],
}); // October
const G = fx.invoice({
  invoiceNumber: 'INV-1000',
  status: 'paid',
  invoiceDate: '2026-06-30',
  items: [{ category: 'labour', quantity: 1, unitPrice: '100.00' }],
}); // June
// Totals typed in on the new-invoice page: subtotal 150.00 but only 100.00 of items → 50.00 uncategorised.
const H = fx.invoice({
  invoiceNumber: 'INV-1007',
  customerName: 'Hamish Lee',
  status: 'sent',
  invoiceDate: '2026-07-01',
  subtotalAmount: '150.00',
  items: [{ category: 'tyre', quantity: 1, unitPrice: '100.00' }],
});

const P1 = fx.purchase({
  invoiceNumber: 'TW-501',
  supplierName: 'Tyre Wholesale WA',
  invoiceDate: '2026-07-10',
  dueDate: '2026-08-09',
  totalAmount: '660.00',
  isPaid: false,
  jobId: jA.jobId,
});
const P2a = fx.purchase({
  invoiceNumber: 'TW-502',
  supplierName: 'Tyre Wholesale WA',
  invoiceDate: '2026-08-05',
  dueDate: '2026-09-04',
  totalAmount: '550.00',
  isPaid: false,
});
const P2b = { ...P2a, isPaid: true, updatedAt: fx.tick() };
const P3 = fx.purchase({
  invoiceNumber: 'BW-9',
  supplierName: 'Battery World',
  invoiceDate: '2026-09-30',
  dueDate: '2026-12-01',
  totalAmount: '333.33',
  isPaid: false,
}); // GST 30.30
const P4 = fx.purchase({
  invoiceNumber: 'TW-503',
  supplierName: 'Tyre Wholesale WA',
  invoiceDate: '2026-10-02',
  dueDate: '2026-11-25',
  totalAmount: '220.00',
  isPaid: false,
}); // October
const P5 = fx.purchase({
  invoiceNumber: 'TW-504',
  supplierName: 'Tyre Wholesale WA',
  invoiceDate: '2026-08-15',
  totalAmount: '999.00',
}); // deleted

const X1 = fx.expense({
  supplierName: 'Ampol',
  description: 'Fuel',
  amount: '88.00',
  category: 'fuel',
  expenseDate: '2026-07-20',
  isPaid: true,
});
const X2 = fx.expense({
  supplierName: 'Perth Van Storage',
  invoiceNumber: 'R-77',
  description: 'Depot rent Q3',
  amount: '1650.00',
  category: 'rent',
  expenseDate: '2026-09-01',
  dueDate: '2026-11-21',
  isPaid: false,
});
const X3 = fx.expense({
  supplierName: 'Ampol',
  description: 'Fuel',
  amount: '44.00',
  category: 'fuel',
  expenseDate: '2026-10-05',
  isPaid: true,
}); // October
const X4a = fx.expense({
  supplierName: 'Officeworks',
  description: 'Printer',
  amount: '500.00',
  category: 'admin',
  expenseDate: '2026-07-25',
  isPaid: false,
});
const X4b = { ...X4a, isPaid: true, updatedAt: fx.tick() };

function history(): EventEnvelope[] {
  return [
    ...fx.completedJobEvents(jA, '2026-07-14T02:00:00.000Z'),
    ...fx.completedJobEvents(jB, '2026-08-02T03:00:00.000Z'),
    ...fx.completedJobEvents(jC, '2026-08-09T04:00:00.000Z'),
    ...fx.completedJobEvents(jD, '2026-08-10T04:00:00.000Z'),
    ...fx.completedJobEvents(jK, '2026-09-15T04:00:00.000Z'),
    fx.bookingCreated(jL, '2026-09-16T01:00:00.000Z'),
    fx.statusChanged(jL, 'new', 'in-progress', '2026-09-17T01:00:00.000Z'),
    ...fx.completedJobEvents(jM, '2026-09-20T04:00:00.000Z'),
    fx.jobDeleted(jM, '2026-09-21T04:00:00.000Z'),
    ...fx.completedJobEvents(jN, '2026-10-03T04:00:00.000Z'),
    ...fx.completedJobEvents(jP, '2026-09-30T17:00:00.000Z'),
    ...fx.completedJobEvents(jQ, '2026-06-30T16:30:00.000Z'),
    fx.jobRescheduled(jL),
    fx.statusChanged(jA, 'completed', 'invoiced', '2026-07-15T01:00:00.000Z'),
    // B arrives newest first: the paid snapshot before the draft it replaced.
    fx.invoiceUpdated(B3),
    fx.invoiceIssued(A),
    fx.invoiceIssued(B1),
    fx.invoiceUpdated(B2),
    fx.invoiceIssued(C),
    fx.invoiceIssued(D1),
    fx.invoiceUpdated(D2),
    fx.invoiceIssued(E),
    fx.invoiceIssued(F),
    fx.invoiceIssued(G),
    fx.invoiceIssued(H),
    fx.purchaseRecorded(P1),
    fx.purchaseUpdated(P2b),
    fx.purchaseRecorded(P2a),
    fx.purchaseRecorded(P3),
    fx.purchaseRecorded(P4),
    fx.purchaseRecorded(P5),
    fx.purchaseDeleted(P5),
    fx.expenseRecorded(X1),
    fx.expenseRecorded(X2),
    fx.expenseRecorded(X3),
    fx.expenseRecorded(X4a),
    fx.expenseDeleted(X4a),
    fx.expenseUpdated(X4b), // a late snapshot of a deleted expense must not bring it back
  ];
}

let r: TestReporting;
let events: EventEnvelope[];

beforeAll(async () => {
  r = await startTestReporting('reporting-reports');
  events = history();
  await r.publish(events);
  await settled(r);
});

afterAll(async () => {
  await r?.stop();
});

describe('GST report', () => {
  it('collects GST on issued invoices dated in the period and pays it on purchases and expenses', async () => {
    const res = await r.get(`/api/dashboard/reports/gst${Q3}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // Written in pieces, not through res.json, so the contract check does not see it: check it against the document.
    expect(GstReportSchema.safeParse(res.body).error).toBeUndefined();
    expect(res.body).toEqual({
      // A 80.58 + B 12.98 + E 25.00 + H 15.00 (C draft, D cancelled, F October, G June left out)
      gstCollected: '133.56',
      // P1 60.00 + P2 50.00 + P3 30.30 + X1 8.00 + X2 150.00 (P5 and X4 deleted, P4 and X3 October)
      gstPaid: '298.30',
      netGST: '-164.74',
      customerInvoices: [
        {
          invoiceNumber: 'INV-1007',
          customerName: 'Hamish Lee',
          subtotal: '150.00',
          gstAmount: '15.00',
          totalAmount: '165.00',
          issueDate: '2026-07-01',
          status: 'sent',
        },
        {
          invoiceNumber: 'INV-1001',
          customerName: 'Alice Nguyen',
          subtotal: '805.80',
          gstAmount: '80.58',
          totalAmount: '886.38',
          issueDate: '2026-07-15',
          status: 'sent',
        },
        {
          invoiceNumber: 'INV-1002',
          customerName: 'Ben Smith',
          subtotal: '129.80',
          gstAmount: '12.98',
          totalAmount: '142.78',
          issueDate: '2026-08-03',
          status: 'paid',
        },
        {
          invoiceNumber: 'INV-1005',
          customerName: 'Erin Walsh',
          subtotal: '250.00',
          gstAmount: '25.00',
          totalAmount: '275.00',
          issueDate: '2026-09-30',
          status: 'overdue',
        },
      ],
      purchaseInvoices: [
        {
          invoiceNumber: 'TW-501',
          supplierName: 'Tyre Wholesale WA',
          subtotal: '600.00',
          gstAmount: '60.00',
          totalAmount: '660.00',
          invoiceDate: '2026-07-10',
          isPaid: false,
          source: 'purchase-invoice',
        },
        {
          invoiceNumber: null,
          supplierName: 'Ampol',
          subtotal: '80.00',
          gstAmount: '8.00',
          totalAmount: '88.00',
          invoiceDate: '2026-07-20',
          isPaid: true,
          source: 'business-expense',
        },
        {
          invoiceNumber: 'TW-502',
          supplierName: 'Tyre Wholesale WA',
          subtotal: '500.00',
          gstAmount: '50.00',
          totalAmount: '550.00',
          invoiceDate: '2026-08-05',
          isPaid: true,
          source: 'purchase-invoice',
        },
        {
          invoiceNumber: 'R-77',
          supplierName: 'Perth Van Storage',
          subtotal: '1500.00',
          gstAmount: '150.00',
          totalAmount: '1650.00',
          invoiceDate: '2026-09-01',
          isPaid: false,
          source: 'business-expense',
        },
        {
          invoiceNumber: 'BW-9',
          supplierName: 'Battery World',
          subtotal: '303.03',
          gstAmount: '30.30',
          totalAmount: '333.33',
          invoiceDate: '2026-09-30',
          isPaid: false,
          source: 'purchase-invoice',
        },
      ],
    });
    // The lists add up to the totals.
    const sum = (rows: { gstAmount: string }[]) =>
      rows.reduce((s, x) => s + Math.round(Number(x.gstAmount) * 100), 0);
    expect(sum(res.body.customerInvoices)).toBe(13356);
    expect(sum(res.body.purchaseInvoices)).toBe(29830);
  });

  it('treats both bounds as inclusive and either as optional', async () => {
    const day = await r.get('/api/dashboard/reports/gst?startDate=2026-09-30&endDate=2026-09-30');
    expect(day.body.customerInvoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual([
      'INV-1005',
    ]);
    expect(day.body.purchaseInvoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual([
      'BW-9',
    ]);
    expect(day.body).toMatchObject({ gstCollected: '25.00', gstPaid: '30.30', netGST: '-5.30' });

    const fromOctober = await r.get('/api/dashboard/reports/gst?startDate=2026-10-01');
    expect(fromOctober.body).toMatchObject({ gstCollected: '30.00', gstPaid: '24.00', netGST: '6.00' }); // F; P4 20.00 + X3 4.00

    const untilJune = await r.get('/api/dashboard/reports/gst?endDate=2026-06-30');
    expect(untilJune.body).toMatchObject({ gstCollected: '10.00', gstPaid: '0.00', netGST: '10.00' }); // G

    const everything = await r.get('/api/dashboard/reports/gst');
    expect(everything.body).toMatchObject({ gstCollected: '173.56', gstPaid: '322.30', netGST: '-148.74' });
    expect(everything.body.customerInvoices).toHaveLength(6);
    expect(everything.body.purchaseInvoices).toHaveLength(7);
  });

  it('answers zeros and empty lists for a period with nothing in it', async () => {
    const res = await r.get('/api/dashboard/reports/gst?startDate=2030-01-01&endDate=2030-03-31');
    expect(res.body).toEqual({
      gstCollected: '0.00',
      gstPaid: '0.00',
      netGST: '0.00',
      customerInvoices: [],
      purchaseInvoices: [],
    });
  });
});

describe('purchases and payables report', () => {
  it('sums purchases and expenses dated in the period; overdue and days until due in Perth days from today', async () => {
    const res = await r.get(`/api/dashboard/reports/purchases-payables${Q3}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      totalPurchases: '3281.33', // 660.00 + 550.00 + 333.33 + 88.00 + 1650.00
      totalPaid: '638.00', // P2 550.00 + X1 88.00
      totalPayables: '2643.33',
      overduePurchases: '660.00', // P1, due 9 August; X2 is due today (not late), P3 on 1 December
      purchasesBySupplier: [
        {
          supplierName: 'Perth Van Storage',
          totalAmount: '1650.00',
          paidAmount: '0.00',
          unpaidAmount: '1650.00',
          invoiceCount: 1,
        },
        {
          supplierName: 'Tyre Wholesale WA',
          totalAmount: '1210.00',
          paidAmount: '550.00',
          unpaidAmount: '660.00',
          invoiceCount: 2,
        },
        {
          supplierName: 'Battery World',
          totalAmount: '333.33',
          paidAmount: '0.00',
          unpaidAmount: '333.33',
          invoiceCount: 1,
        },
        {
          supplierName: 'Ampol',
          totalAmount: '88.00',
          paidAmount: '88.00',
          unpaidAmount: '0.00',
          invoiceCount: 1,
        },
      ],
      purchasesByCategory: [
        {
          category: 'rent',
          totalAmount: '1650.00',
          paidAmount: '0.00',
          unpaidAmount: '1650.00',
          invoiceCount: 1,
        },
        {
          category: 'cost-of-goods-sold',
          totalAmount: '1543.33',
          paidAmount: '550.00',
          unpaidAmount: '993.33',
          invoiceCount: 3,
        },
        {
          category: 'fuel',
          totalAmount: '88.00',
          paidAmount: '88.00',
          unpaidAmount: '0.00',
          invoiceCount: 1,
        },
      ],
      upcomingPayments: [
        {
          id: P1.purchaseInvoiceId,
          supplierName: 'Tyre Wholesale WA',
          invoiceNumber: 'TW-501',
          totalAmount: '660.00',
          dueDate: '2026-08-09',
          daysUntilDue: -104,
          source: 'purchase-invoice',
        },
        {
          id: X2.expenseId,
          supplierName: 'Perth Van Storage',
          invoiceNumber: 'R-77',
          totalAmount: '1650.00',
          dueDate: '2026-11-21',
          daysUntilDue: 0,
          source: 'business-expense',
        },
        {
          id: P3.purchaseInvoiceId,
          supplierName: 'Battery World',
          invoiceNumber: 'BW-9',
          totalAmount: '333.33',
          dueDate: '2026-12-01',
          daysUntilDue: 10,
          source: 'purchase-invoice',
        },
      ],
    });
  });

  it('includes October when the period is open-ended', async () => {
    const res = await r.get('/api/dashboard/reports/purchases-payables');
    expect(res.body).toMatchObject({
      totalPurchases: '3545.33',
      totalPaid: '682.00',
      totalPayables: '2863.33',
      overduePurchases: '660.00',
    });
    expect(
      res.body.upcomingPayments.map((u: { invoiceNumber: string; daysUntilDue: number }) => [
        u.invoiceNumber,
        u.daysUntilDue,
      ]),
    ).toEqual([
      ['TW-501', -104],
      ['R-77', 0],
      ['TW-503', 4],
      ['BW-9', 10],
    ]);
  });
});

describe('enhanced P&L', () => {
  it('adds invoiced revenue and uninvoiced completed jobs (no double counting), ex GST, with margins', async () => {
    const res = await r.get(`/api/dashboard/reports/enhanced-pl${Q3}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      revenue: {
        customerInvoices: '1335.60', // A 805.80 + B 129.80 + E 250.00 + H 150.00
        // Job values include GST; revenue is value − value ÷ 11: C 200.00 → 181.82 (draft invoice), D 89.80 → 81.64
        // (cancelled invoice), K 129.80 → 118.00, Q 50.00 → 45.45 (01:00 1 July Perth)
        jobRevenue: '426.91',
        totalRevenue: '1762.51',
      },
      expenses: {
        jobCosts: '1403.03', // P1 600.00 + P2 500.00 + P3 303.03
        businessExpenses: '1580.00', // X1 80.00 + X2 1500.00
        totalExpenses: '2983.03',
      },
      profit: {
        grossProfit: '359.48',
        grossMargin: '20.40', // 359.48 / 1762.51 = 20.395…%
        netProfit: '-1220.52',
        netMargin: '-69.25', // −1220.52 / 1762.51 = −69.248…%
      },
      breakdown: {
        topRevenueStreams: [
          { category: 'tyre', amount: '656.00', percentage: '37.22' },
          { category: 'battery', amount: '250.00', percentage: '14.18' },
          { category: 'labour', amount: '200.00', percentage: '11.35' },
          { category: 'battery-service', amount: '181.82', percentage: '10.32' },
          { category: 'callout', amount: '179.60', percentage: '10.19' },
          { category: 'puncture-repair', amount: '163.45', percentage: '9.27' },
          { category: 'emergency-callout', amount: '81.64', percentage: '4.63' },
          { category: 'uncategorised', amount: '50.00', percentage: '2.84' },
        ],
        topExpenseCategories: [
          { category: 'rent', amount: '1500.00', percentage: '50.28' },
          { category: 'cost-of-goods-sold', amount: '1403.03', percentage: '47.03' },
          { category: 'fuel', amount: '80.00', percentage: '2.68' },
        ],
      },
    });
  });

  it('has zero margins, not a division by zero, when the period has costs but no revenue', async () => {
    const res = await r.get('/api/dashboard/reports/enhanced-pl?startDate=2026-10-05&endDate=2026-10-05');
    expect(res.body).toEqual({
      revenue: { customerInvoices: '0.00', jobRevenue: '0.00', totalRevenue: '0.00' },
      expenses: { jobCosts: '0.00', businessExpenses: '40.00', totalExpenses: '40.00' },
      profit: { grossProfit: '0.00', grossMargin: '0.00', netProfit: '-40.00', netMargin: '0.00' },
      breakdown: {
        topRevenueStreams: [],
        topExpenseCategories: [{ category: 'fuel', amount: '40.00', percentage: '100.00' }],
      },
    });
    const empty = await r.get('/api/dashboard/reports/enhanced-pl?startDate=2030-01-01&endDate=2030-01-31');
    expect(empty.body.profit).toEqual({
      grossProfit: '0.00',
      grossMargin: '0.00',
      netProfit: '0.00',
      netMargin: '0.00',
    });
  });

  it('recognises a job in the Perth calendar month it was completed', async () => {
    const october = await r.get('/api/dashboard/reports/enhanced-pl?startDate=2026-10-01&endDate=2026-10-31');
    // F 300.00 invoiced; jobs N 450.00 and P 500.00 (completed 01:00 on 1 October, Perth) uninvoiced, ex GST
    // 409.09 and 454.55.
    expect(october.body.revenue).toEqual({
      customerInvoices: '300.00',
      jobRevenue: '863.64',
      totalRevenue: '1163.64',
    });
  });
});

describe('event store', () => {
  it('stored every event once and ignores redeliveries', async () => {
    expect(await r.storedCount()).toBe(events.length);
    const before = await Promise.all(
      ['gst', 'purchases-payables', 'enhanced-pl'].map((p) => r.get(`/api/dashboard/reports/${p}${Q3}`)),
    );

    // The same envelopes again (a relay crash between confirm and commit, a broker redelivery), then one new event.
    const sentinel = fx.expenseRecorded(fx.expense({ expenseDate: '2031-01-01' }));
    await r.publish([...events.slice(0, 25), ...events.slice(-10), sentinel], { expectStored: 1 });
    await settled(r);

    expect(await r.storedCount()).toBe(events.length + 1);
    const after = await Promise.all(
      ['gst', 'purchases-payables', 'enhanced-pl'].map((p) => r.get(`/api/dashboard/reports/${p}${Q3}`)),
    );
    expect(after.map((a) => a.text)).toEqual(before.map((b) => b.text));
    const inbox = await r.sql<{ n: bigint }>(`SELECT count(*) AS n FROM "reporting"."inbox_events"`);
    expect(Number(inbox[0]?.n)).toBe(events.length + 1);
  });

  it('ignores a redelivery even after its inbox row was purged (the store knows the event id)', async () => {
    // Q3 and everything up to 2030 (the sentinels are dated 2031).
    const queries = [Q3, '?endDate=2030-12-31'].flatMap((q) =>
      ['gst', 'purchases-payables', 'enhanced-pl'].map((p) => `/api/dashboard/reports/${p}${q}`),
    );
    const snapshot = async () => Promise.all(queries.map(async (q) => (await r.get(q)).text));
    const before = await snapshot();
    const stored = await r.storedCount();
    await r.sql(`DELETE FROM "reporting"."inbox_events"`);

    const sentinel = fx.expenseRecorded(fx.expense({ expenseDate: '2031-02-01' }));
    await r.publish([...events, sentinel], { expectStored: 1 });
    await settled(r);

    expect(await r.storedCount()).toBe(stored + 1);
    const after = await snapshot();
    for (let i = 0; i < queries.length; i++) expect([queries[i], after[i]]).toEqual([queries[i], before[i]]);
  });

  it('is append-only', async () => {
    await expect(r.sql(`UPDATE "reporting"."events" SET "type" = 'x' WHERE "seq" = 1`)).rejects.toThrow(
      /append-only/,
    );
    await expect(r.sql(`DELETE FROM "reporting"."events" WHERE "seq" = 1`)).rejects.toThrow(/append-only/);
  });

  it('rebuilds every projection from the stored events with byte-identical reports', async () => {
    const queries = [
      Q3,
      '',
      '?startDate=2026-10-01',
      '?endDate=2026-06-30',
      '?startDate=2026-09-30&endDate=2026-09-30',
    ].flatMap((q) =>
      ['gst', 'purchases-payables', 'enhanced-pl'].map((p) => `/api/dashboard/reports/${p}${q}`),
    );
    const snapshot = async () => Promise.all(queries.map(async (q) => (await r.get(q)).text));
    const facts = async () =>
      Promise.all(
        [
          `SELECT * FROM "reporting"."customer_invoice_facts" ORDER BY "invoice_id"`,
          `SELECT * FROM "reporting"."customer_invoice_revenue_facts" ORDER BY "invoice_id", "category"`,
          `SELECT * FROM "reporting"."purchase_invoice_facts" ORDER BY "purchase_invoice_id"`,
          `SELECT * FROM "reporting"."expense_facts" ORDER BY "expense_id"`,
          `SELECT * FROM "reporting"."job_revenue_facts" ORDER BY "job_id"`,
          // Everything but the revision, a cache tag that a rebuild renews (src/app/gst-block-cache.ts).
          `SELECT "kind", "day", "gst_amount", "row_count", "rows" FROM "reporting"."gst_day_blocks" ORDER BY "kind", "day"`,
          `SELECT * FROM "reporting"."revenue_daily" ORDER BY "day", "category"`,
          `SELECT * FROM "reporting"."cost_daily" ORDER BY "day", "source", "supplier_name", "category", "is_paid"`,
        ].map(async (q) =>
          JSON.stringify(await r.sql(q), (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
        ),
      );

    const reportsBefore = await snapshot();
    const factsBefore = await facts();
    expect(JSON.parse(factsBefore[0] as string)).toHaveLength(8); // A, B, C, D, E, F, G, H (deleted ones have no row)

    const result = await rebuildProjections(r.db);
    expect(result.events).toBeGreaterThanOrEqual(events.length);

    expect(await facts()).toEqual(factsBefore);
    const reportsAfter = await snapshot();
    for (let i = 0; i < queries.length; i++)
      expect([queries[i], reportsAfter[i]]).toEqual([queries[i], reportsBefore[i]]);

    // And the service keeps folding new events after a rebuild.
    await r.publish([
      fx.invoiceIssued(
        fx.invoice({
          invoiceNumber: 'INV-2001',
          status: 'sent',
          invoiceDate: '2026-09-29',
          items: [{ category: 'labour', quantity: 1, unitPrice: '10.00' }],
        }),
      ),
    ]);
    expect((await r.get(`/api/dashboard/reports/gst${Q3}`)).body.gstCollected).toBe('134.56');
  });

  it('rebuilds through the command (npm run reporting:rebuild) with the same reports, byte for byte', async () => {
    const queries = [Q3, '', '?startDate=2026-10-01', '?endDate=2026-06-30'].flatMap((q) =>
      ['gst', 'purchases-payables', 'enhanced-pl'].map((p) => `/api/dashboard/reports/${p}${q}`),
    );
    const snapshot = async () => Promise.all(queries.map(async (q) => (await r.get(q)).text));
    const before = await snapshot();
    // The command's own entry point (src/rebuild.ts; dist/rebuild.js is its build), as a separate process.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'services/reporting/src/rebuild.ts'], {
      cwd: ROOT,
      // The workspace packages from source too (tsconfig.tests.json paths): CI runs this before anything is built.
      env: {
        ...process.env,
        DATABASE_URL: r.database.url,
        LOG_LEVEL: 'warn',
        TSX_TSCONFIG_PATH: path.join(ROOT, 'tsconfig.tests.json'),
      },
    });
    expect(stdout).toMatch(/^reporting: rebuilt \d+ facts from \d+ events in \d+ ms \(\d+ events\/s\)$/m);
    const after = await snapshot();
    for (let i = 0; i < queries.length; i++) expect([queries[i], after[i]]).toEqual([queries[i], before[i]]);
  });
});
