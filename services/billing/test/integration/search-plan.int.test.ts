import { Pool } from 'pg';
import { migratedServiceDatabase, type TestDatabase } from '@tyres/testkit';
import type { Db } from '../../src/db/client';
import { invoiceListPage, type InvoiceListFilters } from '../../src/db/customer-invoices';

jest.setTimeout(90_000);

const INVOICES = 100_000;
const TODAY = '2026-11-25';
const FIRST_NAMES = [
  'Olivia',
  'Jack',
  'Charlotte',
  'Noah',
  'Amelia',
  'William',
  'Isla',
  'Oliver',
  'Mia',
  'Leo',
];
const SURNAMES = [
  'Smith',
  'Jones',
  'Williams',
  'Brown',
  'Wilson',
  'Taylor',
  'Johnson',
  'White',
  'Martin',
  'Anderson',
];
const SURNAMES_2 = [
  'Nguyen',
  'Walker',
  'Harris',
  'Lee',
  'Ryan',
  'Robinson',
  'Kelly',
  'King',
  'Davis',
  'Wright',
];
const SURNAMES_3 = [
  'Evans',
  'Roberts',
  'Green',
  'Hall',
  'Wood',
  'Jackson',
  'Clarke',
  'Patel',
  'Khan',
  'Lewis',
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The exact statement invoiceListPage sends for `filters`, captured instead of run. */
async function statementOf(filters: Omit<InvoiceListFilters, 'limit' | 'offset'>) {
  let captured: { sql: string; params: unknown[] } | undefined;
  const db = {
    $queryRawUnsafe: (sql: string, ...params: unknown[]) => {
      captured = { sql, params };
      return Promise.resolve([]);
    },
  } as unknown as Db;
  await invoiceListPage(db, { ...filters, limit: 50, offset: 0 }, TODAY);
  return captured!;
}

/**
 * The invoice search at 10× today's data (issue 16: p99 < 150 ms through the gateway with 100,000 invoices): the
 * exact statement the list sends for a number prefix and for a customer name fragment (rare and common, alone and
 * with a status) finds its matches through the trigram indexes and the job_id index, never reads or sorts every
 * invoice, and answers the same rows and total as the plain predicate.
 */
describe('invoice search plans at 100,000 invoices', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await migratedServiceDatabase('billing', 'billing-search-plan');
    pool = new Pool({ connectionString: database.url, max: 2 });
    const names = [
      ...SURNAMES,
      ...SURNAMES_2,
      ...SURNAMES_3,
      'OConnor',
      'Cooper',
      'Morris',
      'Ward',
      'Hughes',
    ];
    const name = (g: string) =>
      `(ARRAY['${FIRST_NAMES.join("','")}'])[1 + ${g} % 10] || ' ' || (ARRAY['${names.join("','")}'])[1 + (${g} / 10) % 35]`;
    // A thousand-odd customers' names over 100,000 jobs, one invoice each, newest first by number.
    await pool.query(
      `INSERT INTO billing.job_snapshots (job_id, job_number, status, service_type, scheduled_date, time_slot, address,
         suburb, postcode, customer_value, payment_method, payment_status, customer_name, customer_email,
         customer_phone, vehicle_make, vehicle_model, vehicle_year, vehicle_registration, booked_at, updated_at)
       SELECT gen_random_uuid(), 'JOB-' || lpad(g::text, 6, '0'), 'invoiced', 'new-tyres', date '2026-01-01' + g % 300,
              '10-12 AM', g || ' Hay Street', 'Subiaco', '6008', 805.80, 'onsite', 'pending', ${name('g')} || ' ' || g % 11,
              'c' || g || '@example.com', '0400' || lpad(g::text, 6, '0'), 'Toyota', 'Corolla', 2018, 'REG' || g, now(), now()
       FROM generate_series(1, ${INVOICES}) AS g`,
    );
    await pool.query(
      `INSERT INTO billing.customer_invoices (id, job_id, invoice_number, invoice_date, due_date, subtotal_amount,
         gst_amount, total_amount, status, created_at, updated_at)
       SELECT gen_random_uuid(), job_id, 'INV-' || lpad(n::text, 6, '0'), date '2026-01-01' + n % 300,
              date '2026-01-31' + n % 300, 805.80, 80.58, 886.38,
              (ARRAY['draft', 'sent', 'paid', 'paid', 'paid', 'cancelled'])[1 + n % 6],
              timestamptz '2026-11-25T00:00:00Z' - (${INVOICES} - n) * interval '10 minutes', now()
       FROM (SELECT job_id, substr(job_number, 5)::int AS n FROM billing.job_snapshots) j`,
    );
    await pool.query('VACUUM ANALYZE billing.job_snapshots');
    await pool.query('VACUUM ANALYZE billing.customer_invoices');
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const cases: [string, Omit<InvoiceListFilters, 'limit' | 'offset'>][] = [
    ['number prefix', { search: 'INV-0123' }],
    ['number prefix, paid', { search: 'INV-0456', status: 'paid' }],
    ['broad number prefix (10% of invoices)', { search: 'INV-09' }],
    ['job number', { search: 'JOB-09876' }],
    ['digits of both an invoice number and its job number', { search: '01234' }],
    ['rare name fragment', { search: 'olivia smith 3' }],
    ['common name fragment (1 in 35 customers)', { search: 'Patel' }],
    ['common name fragment, overdue', { search: 'Patel', status: 'overdue' }],
    ['common first name (1 in 10 customers)', { search: 'charlotte' }],
  ];

  it.each(cases)(
    '%s: trigram and job_id indexes, no sequential scan or whole-table sort',
    async (_name, filters) => {
      const { sql, params } = await statementOf(filters);
      const [row] = (await pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows as {
        'QUERY PLAN': { Plan: PlanNode }[];
      }[];
      const nodes = nodesOf(row!['QUERY PLAN'][0]!.Plan);
      expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
      const indexes = nodes.map((n) => n['Index Name']).filter(Boolean);
      expect(indexes).toEqual(
        expect.arrayContaining([
          'customer_invoices_invoice_number_trgm_idx',
          'job_snapshots_job_number_trgm_idx',
          'job_snapshots_customer_name_trgm_idx',
          'customer_invoices_job_id_idx',
        ]),
      );
      // The page is ordered over the matches only; its invoices and jobs are then fetched by primary key.
      for (const sort of nodes.filter((n) => n['Node Type'] === 'Sort'))
        expect(nodesOf(sort).filter((n) => n['Relation Name'])).toEqual([]);
      for (const node of nodes.filter(
        (n) => n['Node Type'] === 'Index Scan' && n['Index Name']?.endsWith('_pkey'),
      ))
        expect(['customer_invoices', 'job_snapshots']).toContain(node['Relation Name']);
    },
  );

  it.each(cases)('%s: the same page and total as the plain predicate', async (_name, filters) => {
    const { sql, params } = await statementOf(filters);
    const [page] = (await pool.query<{ total: number; json: string }>(sql, params)).rows;
    const like = `%${filters.search!.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const overdue = `(i.status = 'overdue' OR (i.status IN ('draft', 'sent') AND i.due_date < $2::date))`;
    const status = !filters.status
      ? ''
      : filters.status === 'overdue'
        ? `AND ${overdue}`
        : `AND i.status = '${filters.status}' AND NOT ${overdue}`;
    const expected = await pool.query<{ id: string }>(
      `SELECT i.id FROM billing.customer_invoices i JOIN billing.job_snapshots j ON j.job_id = i.job_id
       WHERE (i.invoice_number ILIKE $1 OR j.job_number ILIKE $1 OR j.customer_name ILIKE $1) AND $2::date IS NOT NULL ${status}
       ORDER BY i.created_at DESC, i.id DESC`,
      [like, TODAY],
    );
    const ids = (JSON.parse(page!.json) as { id: string }[]).map((i) => i.id);
    expect(expected.rows.length).toBeGreaterThan(0);
    expect(ids).toEqual(expected.rows.slice(0, 50).map((r) => r.id));
    expect(page!.total).toBe(expected.rows.length);
  });
});
