import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { addDays, perthDate } from '@tyres/kernel';
import { outbox, seedJob, startTestBilling, type TestBilling } from './helpers';

jest.setTimeout(120_000);

/** A local port nothing listens on: billing's Redis is "down" for the whole suite. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Idempotency-Key on Generate and Create Invoice (issue 13): claimed in Postgres in the transaction of the effect, so
 * the protection holds whatever Redis does. Run once with Redis up and once with billing pointed at a closed Redis
 * port.
 */
describe.each([
  ['Redis up', async () => ({})],
  ['Redis unreachable', async () => ({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` })],
])('Idempotency-Key (%s)', (label, redisEnv) => {
  let svc: TestBilling;
  let adminToken: string;
  const api = () => svc.http();
  const generate = (jobId: string, key?: string, token = adminToken) => {
    const req = api()
      .post(`/api/dashboard/customer-invoices/generate/${jobId}`)
      .set('x-identity-token', token);
    return key ? req.set('Idempotency-Key', key) : req;
  };
  const create = (body: object, key?: string) => {
    const req = api().post('/api/dashboard/customer-invoices').set('x-identity-token', adminToken);
    return (key ? req.set('Idempotency-Key', key) : req).send(body);
  };
  const invoicesOf = (jobId: string) => svc.ctx.db.customerInvoice.count({ where: { jobId } });
  const issuedFor = async (jobId: string) =>
    (await outbox(svc, 'customer-invoice.issued.v2')).filter((e) => e.data.jobId === jobId);

  beforeAll(async () => {
    svc = await startTestBilling(`billing-idem-${label === 'Redis up' ? 'up' : 'down'}`, await redisEnv());
    adminToken = svc.token(svc.admin);
  });
  afterAll(async () => {
    await svc?.stop();
  });

  if (label === 'Redis unreachable')
    it('billing really has no Redis (readiness reports it, and still serves)', async () => {
      const ready = await api().get('/readyz');
      expect(ready.status).toBe(200);
      expect(JSON.stringify(ready.body)).toMatch(/redis/i);
      expect(await svc.ctx.db.$queryRawUnsafe('SELECT 1')).toBeTruthy();
      await expect(svc.runtime.redis.ping()).rejects.toThrow();
    });

  it('a retried Generate replays the first answer (Idempotent-Replayed: true): one invoice, one event', async () => {
    const job = await seedJob(svc);
    const key = `gen-${randomUUID()}`;
    const first = await generate(job.jobId, key);
    const retry = await generate(job.jobId, key);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await invoicesOf(job.jobId)).toBe(1);
    expect(await issuedFor(job.jobId)).toHaveLength(1);
    // Without the key a second Generate is the ordinary 409.
    const again = await generate(job.jobId);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      `Job ${job.jobNumber} already has invoice ${first.body.customerInvoice.invoiceNumber}`,
    );
    // The key is in Postgres, with the answer.
    const rows = await svc.sql<{ scope: string; status_code: number }>(
      'SELECT scope, status_code FROM billing.idempotency_keys WHERE key = $1',
      key,
    );
    expect(rows).toEqual([{ scope: 'generate-invoice', status_code: 201 }]);
  });

  it('concurrent twins (same key) make one invoice; every twin gets its answer', async () => {
    const job = await seedJob(svc);
    const key = `twin-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => generate(job.jobId, key)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.customerInvoice.id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(5);
    expect(await invoicesOf(job.jobId)).toBe(1);
    expect(await issuedFor(job.jobId)).toHaveLength(1);

    const done = await seedJob(svc);
    // Create Invoice too, on a job whose work is done (where a second invoice would be allowed: only the key stops it).
    await svc.ctx.db.jobSnapshot.update({ where: { jobId: done.jobId }, data: { status: 'completed' } });
    const body = { jobId: done.jobId, dueDate: addDays(perthDate(), 30), subtotalAmount: '100.00' };
    const createKey = `create-${randomUUID()}`;
    const created = await Promise.all(Array.from({ length: 4 }, () => create(body, createKey)));
    expect(created.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(created.map((a) => a.body.customerInvoice.invoiceNumber)).size).toBe(1);
    expect(await invoicesOf(done.jobId)).toBe(1);
  });

  it('a key reused for a different request is 409 idempotency_key_reused, and changes nothing', async () => {
    const job = await seedJob(svc);
    await svc.ctx.db.jobSnapshot.update({ where: { jobId: job.jobId }, data: { status: 'completed' } });
    const key = `reuse-${randomUUID()}`;
    const dueDate = addDays(perthDate(), 30);
    expect((await create({ jobId: job.jobId, dueDate, subtotalAmount: '100.00' }, key)).status).toBe(201);
    const other = await create({ jobId: job.jobId, dueDate, subtotalAmount: '200.00' }, key);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      code: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used for a different request',
    });
    // Another staff member's request with the same key is not theirs to replay either.
    const otherAdmin = svc.token({ id: randomUUID(), username: 'admin2', role: 'admin' });
    const job2 = await seedJob(svc);
    const genKey = `gen-${randomUUID()}`;
    expect((await generate(job2.jobId, genKey)).status).toBe(201);
    expect((await generate(job2.jobId, genKey, otherAdmin)).status).toBe(409);
    expect(await invoicesOf(job.jobId)).toBe(1);
    expect(await invoicesOf(job2.jobId)).toBe(1);
  });

  it('a first attempt that failed leaves the key free: the corrected request does the work', async () => {
    const job = await seedJob(svc);
    const key = `fix-${randomUUID()}`;
    const refused = await create({ jobId: job.jobId, dueDate: '9999-12-31' }, key);
    expect(refused.status).toBe(400);
    expect(await invoicesOf(job.jobId)).toBe(0);
    const fixed = await create({ jobId: job.jobId, dueDate: addDays(perthDate(), 14) }, key);
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await invoicesOf(job.jobId)).toBe(1);
  });

  it('a malformed key is refused (400) before anything is done', async () => {
    const job = await seedJob(svc);
    const res = await generate(job.jobId, 'short');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_idempotency_key');
    expect(await invoicesOf(job.jobId)).toBe(0);
  });
});
