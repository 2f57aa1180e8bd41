import { perthDate } from '@tyres/kernel';
import { startTestBilling, type TestBilling } from './helpers';

jest.setTimeout(120_000);

/**
 * The invoice list's `search=` runs as a union of per-table matches backed by pg_trgm indexes. Its answers must be
 * exactly those of the plain predicate it replaced: invoice number, job number or customer name ILIKE '%text%'
 * (wildcards literal), with the status and job filters, newest first, and the same X-Total-Count.
 */
describe('invoice list search (trigram indexes): same results as the plain ILIKE predicate', () => {
  let svc: TestBilling;
  let adminToken: string;
  const COUNT = 400;

  beforeAll(async () => {
    svc = await startTestBilling('billing-search');
    adminToken = svc.token(svc.admin);
    // Jobs and invoices inserted set-wise (as the benchmark does), with awkward names among them.
    await svc.sql(
      `INSERT INTO billing.job_snapshots (job_id, job_number, status, service_type, scheduled_date, time_slot, address,
         suburb, postcode, tyre_size, tyre_quantity, tyre_brand, customer_value, payment_method, payment_status,
         customer_name, customer_email, customer_phone, vehicle_make, vehicle_model, vehicle_year,
         vehicle_registration, booked_at, updated_at)
       SELECT gen_random_uuid(), 'JOB-' || lpad(g::text, 6, '0'), 'completed', 'new-tyres', date '2026-01-01' + (g % 300),
              '10-12 AM', g || ' Hay Street', 'Subiaco', '6008', '205/55R16', 4, 'Michelin', 805.80, 'onsite', 'pending',
              CASE g % 8 WHEN 0 THEN 'Zoë O''Brien ' || g WHEN 1 THEN 'ACME 100% Tyres ' || g
                         WHEN 2 THEN 'snake_case\\name ' || g ELSE 'Customer ' || g END,
              'c' || g || '@example.com', '0400' || lpad(g::text, 6, '0'), 'Toyota', 'Corolla', 2018, 'REG' || g, now(), now()
       FROM generate_series(1, $1::int) AS g`,
      COUNT,
    );
    await svc.sql(
      `INSERT INTO billing.customer_invoices (id, job_id, invoice_number, invoice_date, due_date, subtotal_amount,
         gst_amount, total_amount, status, created_at, updated_at)
       SELECT gen_random_uuid(), j.job_id, 'INV-' || lpad((900000 + row_number() OVER (ORDER BY j.job_number))::text, 6, '0'),
              date '2026-01-01', date '2026-01-01' + (row_number() OVER (ORDER BY j.job_number) % 700)::int,
              805.80, 80.58, 886.38,
              (ARRAY['draft','sent','paid','sent','cancelled'])[1 + (row_number() OVER (ORDER BY j.job_number) % 5)::int],
              now() - ((row_number() OVER (ORDER BY j.job_number)) % 37 || ' seconds')::interval, now()
       FROM billing.job_snapshots j`,
    );
  });
  afterAll(async () => {
    await svc?.stop();
  });

  /** The predicate the list used before the trigram rewrite, evaluated directly. */
  async function reference(search: string, status?: string) {
    const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const overdue = `(i.status = 'overdue' OR (i.status IN ('draft', 'sent') AND i.due_date < $2::date))`;
    const statusSql = !status
      ? ''
      : status === 'overdue'
        ? `AND ${overdue}`
        : `AND i.status = $3 AND NOT ${overdue}`;
    const rows = await svc.sql<{ id: string }>(
      `SELECT i.id FROM billing.customer_invoices i JOIN billing.job_snapshots j ON j.job_id = i.job_id
       WHERE (i.invoice_number ILIKE $1 OR j.job_number ILIKE $1 OR j.customer_name ILIKE $1) AND $2::date IS NOT NULL ${statusSql}
       ORDER BY i.created_at DESC, i.id DESC`,
      like,
      perthDate(svc.ctx.clock()),
      ...(status && status !== 'overdue' ? [status] : []),
    );
    return rows.map((r) => r.id);
  }

  it('answers the same invoices, in the same order, with the same total, for every kind of search text', async () => {
    const terms = [
      'customer 1',
      'CUSTOMER 12',
      'customer 99',
      'inv-9001',
      'INV-900',
      'job-0003',
      'JOB-00',
      '0001',
      'zoë',
      "o'brien",
      '100%',
      '%',
      '_',
      'snake_case',
      'case\\name',
      '\\',
      'e',
      'ab',
      'no such customer',
      ' Customer 7 ',
    ];
    for (const term of terms) {
      for (const status of [undefined, 'draft', 'overdue', 'cancelled']) {
        const query = new URLSearchParams({ search: term, limit: '500', ...(status ? { status } : {}) });
        const res = await svc
          .http()
          .get(`/api/dashboard/customer-invoices?${query}`)
          .set('x-identity-token', adminToken);
        expect(res.status).toBe(200);
        const expected = await reference(term.trim(), status);
        const got = (res.body as { id: string }[]).map((i) => i.id);
        expect({ term, status, got }).toEqual({ term, status, got: expected });
        expect({ term, status, total: Number(res.headers['x-total-count']) }).toEqual({
          term,
          status,
          total: expected.length,
        });
      }
    }
    // Paging a search: pages concatenate to the full answer.
    const all = await reference('customer');
    const pages: string[] = [];
    for (let offset = 0; offset < all.length; offset += 100) {
      const res = await svc
        .http()
        .get(`/api/dashboard/customer-invoices?search=customer&limit=100&offset=${offset}`)
        .set('x-identity-token', adminToken);
      expect(Number(res.headers['x-total-count'])).toBe(all.length);
      pages.push(...(res.body as { id: string }[]).map((i) => i.id));
    }
    expect(pages).toEqual(all);
  });

  it('the search can use the trigram indexes', async () => {
    const indexes = await svc.sql<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'billing' AND indexname LIKE '%trgm%' ORDER BY indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toEqual([
      'customer_invoices_invoice_number_trgm_idx',
      'job_snapshots_customer_name_trgm_idx',
      'job_snapshots_job_number_trgm_idx',
    ]);
    // On these small tables the planner prefers scans; without them it must be able to use the trigram indexes.
    const plan = await svc.ctx.db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      await tx.$executeRawUnsafe('SET LOCAL enable_indexscan = off');
      return tx.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN SELECT s.id FROM billing.customer_invoices s WHERE s.invoice_number ILIKE '%900123%'
         UNION SELECT s.id FROM billing.job_snapshots sj JOIN billing.customer_invoices s ON s.job_id = sj.job_id
         WHERE sj.job_number ILIKE '%customer 99%' OR sj.customer_name ILIKE '%customer 99%'`,
      );
    });
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('customer_invoices_invoice_number_trgm_idx');
    expect(text).toContain('job_snapshots_customer_name_trgm_idx');
    expect(text).toContain('job_snapshots_job_number_trgm_idx');
  });
});
