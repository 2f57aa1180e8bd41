import pg from 'pg';
import pino from 'pino';
import { outboxInboxSql, pgExecutor, type PgExecutor } from '@tyres/events';
import { createTestDatabase, type TestDatabase } from '@tyres/testkit';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  createMaintenance,
  HttpError,
  type IdempotencyRequest,
  requestFingerprint,
} from '../../src';

const SCHEMA = 'shop';
let database: TestDatabase;
let pool: pg.Pool;
let db: PgExecutor;

beforeAll(async () => {
  database = await createTestDatabase('idempotency.int');
  pool = new pg.Pool({ connectionString: database.url, max: 6 });
  // An idle client terminated by the server (a parallel suite's database sweep, a restart) must not crash the run.
  pool.on('error', () => undefined);
  await pool.query(outboxInboxSql(SCHEMA, { idempotency: true }));
  await pool.query(`CREATE TABLE ${SCHEMA}.orders (id serial PRIMARY KEY, what text NOT NULL)`);
  db = pgExecutor(pool);
});
afterAll(async () => {
  await pool.end();
  await database.drop();
});

/** A use case the way services write one: claim, work, store the answer, all in one transaction. */
async function placeOrder(req: IdempotencyRequest, what: string, fail = false) {
  return db.$transaction(async (tx) => {
    const claim = await claimIdempotencyKey(tx, SCHEMA, req);
    if (!claim.claimed) return { replayed: true, ...claim.replay };
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
      `INSERT INTO ${SCHEMA}.orders (what) VALUES ($1) RETURNING id`,
      what,
    );
    await new Promise((r) => setTimeout(r, 150)); // hold the transaction open so a twin request overlaps it
    if (fail) throw new Error('payment declined');
    const body = { orderId: rows[0]!.id };
    await completeIdempotencyKey(tx, SCHEMA, req, 201, body);
    return { replayed: false, statusCode: 201, body };
  });
}

const orders = async () => Number((await pool.query(`SELECT count(*) FROM ${SCHEMA}.orders`)).rows[0].count);

describe('Idempotency-Key in Postgres, in the transaction of the effect', () => {
  it('replays the first answer to a retry and does the work once', async () => {
    const req = {
      scope: 'order.create',
      key: 'key-00000001',
      fingerprint: requestFingerprint({ what: 'tyre' }),
    };
    const first = await placeOrder(req, 'tyre');
    const again = await placeOrder(req, 'tyre');
    expect(first).toMatchObject({ replayed: false, statusCode: 201 });
    expect(again).toEqual({ replayed: true, statusCode: 201, body: first.body });
    expect(await orders()).toBe(1);
  });

  it('lets two concurrent twins through as one effect and one replay', async () => {
    const before = await orders();
    const req = {
      scope: 'order.create',
      key: 'key-00000002',
      fingerprint: requestFingerprint({ what: 'x' }),
    };
    const results = await Promise.all([placeOrder(req, 'x'), placeOrder(req, 'x')]);
    expect(results.filter((r) => r.replayed)).toHaveLength(1);
    expect(results[0]!.body).toEqual(results[1]!.body);
    expect(await orders()).toBe(before + 1);
  });

  it('frees the key when the first attempt rolled back, so the retry does the work', async () => {
    const before = await orders();
    const req = {
      scope: 'order.create',
      key: 'key-00000003',
      fingerprint: requestFingerprint({ what: 'y' }),
    };
    await expect(placeOrder(req, 'y', true)).rejects.toThrow('payment declined');
    expect(await orders()).toBe(before);
    await expect(placeOrder(req, 'y')).resolves.toMatchObject({ replayed: false, statusCode: 201 });
    expect(await orders()).toBe(before + 1);
  });

  it('refuses a key reused for a different request with 409', async () => {
    const key = 'key-00000004';
    await placeOrder({ scope: 'order.create', key, fingerprint: requestFingerprint({ what: 'a' }) }, 'a');
    const reused = placeOrder(
      { scope: 'order.create', key, fingerprint: requestFingerprint({ what: 'b' }) },
      'b',
    );
    await expect(reused).rejects.toBeInstanceOf(HttpError);
    await expect(reused).rejects.toMatchObject({ status: 409, code: 'idempotency_key_reused' });
    // The same key in another scope is another request.
    await expect(
      placeOrder({ scope: 'order.refund', key, fingerprint: requestFingerprint({ what: 'b' }) }, 'b'),
    ).resolves.toMatchObject({ replayed: false });
  });

  it('fingerprints ignore property order but not values', () => {
    expect(requestFingerprint({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(
      requestFingerprint({ b: { d: 'x', c: [1, 2] }, a: 1 }),
    );
    expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: 2 }));
    expect(requestFingerprint({ a: [1, 2] })).not.toBe(requestFingerprint({ a: [2, 1] }));
  });
});

describe('maintenance (run by every service runtime)', () => {
  it('purges inbox rows older than 30 days and idempotency keys older than a day, and nothing newer', async () => {
    await pool.query(
      `INSERT INTO ${SCHEMA}.inbox_events (event_id, handler, handled_at) VALUES
         (gen_random_uuid(), 'old', now() - interval '31 days'),
         (gen_random_uuid(), 'recent', now() - interval '29 days')`,
    );
    await pool.query(
      `UPDATE ${SCHEMA}.idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'key-00000001'`,
    );
    const keysBefore = Number(
      (await pool.query(`SELECT count(*) FROM ${SCHEMA}.idempotency_keys`)).rows[0].count,
    );
    const maintenance = createMaintenance({ db, schema: SCHEMA, logger: pino({ level: 'silent' }) });
    await expect(maintenance.runOnce()).resolves.toEqual({ inboxRows: 1, idempotencyKeys: 1 });
    const handlers = (await pool.query(`SELECT handler FROM ${SCHEMA}.inbox_events`)).rows.map(
      (r) => r.handler,
    );
    expect(handlers).toEqual(['recent']);
    expect(Number((await pool.query(`SELECT count(*) FROM ${SCHEMA}.idempotency_keys`)).rows[0].count)).toBe(
      keysBefore - 1,
    );
    await expect(maintenance.runOnce()).resolves.toEqual({ inboxRows: 0, idempotencyKeys: 0 });
  });

  it('works for a service without an idempotency table', async () => {
    await pool.query(outboxInboxSql('plain'));
    const maintenance = createMaintenance({ db, schema: 'plain', logger: pino({ level: 'silent' }) });
    await expect(maintenance.runOnce()).resolves.toEqual({ inboxRows: 0, idempotencyKeys: 0 });
  });
});
