import { outboxInboxSql, outboxInboxStatements, pgExecutor, quoteIdent } from './sql';

describe('quoteIdent', () => {
  it('quotes plain names and refuses anything else', () => {
    expect(quoteIdent('jobs')).toBe('"jobs"');
    expect(quoteIdent('t_123')).toBe('"t_123"');
    for (const bad of ['', 'a"b', 'a;drop table x', 'a b', '1abc', 'x'.repeat(64)]) {
      expect(() => quoteIdent(bad)).toThrow(/Invalid SQL identifier/);
    }
  });
});

describe('outboxInboxSql', () => {
  it('matches the Prisma models (names, types, defaults, keys, index)', () => {
    const sql = outboxInboxSql('jobs');
    expect(sql).toContain('CREATE SCHEMA IF NOT EXISTS "jobs"');
    expect(sql).toContain('CREATE TABLE IF NOT EXISTS "jobs"."outbox_events"');
    expect(sql).toContain('"created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP');
    expect(sql).toContain('"published_at" TIMESTAMPTZ(3),');
    expect(sql).toContain('"attempts" INTEGER NOT NULL DEFAULT 0');
    expect(sql).toContain('CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")');
    expect(sql).toContain(
      'CREATE INDEX IF NOT EXISTS "outbox_events_published_at_available_at_idx" ON "jobs"."outbox_events"("published_at", "available_at")',
    );
    expect(sql).toContain('CONSTRAINT "inbox_events_pkey" PRIMARY KEY ("event_id","handler")');
    // The maintenance purge deletes by handled_at (issue 13).
    expect(sql).toContain(
      'CREATE INDEX IF NOT EXISTS "inbox_events_handled_at_idx" ON "jobs"."inbox_events"("handled_at")',
    );
    expect(sql.trim().endsWith(';')).toBe(true);
  });

  it('can leave out the schema and IF NOT EXISTS (for a migration file)', () => {
    const statements = outboxInboxStatements('billing', { createSchema: false, ifNotExists: false });
    // outbox table + its index, inbox table + its handled_at index.
    expect(statements).toHaveLength(4);
    expect(statements.join('\n')).not.toMatch(/IF NOT EXISTS|CREATE SCHEMA/);
  });
});

describe('pgExecutor', () => {
  function fakeClient(failOn?: string) {
    const log: string[] = [];
    const client = {
      async query(text: string, values?: unknown[]) {
        log.push(values?.length ? `${text} ${JSON.stringify(values)}` : text);
        if (failOn && text.startsWith(failOn)) throw Object.assign(new Error('boom'), { code: '23505' });
        return { rows: [{ n: 1 }], rowCount: 3 };
      },
    };
    return { client, log };
  }

  it('maps executeRaw to rowCount and queryRaw to rows', async () => {
    const { client, log } = fakeClient();
    const db = pgExecutor(client);
    await expect(db.$executeRawUnsafe('UPDATE x SET a = $1', 1)).resolves.toBe(3);
    await expect(db.$queryRawUnsafe('SELECT 1')).resolves.toEqual([{ n: 1 }]);
    expect(log).toEqual(['UPDATE x SET a = $1 [1]', 'SELECT 1']);
  });

  it('commits on success and rolls back on failure (client)', async () => {
    const { client, log } = fakeClient('INSERT');
    const db = pgExecutor(client);
    await expect(db.$transaction(async (tx) => tx.$queryRawUnsafe('SELECT 2'))).resolves.toEqual([{ n: 1 }]);
    await expect(db.$transaction(async (tx) => tx.$executeRawUnsafe('INSERT 1'))).rejects.toThrow('boom');
    expect(log).toEqual(['BEGIN', 'SELECT 2', 'COMMIT', 'BEGIN', 'INSERT 1', 'ROLLBACK']);
  });

  it('checks a client out of a pool per transaction and releases it', async () => {
    const { client, log } = fakeClient();
    const released: unknown[] = [];
    const pool = {
      totalCount: 0,
      query: client.query,
      connect: async () => ({ ...client, release: (e?: unknown) => void released.push(e ?? false) }),
    };
    await pgExecutor(pool).$transaction(async (tx) => tx.$executeRawUnsafe('DELETE 1'));
    expect(log).toEqual(['BEGIN', 'DELETE 1', 'COMMIT']);
    expect(released).toEqual([false]);
  });
});
