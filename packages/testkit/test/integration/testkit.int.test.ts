import { Client } from 'pg';
import {
  createRabbitAdmin,
  createRedisClient,
  createTemplateDatabase,
  createTestDatabase,
  deleteRedisKeysByPrefix,
  dropStaleTestDatabases,
  getAmqpUrl,
  getDatabaseUrl,
  startTcpProxy,
  uniquePrefix,
} from '@tyres/testkit';

jest.setTimeout(60_000);

async function query<T>(url: string, sql: string): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

describe('testkit against real services', () => {
  it('creates and drops uniquely named databases', async () => {
    const a = await createTestDatabase('testkit a');
    const b = await createTestDatabase('testkit a');
    expect(a.name).not.toBe(b.name);
    expect(a.name).toMatch(/^tk_testkit_a_[0-9a-z]+_[0-9a-f]{6}$/);
    await expect(query(a.url, 'SELECT current_database() AS db')).resolves.toEqual([{ db: a.name }]);
    await a.drop();
    await b.drop();
    const left = await query<{ n: number }>(
      await getDatabaseUrl(),
      `SELECT count(*)::int AS n FROM pg_database WHERE datname IN ('${a.name}', '${b.name}')`,
    );
    expect(left).toEqual([{ n: 0 }]);
  });

  it('migrates a template once per key and copies it', async () => {
    let migrations = 0;
    const migrate = async (url: string) => {
      migrations += 1;
      await query(url, 'CREATE TABLE widgets (id int primary key); INSERT INTO widgets VALUES (1), (2)');
    };
    const key = `kit-${Date.now()}`;
    const template = await createTemplateDatabase(key, migrate);
    const again = await createTemplateDatabase(key, migrate);
    expect(again.name).toBe(template.name);
    expect(migrations).toBe(1);
    const copy1 = await template.createDatabase('copy');
    const copy2 = await template.createDatabase('copy');
    await query(copy1.url, 'DELETE FROM widgets');
    await expect(query(copy1.url, 'SELECT count(*)::int AS n FROM widgets')).resolves.toEqual([{ n: 0 }]);
    await expect(query(copy2.url, 'SELECT count(*)::int AS n FROM widgets')).resolves.toEqual([{ n: 2 }]);
    await copy1.drop();
    await copy2.drop();
    await template.drop();
  });

  it('sweeps only databases left behind long ago', async () => {
    // A database named like one created 7 hours ago by a crashed run (never sweep with a cutoff that could
    // reach databases other suites are using right now).
    const old = `tk_sweep_${(Math.floor(Date.now() / 1000) - 7 * 3600).toString(36)}_abc123`;
    await query(await getDatabaseUrl(), `CREATE DATABASE "${old}"`);
    const young = await createTestDatabase('sweep');
    const dropped = await dropStaleTestDatabases();
    expect(dropped).toContain(old);
    expect(dropped).not.toContain(young.name);
    await young.drop();
  });

  it('deletes Redis keys by prefix only', async () => {
    const redis = await createRedisClient();
    const prefix = uniquePrefix('redis');
    const other = uniquePrefix('redis');
    try {
      for (let i = 0; i < 1200; i++) await redis.set(`${prefix}k${i}`, '1');
      await redis.set(`${other}keep`, '1');
      await redis.set(`${prefix.slice(0, -1)}*glob`, '1'); // a key that only matches if '.' were a wildcard
      expect(await deleteRedisKeysByPrefix(prefix, redis)).toBe(1200);
      expect(await redis.exists(`${other}keep`)).toBe(1);
      expect(await deleteRedisKeysByPrefix(prefix)).toBe(0);
    } finally {
      await redis.del(`${other}keep`, `${prefix.slice(0, -1)}*glob`);
      await redis.quit();
    }
    await expect(deleteRedisKeysByPrefix('')).rejects.toThrow(/non-empty/);
  });

  it('rabbitAdmin publishes, counts, peeks, drains and cleans up prefixed names', async () => {
    const admin = await createRabbitAdmin();
    const prefix = uniquePrefix('admin');
    const queue = `${prefix}svc`;
    const { connect } = await import('amqplib');
    const conn = await connect(await getAmqpUrl());
    const ch = await conn.createChannel();
    await ch.assertExchange(`${prefix}tyres.events`, 'topic', { durable: true });
    await ch.assertQueue(queue, { durable: true });
    await ch.bindQueue(queue, `${prefix}tyres.events`, '#');
    await conn.close();
    try {
      await admin.publish(`${prefix}tyres.events`, 'a.b.v1', 'one');
      await admin.publish(`${prefix}tyres.events`, 'a.b.v1', Buffer.from('two'));
      expect(await admin.messageCount(queue)).toBe(2);
      expect((await admin.peek(queue)).map((m) => m.content.toString())).toEqual(['one', 'two']);
      expect(await admin.messageCount(queue)).toBe(2);
      expect((await admin.get(queue))?.content.toString()).toBe('one');
      expect(await admin.purge(queue)).toBe(1);
      expect(await admin.messageCount(`${prefix}missing`)).toBeUndefined();
      expect(await admin.queueExists(queue)).toBe(true);
    } finally {
      await admin.cleanup(prefix, { services: ['svc'] });
    }
    expect(await admin.queueExists(queue)).toBe(false);
    expect(await admin.exchangeExists(`${prefix}tyres.events`)).toBe(false);
    await admin.close();
  });

  it('a TCP proxy can take a server away and bring it back', async () => {
    const proxy = await startTcpProxy(await getDatabaseUrl());
    const url = proxy.rewrite(await getDatabaseUrl());
    await expect(query(url, 'SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    const held = new Client({ connectionString: url });
    held.on('error', () => undefined);
    await held.connect();
    await proxy.pause();
    await expect(held.query('SELECT 1')).rejects.toThrow();
    await expect(query(url, 'SELECT 1')).rejects.toThrow();
    await proxy.resume();
    await expect(query(url, 'SELECT 2 AS two')).resolves.toEqual([{ two: 2 }]);
    await proxy.close();
  });
});
