/**
 * The event pipeline's edges: snapshots out of order and all at once, deletes, poison messages, and the HTTP
 * contract (admin only, 400 on bad periods). Each test works in its own month so they do not see each other.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createEvent, CustomerInvoiceIssuedV1 } from '@tyres/events';
import { waitForExpect } from '@tyres/testkit';
import { signIdentity } from '@tyres/service-kit';
import * as fx from '../fixtures/events';
import { keyPair, settled, startTestReporting, type TestReporting } from './harness';

jest.setTimeout(60_000);

let r: TestReporting;

beforeAll(async () => {
  r = await startTestReporting('reporting-pipeline');
});

afterAll(async () => {
  await r?.stop();
});

const month = (m: string) => `?startDate=${m}-01&endDate=${m}-28`;

describe('out-of-order and concurrent delivery', () => {
  it('keeps the newest invoice snapshot when updates arrive before the issue', async () => {
    const v1 = fx.invoice({
      invoiceNumber: 'OOO-1',
      status: 'draft',
      invoiceDate: '2025-01-10',
      items: [{ category: 'tyre', quantity: 1, unitPrice: '100.00' }],
    });
    const v2 = { ...v1, status: 'sent' as const, updatedAt: fx.tick() };
    const v3 = {
      ...v2,
      status: 'paid' as const,
      items: [{ category: 'tyre' as const, quantity: 2, unitPrice: '100.00' }],
      updatedAt: fx.tick(),
    };
    await r.publish([fx.invoiceUpdated(v3, ['status', 'items']), fx.invoiceIssued(v1)]);
    let gst = await r.get(`/api/dashboard/reports/gst${month('2025-01')}`);
    expect(gst.body.customerInvoices).toEqual([
      {
        invoiceNumber: 'OOO-1',
        customerName: 'Sam Driver',
        subtotal: '200.00',
        gstAmount: '20.00',
        totalAmount: '220.00',
        issueDate: '2025-01-10',
        status: 'paid',
      },
    ]);
    // The middle snapshot, arriving last, is older than what is held: nothing changes.
    await r.publish([fx.invoiceUpdated(v2)]);
    gst = await r.get(`/api/dashboard/reports/gst${month('2025-01')}`);
    expect(gst.body).toMatchObject({ gstCollected: '20.00' });
    expect(gst.body.customerInvoices[0].status).toBe('paid');
  });

  it('moves an invoice between periods when its date changes, whatever the order', async () => {
    const v1 = fx.invoice({
      invoiceNumber: 'MOVE-1',
      status: 'sent',
      invoiceDate: '2025-02-27',
      items: [{ category: 'labour', quantity: 1, unitPrice: '50.00' }],
    });
    const v2 = { ...v1, invoiceDate: '2025-03-02', updatedAt: fx.tick() };
    await r.publish([fx.invoiceUpdated(v2, ['invoiceDate']), fx.invoiceIssued(v1)]);
    expect((await r.get(`/api/dashboard/reports/gst${month('2025-02')}`)).body.gstCollected).toBe('0.00');
    expect((await r.get(`/api/dashboard/reports/gst${month('2025-03')}`)).body.gstCollected).toBe('5.00');
  });

  it('applies purchase and expense snapshots out of order (paid before recorded)', async () => {
    const p = fx.purchase({
      invoiceNumber: 'OOO-P',
      invoiceDate: '2025-04-03',
      dueDate: '2025-05-03',
      totalAmount: '220.00',
      isPaid: false,
    });
    const paid = { ...p, isPaid: true, updatedAt: fx.tick() };
    const e = fx.expense({
      expenseDate: '2025-04-04',
      amount: '55.00',
      isPaid: false,
      dueDate: '2025-04-30',
    });
    const ePaid = { ...e, isPaid: true, updatedAt: fx.tick() };
    await r.publish([
      fx.purchaseUpdated(paid),
      fx.expenseUpdated(ePaid),
      fx.purchaseRecorded(p),
      fx.expenseRecorded(e),
    ]);
    const res = await r.get(`/api/dashboard/reports/purchases-payables${month('2025-04')}`);
    expect(res.body).toMatchObject({
      totalPurchases: '275.00',
      totalPaid: '275.00',
      totalPayables: '0.00',
      overduePurchases: '0.00',
      upcomingPayments: [],
    });
  });

  it('ends on the newest of 30 snapshots of one invoice published at once in random order', async () => {
    const base = fx.invoice({
      invoiceNumber: 'BURST-1',
      status: 'sent',
      invoiceDate: '2025-05-15',
      items: [{ category: 'labour', quantity: 1, unitPrice: '1.00' }],
    });
    const versions = Array.from({ length: 30 }, (_, i) => ({
      ...base,
      items: [{ category: 'labour' as const, quantity: i + 1, unitPrice: '1.00' }],
      updatedAt: fx.tick(),
    }));
    const shuffled = versions
      .map((v, i) => (i === 0 ? fx.invoiceIssued(v) : fx.invoiceUpdated(v, ['items'])))
      .sort(() => Math.random() - 0.5);
    await r.publish(shuffled);
    await settled(r);
    const res = await r.get(`/api/dashboard/reports/gst${month('2025-05')}`);
    expect(res.body.customerInvoices).toHaveLength(1);
    expect(res.body.customerInvoices[0]).toMatchObject({ subtotal: '30.00', gstAmount: '3.00' });
    const facts = await r.sql<{ n: bigint }>(
      `SELECT count(*) AS n FROM "reporting"."customer_invoice_revenue_facts" WHERE "invoice_id" = $1::uuid`,
      base.invoiceId,
    );
    expect(Number(facts[0]?.n)).toBe(1);
  });

  it('keeps every row of a day when many records of that day arrive at once (day summaries)', async () => {
    const invoices = Array.from({ length: 40 }, (_, i) =>
      fx.invoice({
        invoiceNumber: `DAY-${String(i).padStart(2, '0')}`,
        status: 'sent',
        invoiceDate: '2025-05-20',
        items: [{ category: i % 2 ? 'tyre' : 'labour', quantity: 1, unitPrice: '10.00' }],
      }),
    );
    const expenses = Array.from({ length: 20 }, () =>
      fx.expense({ expenseDate: '2025-05-20', amount: '11.00', category: 'fuel' }),
    );
    await r.publish(
      [...invoices.map(fx.invoiceIssued), ...expenses.map(fx.expenseRecorded)].sort(
        () => Math.random() - 0.5,
      ),
    );
    await settled(r);
    const gst = await r.get('/api/dashboard/reports/gst?startDate=2025-05-20&endDate=2025-05-20');
    expect(gst.body).toMatchObject({ gstCollected: '40.00', gstPaid: '20.00', netGST: '20.00' });
    expect(gst.body.customerInvoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual(
      invoices.map((i) => i.invoiceNumber),
    );
    expect(gst.body.purchaseInvoices).toHaveLength(20);
    const pl = await r.get('/api/dashboard/reports/enhanced-pl?startDate=2025-05-20&endDate=2025-05-20');
    expect(pl.body.revenue.customerInvoices).toBe('400.00');
    expect(pl.body.breakdown.topRevenueStreams).toEqual([
      { category: 'labour', amount: '200.00', percentage: '50.00' },
      { category: 'tyre', amount: '200.00', percentage: '50.00' },
    ]);
    expect(pl.body.expenses.businessExpenses).toBe('200.00');
  });

  it('replays job transitions in the order they happened, not the order they arrived', async () => {
    const j = fx.job({ serviceType: 'puncture-repair', customerValue: '129.80' });
    const [booked, started, completedStatus, completed] = fx.completedJobEvents(
      j,
      '2025-06-10T02:00:00.000Z',
    );
    const paid = fx.statusChanged(j, 'completed', 'paid', '2025-06-11T02:00:00.000Z');
    await r.publish([paid, completed!, started!, booked!, completedStatus!]);
    const pl = await r.get(`/api/dashboard/reports/enhanced-pl${month('2025-06')}`);
    // 129.80 includes 11.80 GST.
    expect(pl.body.revenue).toEqual({
      customerInvoices: '0.00',
      jobRevenue: '118.00',
      totalRevenue: '118.00',
    });
  });
});

describe('prepaid bookings (issue 12)', () => {
  it('counts a prepaid job once: its paid invoice (surcharge included) is the income, not the payment or the job', async () => {
    // New tyres booked online at 1,254.00 (prepaid price), card surcharge 1.7% = 21.32 (21.318), charged 1,275.32.
    const j = fx.job({ serviceType: 'new-tyres', customerValue: '1254.00', scheduledDate: '2025-10-14' });
    const inv = fx.prepaidInvoice(j, 'pi_test_prepaid', {
      invoiceNumber: 'PRE-1',
      invoiceDate: '2025-10-10',
      updatedAt: '2025-10-10T02:00:01.000Z',
    });
    await r.publish([
      fx.paymentSucceeded(j, 'pi_test_prepaid', '2025-10-10T02:00:00.000Z'),
      fx.bookingCreated(j, '2025-10-10T02:00:00.500Z'),
      fx.invoiceIssuedV2(inv),
      ...fx.completedJobEvents(j, '2025-10-14T03:00:00.000Z').slice(1),
      fx.statusChanged(j, 'completed', 'paid', '2025-10-14T03:05:00.000Z'),
    ]);
    const pl = await r.get('/api/dashboard/reports/enhanced-pl?startDate=2025-10-01&endDate=2025-10-31');
    // Income = the invoice's ex-GST amount: 1275.32 − 115.94 (1275.32 ÷ 11 = 115.938…) = 1159.38.
    expect(pl.body.revenue).toEqual({
      customerInvoices: '1159.38',
      jobRevenue: '0.00',
      totalRevenue: '1159.38',
    });
    expect(pl.body.breakdown.topRevenueStreams).toEqual([
      { category: 'labour', amount: '1140.00', percentage: '98.33' }, // 1254.00 − 114.00
      { category: 'surcharge', amount: '19.38', percentage: '1.67' }, // 21.32 − 1.94
    ]);
    const gst = await r.get('/api/dashboard/reports/gst?startDate=2025-10-01&endDate=2025-10-31');
    expect(gst.body).toMatchObject({ gstCollected: '115.94', gstPaid: '0.00', netGST: '115.94' });
    expect(gst.body.customerInvoices).toEqual([
      {
        invoiceNumber: 'PRE-1',
        customerName: 'Sam Driver',
        subtotal: '1159.38',
        gstAmount: '115.94',
        totalAmount: '1275.32',
        issueDate: '2025-10-10',
        status: 'paid',
      },
    ]);
  });
});

describe('deletes', () => {
  it('drops a deleted invoice from every report, and a late snapshot does not bring it back', async () => {
    const j = fx.job({ customerValue: '300.00', serviceType: 'new-tyres' });
    const inv = fx.invoice({
      invoiceNumber: 'DEL-1',
      jobId: j.jobId,
      status: 'sent',
      invoiceDate: '2025-07-08',
      items: [{ category: 'tyre', quantity: 1, unitPrice: '300.00' }],
    });
    const keep = fx.invoice({
      invoiceNumber: 'KEEP-1',
      status: 'sent',
      invoiceDate: '2025-07-09',
      items: [{ category: 'labour', quantity: 1, unitPrice: '20.00' }],
    });
    await r.publish([
      ...fx.completedJobEvents(j, '2025-07-07T02:00:00.000Z'),
      fx.invoiceIssued(inv),
      fx.invoiceIssued(keep),
    ]);

    let gst = await r.get(`/api/dashboard/reports/gst${month('2025-07')}`);
    expect(gst.body.gstCollected).toBe('32.00');
    let pl = await r.get(`/api/dashboard/reports/enhanced-pl${month('2025-07')}`);
    // The job is invoiced: its revenue counts once, through the invoice.
    expect(pl.body.revenue).toEqual({
      customerInvoices: '320.00',
      jobRevenue: '0.00',
      totalRevenue: '320.00',
    });

    const late = { ...inv, status: 'paid' as const, updatedAt: fx.tick(60_000) };
    await r.publish([fx.invoiceDeleted(inv), fx.invoiceUpdated(late)]);
    gst = await r.get(`/api/dashboard/reports/gst${month('2025-07')}`);
    expect(gst.body.gstCollected).toBe('2.00');
    expect(gst.body.customerInvoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual([
      'KEEP-1',
    ]);
    pl = await r.get(`/api/dashboard/reports/enhanced-pl${month('2025-07')}`);
    // Without its invoice, the completed job's value is revenue again (uninvoiced): 300.00 less its GST 27.27.
    expect(pl.body.revenue).toEqual({
      customerInvoices: '20.00',
      jobRevenue: '272.73',
      totalRevenue: '292.73',
    });
  });

  it('drops deleted purchases, expenses and jobs', async () => {
    const p = fx.purchase({ invoiceDate: '2025-08-05', totalAmount: '110.00' });
    const e = fx.expense({ expenseDate: '2025-08-06', amount: '22.00' });
    const j = fx.job({ customerValue: '89.80', serviceType: 'emergency-callout' });
    await r.publish([
      fx.purchaseRecorded(p),
      fx.expenseRecorded(e),
      ...fx.completedJobEvents(j, '2025-08-07T02:00:00.000Z'),
    ]);
    let pl = await r.get(`/api/dashboard/reports/enhanced-pl${month('2025-08')}`);
    expect(pl.body).toMatchObject({
      revenue: { totalRevenue: '81.64' }, // 89.80 less its GST 8.16
      expenses: { jobCosts: '100.00', businessExpenses: '20.00' },
    });
    await r.publish([fx.purchaseDeleted(p), fx.expenseDeleted(e), fx.jobDeleted(j)]);
    pl = await r.get(`/api/dashboard/reports/enhanced-pl${month('2025-08')}`);
    expect(pl.body).toMatchObject({ revenue: { totalRevenue: '0.00' }, expenses: { totalExpenses: '0.00' } });
    const payables = await r.get(`/api/dashboard/reports/purchases-payables${month('2025-08')}`);
    expect(payables.body).toMatchObject({
      totalPurchases: '0.00',
      purchasesBySupplier: [],
      purchasesByCategory: [],
    });
  });
});

describe('GST day blocks (cached by the route by revision)', () => {
  const nov = `/api/dashboard/reports/gst${month('2025-11')}`;
  const revision = async (day: string) =>
    (
      await r.sql<{ revision: string }>(
        `SELECT "revision"::text AS revision FROM "reporting"."gst_day_blocks" WHERE "kind" = 'customer' AND "day" = $1::date`,
        day,
      )
    )[0]?.revision;
  const numbers = (body: { customerInvoices: { invoiceNumber: string; totalAmount: string }[] }) =>
    body.customerInvoices.map((i) => `${i.invoiceNumber} ${i.totalAmount}`);

  it('always answers the current blocks: changed, emptied and refilled days, in a period and over all time', async () => {
    const c1 = fx.invoice({
      invoiceNumber: 'CACHE-1',
      status: 'sent',
      invoiceDate: '2025-11-03',
      items: [{ category: 'tyre', quantity: 1, unitPrice: '100.00' }],
    });
    const c2 = fx.invoice({
      invoiceNumber: 'CACHE-2',
      status: 'sent',
      invoiceDate: '2025-11-04',
      items: [{ category: 'labour', quantity: 1, unitPrice: '40.00' }],
    });
    await r.publish([fx.invoiceIssued(c1), fx.invoiceIssued(c2)]);
    // Both requests put the blocks in the cache.
    expect(numbers((await r.get(nov)).body)).toEqual(['CACHE-1 110.00', 'CACHE-2 44.00']);
    expect(numbers((await r.get('/api/dashboard/reports/gst')).body)).toEqual(
      expect.arrayContaining(['CACHE-1 110.00', 'CACHE-2 44.00']),
    );
    const rev3 = await revision('2025-11-03');
    const rev4 = await revision('2025-11-04');

    // A changed invoice: its day gets a new revision, the other day keeps its own.
    const c1b = {
      ...c1,
      items: [{ category: 'tyre' as const, quantity: 2, unitPrice: '100.00' }],
      updatedAt: fx.tick(),
    };
    await r.publish([fx.invoiceUpdated(c1b, ['items'])]);
    expect(await revision('2025-11-03')).not.toBe(rev3);
    expect(await revision('2025-11-04')).toBe(rev4);
    let gst = await r.get(nov);
    expect(gst.body.gstCollected).toBe('24.00');
    expect(numbers(gst.body)).toEqual(['CACHE-1 220.00', 'CACHE-2 44.00']);
    const all = await r.get('/api/dashboard/reports/gst');
    expect(numbers(all.body)).toEqual(expect.arrayContaining(['CACHE-1 220.00', 'CACHE-2 44.00']));
    expect(numbers(all.body)).not.toContain('CACHE-1 110.00');

    // A new snapshot that changes nothing the report shows keeps the day's revision (the cached bytes stay valid).
    const rev3b = await revision('2025-11-03');
    await r.publish([fx.invoiceUpdated({ ...c1b, updatedAt: fx.tick() }, [])]);
    expect(await revision('2025-11-03')).toBe(rev3b);

    // The day emptied (its block is gone), then filled again (a new block): never the cached bytes of before.
    await r.publish([fx.invoiceDeleted(c1b)]);
    expect(await revision('2025-11-03')).toBeUndefined();
    gst = await r.get(nov);
    expect(numbers(gst.body)).toEqual(['CACHE-2 44.00']);
    expect(gst.body.gstCollected).toBe('4.00');
    const c3 = fx.invoice({
      invoiceNumber: 'CACHE-3',
      status: 'paid',
      invoiceDate: '2025-11-03',
      items: [{ category: 'battery', quantity: 1, unitPrice: '150.00' }],
    });
    await r.publish([fx.invoiceIssued(c3)]);
    gst = await r.get(nov);
    expect(numbers(gst.body)).toEqual(['CACHE-3 165.00', 'CACHE-2 44.00']);
    expect(gst.body.gstCollected).toBe('19.00');
    // The body is valid JSON of exactly its Content-Length.
    expect(Number(gst.headers.get('content-length'))).toBe(Buffer.byteLength(gst.text));
  });
});

describe('poison messages', () => {
  it('dead-letters malformed and contract-breaking messages without storing anything', async () => {
    const before = await r.storedCount();
    const exchange = `${r.prefix}tyres.events`;
    const dlq = `${r.prefix}reporting.dlq`;
    const dlqBefore = (await r.rabbit.messageCount(dlq)) ?? 0;

    const valid = createEvent(
      CustomerInvoiceIssuedV1,
      {
        ...fx.invoiceSnapshot(fx.invoice({ invoiceDate: '2025-09-01' })),
        issuedAt: new Date().toISOString(),
      },
      { source: 'billing', correlationId: randomUUID() },
    );
    const badMoney = { ...valid, id: randomUUID(), data: { ...valid.data, gstAmount: '12.5' } };
    const unknownVersion = { ...valid, id: randomUUID(), type: 'customer-invoice.issued.v9', version: 9 };
    await r.rabbit.publish(exchange, 'customer-invoice.issued.v1', 'this is not json {');
    await r.rabbit.publish(exchange, 'customer-invoice.issued.v1', JSON.stringify(badMoney));
    await r.rabbit.publish(exchange, 'customer-invoice.issued.v1', JSON.stringify(unknownVersion));

    await waitForExpect(async () => expect(await r.rabbit.messageCount(dlq)).toBe(dlqBefore + 3), {
      timeoutMs: 15_000,
    });
    expect(await r.storedCount()).toBe(before);
    expect((await r.get(`/api/dashboard/reports/gst${month('2025-09')}`)).body.customerInvoices).toEqual([]);
    const dead = await r.rabbit.peek(dlq, 3);
    expect(dead.map((m) => m.properties.headers?.['x-dead-letter-reason'])).toEqual(
      expect.arrayContaining(['malformed-json', 'invalid-data', 'unknown-version']),
    );

    // The consumer is still healthy: the valid event goes through.
    await r.publish([valid]);
    expect((await r.get(`/api/dashboard/reports/gst${month('2025-09')}`)).body.customerInvoices).toHaveLength(
      1,
    );
  });
});

describe('batches', () => {
  it('applies copies of one event in one batch once, with the batch around it', async () => {
    const invoice = fx.invoiceIssued(fx.invoice({ invoiceDate: '2025-12-04', status: 'sent' }));
    const others = [5, 6, 7].map((d) =>
      fx.invoiceIssued(fx.invoice({ invoiceDate: `2025-12-0${d}`, status: 'sent' })),
    );
    // Three copies of the same envelope published together (an outbox republish, a broker redelivery).
    await r.publish([invoice, invoice, ...others, invoice], { expectStored: 4 });
    await settled(r);
    const ids = await r.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM "reporting"."events" WHERE "event_id" = $1::uuid',
      invoice.id,
    );
    expect(ids[0]?.n).toBe(1);
    await waitForExpect(async () =>
      expect(
        (await r.get(`/api/dashboard/reports/gst${month('2025-12')}`)).body.customerInvoices,
      ).toHaveLength(4),
    );
  });

  it('folds a batch while another replica has marked the same day and its refresher holds it, and refreshes the day after (issue 16)', async () => {
    const day = '2025-08-14';
    const other = new pg.Client({ connectionString: r.database.url });
    await other.connect();
    const inv = fx.invoice({
      invoiceNumber: 'MARK-1',
      status: 'sent',
      invoiceDate: day,
      items: [{ category: 'labour', quantity: 1, unitPrice: '40.00' }],
    });
    try {
      await other.query('BEGIN');
      // Another replica's batch has marked the day and not committed yet (a unique (kind, day) mark made every
      // batch touching that day wait for it)...
      await other.query(
        `INSERT INTO "reporting"."dirty_days" ("kind", "day") VALUES ('customer', $1::date)`,
        [day],
      );
      // ...and another replica's refresher is recomputing that day (its per-day lock).
      await other.query(
        `SELECT pg_advisory_xact_lock(hashtextextended('reporting:dirty-day:customer:' || $1::text, 0))`,
        [day],
      );
      const before = await r.storedCount();
      await r.publisher.publish(fx.invoiceIssued(inv));
      // Folded without waiting for the other transaction.
      await waitForExpect(async () => expect(await r.storedCount()).toBe(before + 1), { timeoutMs: 10_000 });
      // This replica's refresher skips the day the other one holds: still marked, its summary not recomputed yet.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const marks = await r.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM "reporting"."dirty_days" WHERE "kind" = 'customer' AND "day" = $1::date`,
        day,
      );
      expect(marks[0]?.n).toBe(1);
      const gst = await r.get(`/api/dashboard/reports/gst?startDate=${day}&endDate=${day}`);
      expect(gst.body.customerInvoices).toEqual([]);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    // Released: the day is recomputed with the invoice, and its mark cleared.
    await settled(r);
    const gst = await r.get(`/api/dashboard/reports/gst?startDate=${day}&endDate=${day}`);
    expect(gst.body).toMatchObject({ gstCollected: '4.00' });
    expect(gst.body.customerInvoices.map((i: { invoiceNumber: string }) => i.invoiceNumber)).toEqual([
      'MARK-1',
    ]);
  });

  it('exports the pipeline lag metrics on /metrics', async () => {
    const res = await fetch(`${r.baseUrl}/metrics`);
    const text = await res.text();
    for (const name of [
      'outbox_backlog_events',
      'outbox_oldest_pending_age_seconds',
      'outbox_published_events_total',
      'event_consumer_queue_depth',
      'event_consumer_oldest_unhandled_age_seconds',
      'event_consumer_lag_seconds_count',
      'event_consumer_messages_total',
    ])
      expect([name, text.includes(`\n${name}`)]).toEqual([name, true]);
    expect(text).toMatch(/event_consumer_queue_depth\{service="reporting"\} 0/);
  });
});

describe('HTTP', () => {
  const routes = ['gst', 'purchases-payables', 'enhanced-pl'].map((p) => `/api/dashboard/reports/${p}`);

  it('is for admins only', async () => {
    for (const route of routes) {
      expect((await r.get(route, null)).status).toBe(401);
      const tech = await r.get(route, r.technician);
      expect(tech.status).toBe(403);
      expect(tech.body).toMatchObject({ code: 'forbidden' });
      // An identity signed by anyone but the gateway is refused.
      const forged = await fetch(r.baseUrl + route, {
        headers: { 'x-identity-token': signIdentity(keyPair().privateKey, r.admin) },
      });
      expect(forged.status).toBe(401);
      // An expired or unreadable token is refused, and no other header is trusted as an identity.
      const expired = await fetch(r.baseUrl + route, {
        headers: { 'x-identity-token': r.expiredToken(r.admin) },
      });
      expect(expired.status).toBe(401);
      const garbage = await fetch(r.baseUrl + route, { headers: { 'x-identity-token': 'not-a-jwt' } });
      expect(garbage.status).toBe(401);
      const headersOnly = await fetch(r.baseUrl + route, {
        headers: { 'x-user-role': 'admin', 'x-user-id': r.admin.id, authorization: 'Bearer x' },
      });
      expect(headersOnly.status).toBe(401);
      expect((await r.get(route)).status).toBe(200);
    }
  });

  it('answers 400 for malformed dates and for a start after the end', async () => {
    for (const route of routes) {
      const cases: [string, string][] = [
        ['?startDate=2025-02-30', 'startDate must be a date in the format YYYY-MM-DD'],
        ['?endDate=31/12/2025', 'endDate must be a date in the format YYYY-MM-DD'],
        ['?startDate=2025-1-1', 'startDate must be a date in the format YYYY-MM-DD'],
        ['?startDate=2025-01-01T00:00:00Z', 'startDate must be a date in the format YYYY-MM-DD'],
        ['?startDate=2025-01-01&startDate=2025-02-01', 'startDate must be a date in the format YYYY-MM-DD'],
        ['?startDate=2025-10-01&endDate=2025-09-30', 'startDate must be on or before endDate'],
      ];
      for (const [query, message] of cases) {
        const res = await r.get(route + query);
        expect([query, res.status, res.body?.message]).toEqual([query, 400, message]);
      }
      expect((await r.get(`${route}?startDate=2025-09-30&endDate=2025-09-30`)).status).toBe(200);
      expect((await r.get(`${route}?startDate=&endDate=`)).status).toBe(200);
    }
  });

  it('answers 404 for unknown report paths', async () => {
    expect((await r.get('/api/dashboard/reports/cashflow')).status).toBe(404);
  });
});
