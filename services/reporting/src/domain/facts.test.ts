import fc from 'fast-check';
import { formatMoney, toCents } from '@tyres/kernel';
import * as fx from '../../test/fixtures/events';
import type { ConsumedEvent, StoredEvent } from './aggregates';
import { aggregateOf } from './aggregates';
import {
  affectedDays,
  isIssued,
  projectAggregate,
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
    expect(revenueLines(25000n, [{ category: 'tyre', totalPrice: '200.00' }], 'exclusive')).toEqual([
      { category: 'tyre', amount: 20000n },
      { category: 'uncategorised', amount: 5000n },
    ]);
    expect(revenueLines(10000n, [], 'exclusive')).toEqual([{ category: 'uncategorised', amount: 10000n }]);
    expect(revenueLines(0n, [{ category: 'note', totalPrice: '0.00' }], 'exclusive')).toEqual([]);
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

describe('customer invoice facts, v2 (amount type, GST-free lines, surcharge)', () => {
  it('reports a prepaid tax-inclusive invoice ex GST, the card surcharge as its own income stream', () => {
    // A puncture repair booked at 129.80 and paid by card: 1.7% surcharge 2.21 (2.2066), charged 132.01.
    const j = fx.job({ customerValue: '129.80' });
    const s = fx.prepaidInvoice(j, 'pi_test_1', { invoiceNumber: 'INV-0100' });
    const fact = reduceCustomerInvoice(stored(fx.invoiceIssuedV2(s)));
    expect(fact).toMatchObject({
      status: 'paid',
      issued: true,
      totalAmount: 13201n, // what the card was charged
      gstAmount: 1200n, // 132.01 ÷ 11 = 12.0009…
      subtotal: 12001n, // income: total − GST
    });
    expect(fact?.revenueLines).toEqual([
      { category: 'labour', amount: 11800n }, // 129.80 − 11.80
      { category: 'surcharge', amount: 201n }, // 2.21 − 0.20
    ]);
    expect(JSON.parse(fact?.gstRow ?? '')).toMatchObject({
      subtotal: '120.01',
      gstAmount: '12.00',
      totalAmount: '132.01',
    });
  });

  it('splits an inclusive invoice by category to the cent: GST-free lines keep their amount, the rounding cent goes to the largest category', () => {
    const s = fx.invoiceV2({
      amountType: 'inclusive',
      items: [
        { category: 'tyre', quantity: 1, unitPrice: '100.05' },
        { category: 'labour', quantity: 1, unitPrice: '100.05' },
        { category: 'callout', quantity: 1, unitPrice: '100.05' },
        { category: 'labour', quantity: 1, unitPrice: '50.00', gstFree: true },
      ],
    });
    const fact = reduceCustomerInvoice(stored(fx.invoiceIssuedV2(s)));
    // Taxable 300.15: GST 27.29 (27.286…); each category's share 9.10 (9.095…) adds up to 27.30, one cent too many.
    expect(fact).toMatchObject({ totalAmount: 35015n, gstAmount: 2729n, subtotal: 32286n });
    expect(fact?.revenueLines).toEqual([
      { category: 'callout', amount: 9095n },
      { category: 'labour', amount: 14095n }, // 100.05 − 9.10 + 50.00 GST-free
      { category: 'tyre', amount: 9096n }, // the first of the largest taxable categories takes the cent back
    ]);
  });

  it('adds GST on top of a tax-exclusive invoice, none on its GST-free lines', () => {
    const s = fx.invoiceV2({
      amountType: 'exclusive',
      items: [
        { category: 'tyre', quantity: 2, unitPrice: '100.00' },
        { category: 'labour', quantity: 1, unitPrice: '33.33', gstFree: true },
      ],
    });
    const fact = reduceCustomerInvoice(stored(fx.invoiceIssuedV2(s)));
    expect(fact).toMatchObject({ subtotal: 23333n, gstAmount: 2000n, totalAmount: 25333n });
    expect(fact?.revenueLines).toEqual([
      { category: 'labour', amount: 3333n },
      { category: 'tyre', amount: 20000n },
    ]);
  });

  it('reads v1 and v2 snapshots of one invoice as one history: the newest wins whatever its version', () => {
    const v1 = fx.invoice({
      status: 'sent',
      items: [{ category: 'tyre', quantity: 1, unitPrice: '200.00' }],
    }); // tax exclusive: 200.00 + 20.00
    const v2 = fx.invoiceV2({
      ...v1,
      amountType: 'exclusive',
      status: 'paid',
      items: [{ category: 'tyre', quantity: 1, unitPrice: '200.00' }],
      updatedAt: fx.tick(),
    });
    const events = [fx.invoiceIssued(v1), fx.invoiceUpdatedV2(v2)];
    for (const order of permutations(events))
      expect(reduceCustomerInvoice(stored(...order))).toMatchObject({
        status: 'paid',
        subtotal: 20000n,
        gstAmount: 2000n,
        totalAmount: 22000n,
        sourceEventId: events[1]?.id,
      });
    // An older v2 snapshot does not replace a newer v1 one.
    const olderV2 = { ...v2, updatedAt: '2020-01-01T00:00:00.000Z', status: 'cancelled' as const };
    expect(reduceCustomerInvoice(stored(fx.invoiceIssued(v1), fx.invoiceUpdatedV2(olderV2)))?.status).toBe(
      'sent',
    );
    // A delete is final for v2 snapshots too.
    expect(reduceCustomerInvoice(stored(fx.invoiceUpdatedV2(v2), fx.invoiceDeleted(v1)))).toBeNull();
  });

  it('files v2 events under their invoice and dates', () => {
    const s = fx.invoiceV2({ invoiceDate: '2026-08-01' });
    const moved = { ...s, invoiceDate: '2026-07-31', updatedAt: fx.tick() };
    expect(aggregateOf(fx.invoiceIssuedV2(s))).toEqual({ type: 'customer-invoice', id: s.invoiceId });
    expect(aggregateOf(fx.invoiceUpdatedV2(moved))).toEqual({ type: 'customer-invoice', id: s.invoiceId });
    expect(affectedDays(stored(fx.invoiceIssuedV2(s), fx.invoiceUpdatedV2(moved)))).toEqual([
      '2026-07-31',
      '2026-08-01',
    ]);
  });

  it('for any generated invoice: categories add up to the ex-GST subtotal, and subtotal + GST = total', () => {
    const line = fc.record({
      category: fc.constantFrom('callout', 'tyre', 'labour', 'battery', 'note', 'surcharge' as const),
      quantity: fc.integer({ min: 0, max: 5 }),
      unitPrice: fc.integer({ min: 0, max: 250_000 }).map((c) => formatMoney(BigInt(c))),
      gstFree: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        fc.constantFrom('inclusive' as const, 'exclusive' as const),
        (items, amountType) => {
          const fact = reduceCustomerInvoice(stored(fx.invoiceIssuedV2(fx.invoiceV2({ items, amountType }))));
          expect(fact).not.toBeNull();
          const lines = fact?.revenueLines ?? [];
          expect(lines.reduce((t, l) => t + l.amount, 0n)).toBe(fact?.subtotal);
          expect(lines.map((l) => l.category)).not.toContain('uncategorised');
          expect((fact?.subtotal ?? 0n) + (fact?.gstAmount ?? 0n)).toBe(fact?.totalAmount);
          const taxable = items
            .filter((i) => !i.gstFree)
            .reduce((t, i) => t + BigInt(i.quantity) * toCents(i.unitPrice), 0n);
          if (taxable === 0n) expect(fact?.gstAmount).toBe(0n);
        },
      ),
      { seed: 12, numRuns: 300 },
    );
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
      // The quoted price includes GST: 129.80 − 129.80 ÷ 11 (11.80) = 118.00 is revenue.
      valueExGst: 11800n,
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

  it('counts the ex-GST part of the job value as revenue (value − value ÷ 11, half-up)', () => {
    const valueExGst = (customerValue: string) =>
      reduceJob(stored(...fx.completedJobEvents(fx.job({ customerValue }), '2026-07-02T02:00:00.000Z')))
        ?.valueExGst;
    expect(valueExGst('100.00')).toBe(9091n); // GST 9.09 (9.0909…)
    expect(valueExGst('89.80')).toBe(8164n); // GST 8.16 (8.1636…)
    expect(valueExGst('0.06')).toBe(5n); // GST 0.01 (0.545… cents, half-up)
    expect(valueExGst('0.05')).toBe(5n); // GST 0.00 (0.4545… cents)
    expect(valueExGst('0.00')).toBe(0n);
  });

  it('has no fact until something says what the job is worth', () => {
    expect(reduceJob(stored(fx.jobRescheduled(fx.job())))).toBeNull();
  });
});

describe('job revenue facts: an admin edits the price (issue 19)', () => {
  it('takes the edited value, whatever order the events arrive in', () => {
    const j = fx.job({ serviceType: 'battery-service', customerValue: '0.00' });
    const events = [
      ...fx.completedJobEvents(j, '2026-07-02T02:00:00.000Z'),
      fx.jobUpdated(j, 1, '189.50', '2026-07-02T05:00:00.000Z'),
    ];
    for (const order of permutations(events))
      expect(reduceJob(stored(...order))).toMatchObject({
        recognised: true,
        customerValue: 18950n,
        // 189.50 − 189.50 ÷ 11 (17.23) = 172.27
        valueExGst: 17227n,
      });
  });

  it('a status change after the edit carries the edited value; one before it does not undo it', () => {
    const j = fx.job({ customerValue: '0.00' });
    const done = fx.completedJobEvents(j, '2026-07-02T02:00:00.000Z');
    const edited = fx.jobUpdated(j, 1, '50.00', '2026-07-02T01:00:00.000Z');
    const fact = reduceJob(stored(edited, ...done));
    // completedJobEvents carry the booked value (0.00) after the edit: the jobs service's later word wins.
    expect(fact?.customerValue).toBe(0n);
    expect(reduceJob(stored(...done, fx.jobUpdated(j, 2, '60.00', '2026-07-03T00:00:00.000Z')))?.customerValue).toBe(
      6000n,
    );
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

describe("an aggregate's fact, by type", () => {
  it('is the reducer of its type, tagged; none for payments or a deleted record', () => {
    const s = fx.invoice();
    const issued = stored(fx.invoiceIssued(s));
    expect(projectAggregate('customer-invoice', issued)).toEqual({
      type: 'customer-invoice',
      fact: reduceCustomerInvoice(issued),
    });
    const p = fx.purchase();
    expect(projectAggregate('purchase-invoice', stored(fx.purchaseRecorded(p)))?.type).toBe(
      'purchase-invoice',
    );
    expect(
      projectAggregate('purchase-invoice', stored(fx.purchaseRecorded(p), fx.purchaseDeleted(p))),
    ).toBeNull();
    const j = fx.job();
    expect(projectAggregate('job', stored(...fx.completedJobEvents(j, fx.tick())))?.type).toBe('job');
    expect(projectAggregate('payment', stored(fx.paymentSucceeded(j, 'pi_1')))).toBeNull();
  });
});
