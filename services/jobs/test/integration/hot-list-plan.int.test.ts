import { Pool } from 'pg';
import type { TestDatabase } from '@tyres/testkit';
import { listSql, type ListQuery } from '../../src/db/jobs-repository';
import { createJobsDatabase } from './helpers';

jest.setTimeout(60_000);

const JOBS = 50_000;
const TECHNICIAN = '11111111-1111-4111-8111-111111111111';
const OTHERS = [2, 3, 4, 5, 6, 7].map((n) => `a0000000-0000-4000-8000-00000000000${n}`);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The dashboard's jobs list at 10× today's data (issue 16: p99 < 100 ms through the gateway with 50,000 jobs): the
 * exact statement the repository sends for the bench's paths stays a range scan of the intended index, however many
 * jobs there are: the first page of everything, a status filter (common and rare), a technician's own list (with a
 * status), and a deep page. Seven technicians, mostly history, as the business grows.
 */
describe('jobs: list plans at 50,000 jobs', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createJobsDatabase('jobs-hot-plan');
    pool = new Pool({ connectionString: database.url, max: 1 });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      // The row triggers (documents, counts) make a 50,000-row load take ~30 s; the plans only need rows of the real
      // width, so the documents are built set-wise at their real size (~800 bytes) and the counts recomputed as the
      // list_counts migration does. (The triggers themselves are list-plans.int.test.ts's and lists.int.test.ts's.)
      await client.query('SET LOCAL session_replication_role = replica');
      await client.query(
        `INSERT INTO jobs.jobs (id, job_number, customer_id, vehicle_id, customer_name, customer_email, customer_phone,
           vehicle_make, vehicle_model, vehicle_year, vehicle_registration, assigned_technician_id, service_type, status,
           scheduled_date, scheduled_day, time_slot, address, suburb, postcode, customer_value, payment_method,
           created_at, updated_at, deleted_at, doc, doc_dashboard)
         SELECT id, 'HOT-' || i, gen_random_uuid(), gen_random_uuid(), 'Customer ' || i, 'c' || i || '@example.com',
           '0412345678', 'Toyota', 'Corolla', 2018, 'R' || i,
           (ARRAY[NULL, $1, $1, $2, $3, $4, $5, $6, $7, NULL]::uuid[])[1 + i % 10], 'new-tyres',
           CASE WHEN i < 400 THEN (ARRAY['new', 'in-progress'])[1 + i % 2]
                ELSE (ARRAY['completed', 'invoiced', 'paid', 'paid', 'paid', 'cancelled'])[1 + i % 6] END,
           current_date + 30 - (i / 12), 'Monday', '8-10 AM', '1 Plan Street', 'Rockingham', '6168', 675.80, 'onsite',
           now() - i * interval '20 minutes', now(), CASE WHEN i % 97 = 0 THEN now() END,
           json_build_object('id', id, 'pad', repeat('x', 780)), json_build_object('id', id, 'pad', repeat('x', 690))
         FROM (SELECT gen_random_uuid() AS id, i FROM generate_series(1, ${JOBS}) AS i) g`,
        [TECHNICIAN, ...OTHERS],
      );
      await client.query(
        `INSERT INTO jobs.job_counts (status, technician_id, n)
         SELECT status, COALESCE(assigned_technician_id, '00000000-0000-0000-0000-000000000000'::uuid), count(*)
         FROM jobs.jobs WHERE deleted_at IS NULL GROUP BY 1, 2`,
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await pool.query('VACUUM ANALYZE jobs.jobs');
    await pool.query('VACUUM ANALYZE jobs.job_counts');
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  const cases: [string, string, ListQuery][] = [
    ['first page (admin)', 'jobs_live_created_idx', { limit: 50, offset: 0 }],
    [
      'status completed (common)',
      'jobs_live_status_created_idx',
      { selection: { statuses: ['completed'] }, limit: 50, offset: 0 },
    ],
    [
      'status new (rare)',
      'jobs_live_status_created_idx',
      { selection: { statuses: ['new'] }, limit: 50, offset: 0 },
    ],
    [
      'a technician’s own list',
      'jobs_live_technician_created_idx',
      { technicianId: TECHNICIAN, limit: 50, offset: 0 },
    ],
    [
      'a technician’s paid jobs',
      'jobs_live_technician_status_created_idx',
      { technicianId: TECHNICIAN, selection: { statuses: ['paid'] }, limit: 50, offset: 0 },
    ],
    ['deep page (admin)', 'jobs_live_created_idx', { limit: 50, offset: 5_000 }],
  ];

  it.each(cases)(
    '%s: a range scan of %s, no sequential scan or sort of the jobs',
    async (_name, index, query) => {
      for (const shape of ['dashboard', 'details'] as const) {
        const { sql, params } = listSql(query, shape);
        const [row] = (await pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows as {
          'QUERY PLAN': { Plan: PlanNode }[];
        }[];
        const nodes = nodesOf(row!['QUERY PLAN'][0]!.Plan);
        const onJobs = nodes.filter((n) => n['Relation Name'] === 'jobs');
        // The page is read from the intended index; a deep page then fetches its 50 documents by primary key.
        expect(onJobs.map((n) => n['Index Name'])).toContain(index);
        for (const node of onJobs) {
          expect([node['Node Type'], node['Index Name']]).toEqual([
            expect.stringMatching(/^Index (Only )?Scan$/),
            expect.stringMatching(new RegExp(`^(${index}|jobs_pkey)$`)),
          ]);
        }
        for (const sort of nodes.filter((n) => n['Node Type'] === 'Sort'))
          expect(nodesOf(sort).filter((n) => n['Relation Name'] === 'jobs')).toEqual([]);
        expect(
          nodes.filter(
            (n) =>
              n['Node Type'] === 'Seq Scan' &&
              !['job_counts', 'job_count_deltas'].includes(n['Relation Name']!),
          ),
        ).toEqual([]);
      }
    },
  );
});
