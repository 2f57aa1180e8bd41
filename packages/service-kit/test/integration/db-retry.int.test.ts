import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { isDatabaseUnavailable, retryOnConnectionLoss, toHttpError } from '../../src';

/**
 * A Postgres restart kills every session (57P01). Proven here without stopping the shared server: the test
 * terminates the adapter's own backend while a statement runs, exactly what a restart does to it.
 */
const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const sleepQuery = (tag: string) => ({
  sql: `SELECT '${tag}'::text AS tag FROM pg_sleep(0.8)`,
  args: [],
  argTypes: [],
});

async function killWhileRunning(tag: string, admin: pg.Client): Promise<number> {
  // Wait until the tagged statement is running, then terminate its backend.
  for (let i = 0; i < 100; i++) {
    const r = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid() AND state = 'active'`,
      [`%'${tag}'::text%`],
    );
    if (r.rows[0]) {
      await admin.query('SELECT pg_terminate_backend($1)', [r.rows[0].pid]);
      return r.rows[0].pid;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('statement never started');
}

describe('retryOnConnectionLoss against a real Postgres', () => {
  const admin = new pg.Client({ connectionString: url });
  beforeAll(() => admin.connect());
  afterAll(() => admin.end());

  it('without it, a statement whose session is killed fails, and the error handler answers 503', async () => {
    const adapter = await new PrismaPg({ connectionString: url, max: 2 }).connect();
    try {
      const running = adapter.queryRaw(sleepQuery('plain')).then(
        () => undefined,
        (err: unknown) => err,
      );
      await killWhileRunning('plain', admin);
      const err = await running;
      expect(isDatabaseUnavailable(err)).toBe(true);
      expect(toHttpError(err)?.status).toBe(503);
    } finally {
      await adapter.dispose();
    }
  });

  it('with it, the statement runs again on a fresh connection and succeeds', async () => {
    const retried: string[] = [];
    const factory = retryOnConnectionLoss(new PrismaPg({ connectionString: url, max: 2 }), (method) =>
      retried.push(method),
    );
    const adapter = await factory.connect();
    try {
      const running = adapter.queryRaw(sleepQuery('retried'));
      const killed = await killWhileRunning('retried', admin);
      const result = await running;
      expect(result.rows).toHaveLength(1);
      expect(retried).toEqual(['queryRaw']);
      const now = await adapter.queryRaw({ sql: 'SELECT pg_backend_pid() AS pid', args: [], argTypes: [] });
      expect(now.rows[0]?.[0]).not.toBe(killed);
    } finally {
      await adapter.dispose();
    }
  });
});
