import { Pool } from 'pg';
import type { TestDatabase } from '@tyres/testkit';
import { createDb, type Db } from '../../src/db/client';
import { JobsRepository, listSql, type ListQuery } from '../../src/db/jobs-repository';
import { selectionForSchedule } from '../../src/domain/schedule';
import { createJobsDatabase } from './helpers';

jest.setTimeout(120_000);

const JOBS = 5000;
const TECH_A = '11111111-1111-4111-8111-111111111111';
const TECH_B = '22222222-2222-4222-8222-222222222222';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/**
 * The list statement stays an index range scan at 5,000+ jobs for every filter the dashboard sends, on the first
 * page and deep ones: no sequential scan of the jobs, no sort of rows carrying documents, and the same rows as the
 * obvious query.
 */
describe('jobs: list statements at 5,000 jobs', () => {
  let database: TestDatabase;
  let pool: Pool;
  let db: Db;
  let repo: JobsRepository;

  beforeAll(async () => {
    database = await createJobsDatabase('jobs-plans');
    pool = new Pool({ connectionString: database.url, max: 2 });
    db = createDb(database.url, 2);
    repo = new JobsRepository(db);
    // 5,000 jobs through the real triggers (documents, counts), spread over statuses and technicians, a few deleted.
    await pool.query(
      `INSERT INTO jobs.jobs (id, job_number, customer_id, vehicle_id, customer_name, customer_email, customer_phone,
         vehicle_make, vehicle_model, vehicle_year, vehicle_registration, assigned_technician_id, service_type, status,
         scheduled_date, scheduled_day, time_slot, address, suburb, postcode, customer_value, payment_method,
         created_at, updated_at, deleted_at)
       SELECT gen_random_uuid(), 'PLAN-' || i, gen_random_uuid(), gen_random_uuid(), 'Customer ' || i, 'c' || i || '@example.com',
         '0412345678', 'Toyota', 'Corolla', 2018, 'R' || i,
         (ARRAY[NULL, $1, $2]::uuid[])[1 + i % 3], 'new-tyres',
         (ARRAY['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled'])[1 + (i / 3) % 6],
         DATE '2026-01-01' + (i % 200), 'Monday', '8-10 AM', '1 Plan Street', 'Rockingham', '6168', 675.80, 'onsite',
         now() - i * interval '45 minutes', now(), CASE WHEN i % 97 = 0 THEN now() END
       FROM generate_series(1, ${JOBS}) AS i`,
      [TECH_A, TECH_B],
    );
    await pool.query('VACUUM ANALYZE jobs.jobs');
  });
  afterAll(async () => {
    await db?.$disconnect();
    await pool?.end();
    await database?.drop();
  });

  const filters: [string, Omit<ListQuery, 'limit' | 'offset'>][] = [
    ['all (admin)', {}],
    ['status new', { selection: { statuses: ['new'] } }],
    ['schedule pending', { selection: selectionForSchedule('pending') }],
    ['schedule confirmed', { selection: selectionForSchedule('confirmed') }],
    ['schedule completed (3 statuses)', { selection: selectionForSchedule('completed') }],
    ['technician', { technicianId: TECH_A }],
    ['technician + status', { technicianId: TECH_A, selection: { statuses: ['in-progress'] } }],
    [
      'technician + schedule completed',
      { technicianId: TECH_A, selection: selectionForSchedule('completed') },
    ],
    // The schedule calendar: a week, a day, with the technician scope and a status filter.
    ['scheduled week', { scheduled: { from: '2026-03-02', to: '2026-03-08' } }],
    ['scheduled day', { scheduled: { from: '2026-03-04', to: '2026-03-04' } }],
    ['scheduled 62 days', { scheduled: { from: '2026-02-01', to: '2026-04-03' } }],
    [
      'technician + scheduled week',
      { technicianId: TECH_A, scheduled: { from: '2026-03-02', to: '2026-03-08' } },
    ],
    [
      'schedule pending + scheduled week',
      { selection: selectionForSchedule('pending'), scheduled: { from: '2026-03-02', to: '2026-03-08' } },
    ],
  ];
  const cases = filters.flatMap(([name, filter]) => [
    [`${name}, first page`, { ...filter, limit: 50, offset: 0 }] as const,
    // A date range holds fewer jobs than 200: its "deep" page is its second.
    [
      `${name}, deep page`,
      { ...filter, limit: filter.scheduled ? 10 : 50, offset: filter.scheduled ? 10 : 200 },
    ] as const,
  ]);

  it.each(cases)('%s: index range scans only', async (_name, query) => {
    const { sql, params } = listSql(query, 'details');
    const [row] = (await pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows as {
      'QUERY PLAN': { Plan: PlanNode }[];
    }[];
    const nodes = nodesOf(row!['QUERY PLAN'][0]!.Plan);
    const onJobs = nodes.filter((n) => n['Relation Name'] === 'jobs');
    expect(onJobs.length).toBeGreaterThan(0);
    for (const node of onJobs) {
      expect([node['Node Type'], node['Index Name']]).toEqual([
        expect.stringMatching(/^Index (Only )?Scan$/),
        expect.stringMatching(/^jobs_(live_.*_idx|pkey)$/),
      ]);
    }
    // A sort, if any, only ever orders narrow keys from an index-only scan (never rows with their documents);
    // a date range's sort reads the keys its index-only scan materialised (CTE Scan, no jobs node beneath).
    for (const sort of nodes.filter((n) => n['Node Type'] === 'Sort')) {
      const beneath = nodesOf(sort)
        .filter((n) => n['Relation Name'] === 'jobs')
        .map((n) => n['Node Type']);
      if (query.scheduled) expect(beneath).toEqual([]);
      else expect(beneath).toEqual(['Index Only Scan']);
    }
    if (query.scheduled) {
      // The range's keys come from the schedule index alone; the documents only by primary key.
      expect(onJobs.map((n) => [n['Node Type'], n['Index Name']])).toEqual([
        ['Index Only Scan', 'jobs_live_schedule_idx'],
        ['Index Scan', 'jobs_pkey'],
      ]);
    }
  });

  it.each(cases)('%s: the same jobs, in the same order, as the obvious query', async (_name, query) => {
    const page = await repo.list(query, 'dashboard');
    const clauses = ['deleted_at IS NULL'];
    const params: unknown[] = [];
    if (query.technicianId)
      clauses.push(`assigned_technician_id = $${params.push(query.technicianId)}::uuid`);
    if (query.selection) {
      clauses.push(`status = ANY($${params.push(query.selection.statuses)}::text[])`);
      if (query.selection.assigned === true) clauses.push('assigned_technician_id IS NOT NULL');
      if (query.selection.assigned === false) clauses.push('assigned_technician_id IS NULL');
    }
    if (query.scheduled)
      clauses.push(
        `scheduled_date BETWEEN $${params.push(query.scheduled.from)}::date AND $${params.push(query.scheduled.to)}::date`,
      );
    const where = clauses.join(' AND ');
    const expected = await pool.query<{ id: string }>(
      `SELECT id FROM jobs.jobs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${query.limit} OFFSET ${query.offset}`,
      params,
    );
    const [count] = (
      await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs.jobs WHERE ${where}`, params)
    ).rows;
    const ids = (JSON.parse(page.body) as { id: string }[]).map((j) => j.id);
    expect(ids).toEqual(expected.rows.map((r) => r.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(page.total).toBe(count?.n);
  });

  it('a page past the end is empty, even far past it', async () => {
    expect(await repo.list({ limit: 100, offset: 99_999_900 }, 'details')).toEqual({
      body: '[]',
      total: JOBS - Math.floor(JOBS / 97),
    });
  });

  it('the stored documents and counts match the jobs', async () => {
    expect(await repo.staleDocuments()).toBe(0);
    expect(await repo.wrongCounts()).toBe(0);
  });
});
