import * as fx from '../../test/fixtures/events';
import type { ConsumedEvent, StoredEvent } from './aggregates';
import { aggregateOf } from './aggregates';
import {
  affectedDays,
  isIssued,
  reduceCustomerInvoice,
  reduceExpense,
  reduceJob,
  reducePurchaseInvoice,
  revenueLines,
} from './facts';

/** Stores events in the given arrival order (seq 1, 2, ...). */
const stored = (...events: ConsumedEvent[]): StoredEvent[] =>
  events.map((event, i) => ({ seq: BigInt(i + 1), event }));

/** Every arrival order of a small list. */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('customer invoice facts', () => {
  it('takes the money and categories of the snapshot (GST 10% on top of the items)', () => {
    const s = fx.invoice({
      invoiceNumber: 'INV-0001',
      items: [
        { category: 'callout', quantity: 1, unitPrice: '89.80' },
        { category: 'tyre', quantity: 4, unitPrice: '139.00' },
        { category: 'labour', quantity: 4, unitPrice: '25.00' },
        { category: 'labour', quantity: 4, unitPrice: '15.00' },
        { category: 'note', quantity: 1, unitPrice: '0.00' },
      ],
    });
    const fact = reduceCustomerInvoice(stored(fx.invoiceIssued(s)));
    expect(fact).toMatchObject({
      invoiceNumber: 'INV-0001',
      subtotal: 80580n,
      gstAmount: 8058n,
      totalAmount: 88638n,
      issued: true,
    });
    expect(fact?.revenueLines).toEqual([
      { category: 'callout', amount: 8980n },
      { category: 'labour', amount: 16000n },
      { category: 'tyre', amount: 55600n },
    ]);
    expect(JSON.parse(fact?.gstRow ?? '')).toEqual({
      invoiceNumber: 'INV-0001',
      customerName: 'Sam Driver',
      subtotal: '805.80', // 89.80 + 4 × 139.00 + 4 × 25.00 + 4 × 15.00
      gstAmount: '80.58',
      totalAmount: '886.38',
      issueDate: '2026-07-15',
      status: 'sent',
    });
  });

  it('puts what the items do not explain under "uncategorised", so lines add up to the subtotal', () => {
    expect(revenueLines(25000n, [{ category: 'tyre', totalPrice: '200.00' }])).toEqual([
      { category: 'tyre', amount: 20000n },
      { category: 'uncategorised', amount: 5000n },
    ]);
    expect(revenueLines(10000n, [])).toEqual([{ category: 'uncategorised', amount: 10000n }]);
    expect(revenueLines(0n, [{ category: 'note', totalPrice: '0.00' }])).toEqual([]);
  });

  it('counts sent, paid and overdue invoices as issued; draft and cancelled ones not', () => {
    expect(['draft', 'sent', 'paid', 'overdue', 'cancelled'].filter((s) => isIssued(s as never))).toEqual([
      'sent',
      'paid',
      'overdue',
    ]);
  });

  it('keeps the newest snapshot whatever order the events arrive in', () => {
    const v1 = fx.invoice({ status: 'draft' });
    const v2 = { ...v1, status: 'sent' as const, updatedAt: fx.tick() };
    const v3 = {
      ...v2,
      status: 'paid' as const,
      items: [{ category: 'tyre' as const, quantity: 2, unitPrice: '150.00' }],
      updatedAt: fx.tick(),
    };
    const events = [fx.invoiceIssued(v1), fx.invoiceUpdated(v2), fx.invoiceUpdated(v3, ['status', 'items'])];
    const results = permutations(events).map((order) => reduceCustomerInvoice(stored(...order)));
    for (const r of results)
      expect(r).toMatchObject({
        status: 'paid',
        subtotal: 30000n,
        gstAmount: 3000n,
        sourceEventId: events[2]?.id,
      });
    // Same facts, same bytes, for every order.
    expect(
      new Set(results.map((r) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))))
        .size,
    ).toBe(1);
  });

  it('breaks an updatedAt tie by arrival order', () => {
    const a = fx.invoice({ status: 'sent' });
    const b = { ...a, status: 'paid' as const };
    expect(reduceCustomerInvoice(stored(fx.invoiceIssued(a), fx.invoiceUpdated(b)))?.status).toBe('paid');
    expect(reduceCustomerInvoice(stored(fx.invoiceUpdated(b), fx.invoiceIssued(a)))?.status).toBe('sent');
  });

  it('treats a delete as final, even when an older or newer snapshot arrives after it', () => {
    const s = fx.invoice();
    const later = { ...s, status: 'paid' as const, updatedAt: fx.tick() };
    for (const order of permutations([fx.invoiceIssued(s), fx.invoiceDeleted(s), fx.invoiceUpdated(later)]))
      expect(reduceCustomerInvoice(stored(...order))).toBeNull();
  });

  it('compares updatedAt as instants, not as text', () => {
    const s = fx.invoice({ status: 'sent', updatedAt: '2026-07-01T10:00:00+08:00' }); // 02:00Z
    const t = { ...s, status: 'paid' as const, updatedAt: '2026-07-01T03:00:00Z' }; // later, though it sorts first as text
    expect(reduceCustomerInvoice(stored(fx.invoiceUpdated(t), fx.invoiceIssued(s)))?.status).toBe('paid');
  });
});

describe('purchase invoice and expense facts', () => {
  it('takes GST as total / 11 from the snapshot, newest snapshot wins', () => {
    const p = fx.purchase({ totalAmount: '1234.56', isPaid: false });
    const paid = { ...p, isPaid: true, updatedAt: fx.tick() };
    const fact = reducePurchaseInvoice(stored(fx.purchaseUpdated(paid), fx.purchaseRecorded(p)));
    expect(fact).toMatchObject({ totalAmount: 123456n, gstAmount: 11223n, subtotal: 112233n, isPaid: true });
    expect(JSON.parse(fact?.gstRow ?? '')).toMatchObject({
      subtotal: '1122.33',
      gstAmount: '112.23',
      totalAmount: '1234.56',
      isPaid: true,
      source: 'purchase-invoice',
    });
    expect(reducePurchaseInvoice(stored(fx.purchaseRecorded(p), fx.purchaseDeleted(p)))).toBeNull();
  });

  it('derives an expense subtotal as amount − GST and marks its GST row as a business expense', () => {
    const e = fx.expense({ amount: '99.99', invoiceNumber: null });
    const fact = reduceExpense(stored(fx.expenseRecorded(e)));
    expect(fact).toMatchObject({ amount: 9999n, gstAmount: 909n, subtotal: 9090n });
    expect(JSON.parse(fact?.gstRow ?? '')).toEqual({
      invoiceNumber: null,
      supplierName: 'Ampol',
      subtotal: '90.90',
      gstAmount: '9.09',
      totalAmount: '99.99',
      invoiceDate: '2026-07-20',
      isPaid: true,
      source: 'business-expense',
    });
    expect(reduceExpense(stored(fx.expenseDeleted(e), fx.expenseRecorded(e)))).toBeNull();
  });
});

describe('job revenue facts', () => {
  it('recognises a completed job on the Perth date it was completed', () => {
    const j = fx.job({ customerValue: '129.80' });
    // 17:30 UTC on 30 June is 01:30 on 1 July in Perth.
    const fact = reduceJob(stored(...fx.completedJobEvents(j, '2026-06-30T17:30:00.000Z')));
    expect(fact).toMatchObject({
      status: 'completed',
      recognised: true,
      revenueDate: '2026-07-01',
      customerValue: 12980n,
    });
  });

  it('gives the same fact for every arrival order of the job events', () => {
    const j = fx.job();
    const events = [
      ...fx.completedJobEvents(j, '2026-07-02T02:00:00.000Z'),
      fx.statusChanged(j, 'completed', 'invoiced', '2026-07-02T03:00:00.000Z'),
      fx.statusChanged(j, 'invoiced', 'paid', '2026-07-03T03:00:00.000Z'),
    ];
    const facts = permutations(events).map((order) => reduceJob(stored(...order)));
    for (const f of facts)
      expect(f).toMatchObject({
        status: 'paid',
        recognised: true,
        revenueDate: '2026-07-02',
        completedAt: '2026-07-02T02:00:00.000Z',
      });
  });

  it('does not recognise new, in-progress or cancelled jobs, and drops deleted ones', () => {
    const j = fx.job();
    expect(reduceJob(stored(fx.bookingCreated(j)))).toMatchObject({
      status: 'new',
      recognised: false,
      revenueDate: null,
    });
    const started = [
      fx.bookingCreated(j, '2026-07-01T00:00:00Z'),
      fx.statusChanged(j, 'new', 'in-progress', '2026-07-01T01:00:00Z'),
    ];
    expect(reduceJob(stored(...started))).toMatchObject({ status: 'in-progress', recognised: false });
    expect(
      reduceJob(stored(...started, fx.statusChanged(j, 'in-progress', 'cancelled', '2026-07-01T02:00:00Z'))),
    ).toMatchObject({
      status: 'cancelled',
      recognised: false,
    });
    const done = fx.completedJobEvents(j, '2026-07-02T02:00:00.000Z');
    expect(reduceJob(stored(fx.jobDeleted(j, '2026-07-05T00:00:00Z'), ...done))).toBeNull();
  });

  it('moves the revenue date when a reopened job is completed again', () => {
    const j = fx.job();
    const events = [
      ...fx.completedJobEvents(j, '2026-07-02T02:00:00.000Z'),
      fx.statusChanged(j, 'completed', 'in-progress', '2026-07-03T02:00:00.000Z'),
    ];
    expect(reduceJob(stored(...events))).toMatchObject({ status: 'in-progress', recognised: false });
    const again = [...events, fx.statusChanged(j, 'in-progress', 'completed', '2026-07-09T02:00:00.000Z')];
    expect(reduceJob(stored(...again))).toMatchObject({ recognised: true, revenueDate: '2026-07-09' });
  });

  it('takes the latest value the jobs service reported, not the booking quote', () => {
    const j = fx.job({ customerValue: '89.80' });
    const repriced = { ...j, customerValue: '250.00' };
    // The booking's clock runs ahead: its createdAt sorts after the status change, yet it only fills gaps.
    const events = [
      fx.statusChanged(repriced, 'new', 'completed', '2026-07-01T01:00:00Z'),
      fx.bookingCreated(j, '2026-07-01T02:00:00Z'),
    ];
    expect(reduceJob(stored(...events))).toMatchObject({
      customerValue: 25000n,
      status: 'completed',
      recognised: true,
    });
  });

  it('has no fact until something says what the job is worth', () => {
    expect(reduceJob(stored(fx.jobRescheduled(fx.job())))).toBeNull();
  });
});

describe('aggregates', () => {
  it('files each event under the record it describes', () => {
    const s = fx.invoice();
    expect(aggregateOf(fx.invoiceDeleted(s))).toEqual({ type: 'customer-invoice', id: s.invoiceId });
    const j = fx.job();
    expect(aggregateOf(fx.jobCompleted(j))).toEqual({ type: 'job', id: j.jobId });
    expect(aggregateOf(fx.bookingCreated(j))).toEqual({ type: 'job', id: j.jobId });
  });
});

describe('affected days', () => {
  it('lists every date an aggregate was ever filed under, sorted', () => {
    const v1 = fx.invoice({ invoiceDate: '2026-07-31' });
    const v2 = { ...v1, invoiceDate: '2026-07-02', updatedAt: fx.tick() };
    expect(affectedDays(stored(fx.invoiceUpdated(v2), fx.invoiceIssued(v1), fx.invoiceDeleted(v1)))).toEqual([
      '2026-07-02',
      '2026-07-31',
    ]);
    const e = fx.expense({ expenseDate: '2026-08-01' });
    expect(affectedDays(stored(fx.expenseRecorded(e), fx.expenseDeleted(e)))).toEqual(['2026-08-01']);
    expect(affectedDays(stored(...fx.completedJobEvents(fx.job(), '2026-07-01T00:00:00Z')))).toEqual([]);
  });
});
