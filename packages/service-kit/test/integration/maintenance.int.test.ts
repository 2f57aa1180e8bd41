import pg from 'pg';
import pino from 'pino';
import { outboxInboxSql, pgExecutor, type SqlExecutor } from '@tyres/events';
import { createTestDatabase, type TestDatabase } from '@tyres/testkit';
import { createMaintenance, purgeInBatches } from '../../src';

const SCHEMA = 'depot';
let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase('maintenance.int');
  pool = new pg.Pool({ connectionString: database.url, max: 4 });
  // An idle client terminated by the server (a parallel suite's database sweep, a restart) must not crash the run.
  pool.on('error', () => undefined);
  await pool.query(outboxInboxSql(SCHEMA, { idempotency: true }));
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

/** The executor the runtime uses, counting the DELETE statements it runs (one per batch). */
function countingExecutor(): { db: SqlExecutor; deletes: () => number } {
  const inner = pgExecutor(pool);
  let deletes = 0;
  return {
    db: {
      $executeRawUnsafe(query, ...values) {
        if (query.trimStart().startsWith('DELETE')) deletes += 1;
        return inner.$executeRawUnsafe(query, ...values);
      },
      $queryRawUnsafe<T>(query: string, ...values: unknown[]) {
        return inner.$queryRawUnsafe<T>(query, ...values);
      },
    },
    deletes: () => deletes,
  };
}

const count = async (sql: string) => Number((await pool.query(sql)).rows[0].count);

describe('maintenance purges in batches', () => {
  it('deletes only the old inbox rows of a large never-purged inbox, in several short batches', async () => {
    await pool.query(
      `INSERT INTO ${SCHEMA}.inbox_events (event_id, handler, handled_at)
       SELECT gen_random_uuid(), 'old', now() - interval '40 days' - n * interval '1 second'
       FROM generate_series(1, 12000) AS n`,
    );
    await pool.query(
      `INSERT INTO ${SCHEMA}.inbox_events (event_id, handler, handled_at)
       SELECT gen_random_uuid(), 'recent', now() - interval '29 days' FROM generate_series(1, 25)`,
    );
    const { db, deletes } = countingExecutor();
    const maintenance = createMaintenance({
      db,
      schema: SCHEMA,
      logger: pino({ level: 'silent' }),
      batchPauseMs: 1,
    });

    await expect(maintenance.runOnce()).resolves.toEqual({ inboxRows: 12000, idempotencyKeys: 0 });
    // 5000 + 5000 + 2000 inbox rows, then one (short) batch of idempotency keys.
    expect(deletes()).toBe(4);
    expect(await count(`SELECT count(*) FROM ${SCHEMA}.inbox_events WHERE handler = 'old'`)).toBe(0);
    expect(await count(`SELECT count(*) FROM ${SCHEMA}.inbox_events WHERE handler = 'recent'`)).toBe(25);
  });

  it('stops after the batch that comes back short, also on an exact multiple of the batch size', async () => {
    await pool.query(
      `INSERT INTO ${SCHEMA}.idempotency_keys (scope, key, request_hash, status_code, response, created_at)
       SELECT 'order.create', 'old-' || n, 'h', 201, '{}', now() - interval '2 days' FROM generate_series(1, 10) AS n`,
    );
    await pool.query(
      `INSERT INTO ${SCHEMA}.idempotency_keys (scope, key, request_hash, status_code, response)
       VALUES ('order.create', 'fresh', 'h', 201, '{}')`,
    );
    const { db, deletes } = countingExecutor();
    const purged = await purgeInBatches(
      db,
      { schema: SCHEMA, table: 'idempotency_keys', column: 'created_at' },
      24 * 3600_000,
      { batchSize: 5, pauseMs: 0 },
    );
    expect(purged).toEqual({ rows: 10, batches: 3 });
    expect(deletes()).toBe(3);
    expect(
      (await pool.query(`SELECT key FROM ${SCHEMA}.idempotency_keys`)).rows.map((r) => r.key as string),
    ).toEqual(['fresh']);
  });

  it('uses the handled_at index to find the old inbox rows', async () => {
    await pool.query(`ANALYZE ${SCHEMA}.inbox_events`);
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const plan = await client.query(
        `EXPLAIN SELECT ctid FROM ${SCHEMA}.inbox_events WHERE handled_at < now() - interval '30 days' LIMIT 5000`,
      );
      expect(JSON.stringify(plan.rows)).toContain('inbox_events_handled_at_idx');
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});
