import { randomUUID } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import type { TestDatabase } from '@tyres/testkit';
import { createDb, type Db } from '../../src/db/client';
import { JobsRepository } from '../../src/db/jobs-repository';
import { createJobsDatabase } from './helpers';

jest.setTimeout(120_000);

const TECH_A = '11111111-1111-4111-8111-111111111111';
const TECH_B = '22222222-2222-4222-8222-222222222222';
const STATUSES = ['new', 'in-progress', 'completed', 'invoiced', 'paid', 'cancelled'] as const;

let seq = 0;

/** One job through the real triggers (documents, counts). */
async function insertJob(
  db: Pool | PoolClient,
  status = 'new',
  technician: string | null = null,
): Promise<string> {
  const id = randomUUID();
  const n = seq++;
  await db.query(
    `INSERT INTO jobs.jobs (id, job_number, customer_id, vehicle_id, customer_name, customer_email, customer_phone,
       vehicle_make, vehicle_model, vehicle_year, vehicle_registration, assigned_technician_id, service_type, status,
       scheduled_date, scheduled_day, time_slot, address, suburb, postcode, customer_value, payment_method,
       created_at, updated_at)
     VALUES ($1, 'CC-' || $2::text, gen_random_uuid(), gen_random_uuid(), 'Customer', 'c@example.com', '0412345678',
       'Toyota', 'Corolla', 2018, 'R1', $3::uuid, 'new-tyres', $4, DATE '2026-06-01', 'Monday', '8-10 AM',
       '1 Plan Street', 'Rockingham', '6168', 675.80, 'onsite', now(), now())`,
    [id, String(n), technician, status],
  );
  return id;
}

/** `work` in its own transaction that gives up after 2 s waiting for a lock (instead of queueing forever). */
async function impatient(pool: Pool, work: (c: PoolClient) => Promise<unknown>): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await c.query(`SET LOCAL lock_timeout = '2s'`);
    await work(c);
    await c.query('COMMIT');
  } catch (err) {
    await c.query('ROLLBACK');
    throw err;
  } finally {
    c.release();
  }
}

/**
 * Issue 16: every job write used to update one shared counter row (jobs.job_counts per status and technician), so
 * all jobs created across replicas queued behind each other's open transactions. Writes now only append count
 * deltas; the list totals stay exact.
 */
describe('jobs: list counts under concurrent writes', () => {
  let database: TestDatabase;
  let pool: Pool;
  let db: Db;
  let repo: JobsRepository;

  beforeAll(async () => {
    database = await createJobsDatabase('jobs-count-contention');
    pool = new Pool({ connectionString: database.url, max: 24 });
    db = createDb(database.url, 2);
    repo = new JobsRepository(db);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await pool?.end();
    await database?.drop();
  });

  it('20 jobs created in parallel while another transaction holds an uncommitted new job are not blocked', async () => {
    const existing = await Promise.all([insertJob(pool), insertJob(pool), insertJob(pool, 'new', TECH_A)]);
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await insertJob(holder); // same status and technician (new, unassigned) as the 20 below
      await holder.query(`UPDATE jobs.jobs SET status = 'in-progress' WHERE id = $1`, [existing[0]]);
      await holder.query(`UPDATE jobs.jobs SET deleted_at = now() WHERE id = $1`, [existing[2]]);

      const started = Date.now();
      const results = await Promise.allSettled([
        ...Array.from({ length: 20 }, () => impatient(pool, (c) => insertJob(c))),
        impatient(pool, (c) =>
          c.query(`UPDATE jobs.jobs SET status = 'in-progress' WHERE id = $1`, [existing[1]]),
        ),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(Date.now() - started).toBeLessThan(2000);
      // Readers see the committed writes only, exactly: 3 + 20 jobs, one of them now in progress.
      expect((await repo.list({ limit: 1, offset: 0 }, 'dashboard')).total).toBe(23);
      expect(
        (await repo.list({ selection: { statuses: ['new'] }, limit: 1, offset: 0 }, 'dashboard')).total,
      ).toBe(22);
      await holder.query('COMMIT');
    } catch (err) {
      await holder.query('ROLLBACK');
      throw err;
    } finally {
      holder.release();
    }
    // The holder's job counted, one more in progress, one deleted.
    expect((await repo.list({ limit: 1, offset: 0 }, 'dashboard')).total).toBe(23);
    expect(
      (await repo.list({ selection: { statuses: ['new'] }, limit: 1, offset: 0 }, 'dashboard')).total,
    ).toBe(21);
    expect((await repo.list({ technicianId: TECH_A, limit: 1, offset: 0 }, 'dashboard')).total).toBe(0);
    expect(await repo.wrongCounts()).toBe(0);
  });

  it('counts stay exact after concurrent inserts, status changes, assignments, deletes and rollbacks', async () => {
    const ids = await Promise.all(Array.from({ length: 40 }, (_, i) => insertJob(pool, STATUSES[i % 6])));
    const technicians = [null, TECH_A, TECH_B];
    const workers = Array.from({ length: 12 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 25; i++) {
          const c = await pool.connect();
          try {
            await c.query('BEGIN');
            const id = ids[(w * 7 + i * 13) % ids.length];
            const op = (w + i) % 5;
            if (op === 0) await insertJob(c, STATUSES[i % 6], technicians[w % 3]);
            if (op === 1)
              await c.query(`UPDATE jobs.jobs SET status = $2 WHERE id = $1`, [id, STATUSES[(w + i) % 6]]);
            if (op === 2)
              await c.query(`UPDATE jobs.jobs SET assigned_technician_id = $2::uuid WHERE id = $1`, [
                id,
                technicians[i % 3],
              ]);
            if (op === 3)
              await c.query(
                `UPDATE jobs.jobs SET deleted_at = CASE WHEN deleted_at IS NULL THEN now() END WHERE id = $1`,
                [id],
              );
            if (op === 4) {
              await insertJob(c);
              await c.query('ROLLBACK');
              continue;
            }
            await c.query('COMMIT');
          } catch (err) {
            await c.query('ROLLBACK');
            throw err;
          } finally {
            c.release();
          }
        }
      })(),
    );
    await Promise.all(workers);

    expect(await repo.wrongCounts()).toBe(0);
    const actual = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs.jobs WHERE deleted_at IS NULL AND status = 'new'`,
    );
    expect(
      (await repo.list({ selection: { statuses: ['new'] }, limit: 1, offset: 0 }, 'dashboard')).total,
    ).toBe(actual.rows[0]!.n);
    const mine = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM jobs.jobs WHERE deleted_at IS NULL AND assigned_technician_id = $1`,
      [TECH_A],
    );
    expect((await repo.list({ technicianId: TECH_A, limit: 1, offset: 0 }, 'dashboard')).total).toBe(
      mine.rows[0]!.n,
    );

    // The next write with nobody else folding moves every pending delta into job_counts: the deltas stay few.
    await insertJob(pool);
    const pending = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs.job_count_deltas`);
    expect(pending.rows[0]!.n).toBe(0);
    expect(await repo.wrongCounts()).toBe(0);
  });
});
