import { errorHandler, HttpError, toHttpError } from './errors';
import { isDatabaseUnavailable, isTransactionConflict } from './database-errors';
import { retryOnConnectionLoss } from './db-retry';

const adapterError = (cause: Record<string, unknown>) =>
  Object.assign(new Error('driver adapter error'), { name: 'DriverAdapterError', cause });
const prismaKnown = (code: string, cause?: Record<string, unknown>) =>
  Object.assign(new Error('prisma'), { code, meta: cause ? { driverAdapterError: { cause } } : undefined });

describe('database unavailable (issue 14: a Postgres restart answers 503, never 500)', () => {
  it.each([
    ['admin shutdown (57P01) through the adapter', adapterError({ kind: 'postgres', code: '57P01' })],
    [
      'cannot connect now (57P03) as a known request error',
      prismaKnown('P2010', { kind: 'postgres', originalCode: '57P03' }),
    ],
    ['connection refused', adapterError({ kind: 'DatabaseNotReachable' })],
    ['connection reset', adapterError({ kind: 'ConnectionClosed' })],
    ['pool exhausted', prismaKnown('P2024')],
    ['server unreachable', prismaKnown('P1001')],
    ['pg: connection terminated', new Error('Connection terminated unexpectedly')],
    ['pg: SQLSTATE 08006', Object.assign(new Error('x'), { code: '08006' })],
    [
      'socket refused',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    [
      'wrapped twice',
      Object.assign(new Error('outer'), { cause: new Error('Connection terminated unexpectedly') }),
    ],
  ])('recognises %s', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
    const http = toHttpError(err);
    expect(http?.status).toBe(503);
    expect(http?.code).toBe('database_unavailable');
  });

  it.each([
    [
      'a unique violation',
      prismaKnown('P2002', { kind: 'UniqueConstraintViolation', originalCode: '23505' }),
    ],
    ['a bad input value', adapterError({ kind: 'InvalidInputValue', originalCode: '22P02' })],
    ['a plain bug', new TypeError('x is undefined')],
    ['nothing', undefined],
  ])('does not mistake %s for an outage', (_name, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('maps a serialization failure that outlived its retries to 503 as well', () => {
    const err = prismaKnown('P2034');
    expect(isTransactionConflict(err)).toBe(true);
    expect(isTransactionConflict(adapterError({ kind: 'TransactionWriteConflict' }))).toBe(true);
    expect(toHttpError(err)?.status).toBe(503);
    expect(isTransactionConflict(new Error('x'))).toBe(false);
  });

  it('answers 503 with Retry-After and a plain message', () => {
    const logger = { warn: jest.fn(), error: jest.fn() } as never;
    const headers: Record<string, string> = {};
    let status = 0;
    let body: unknown;
    const res = {
      headersSent: false,
      setHeader: (k: string, v: string) => (headers[k] = v),
      status(s: number) {
        status = s;
        return this;
      },
      json(b: unknown) {
        body = b;
      },
    };
    errorHandler(logger)(
      adapterError({ kind: 'postgres', code: '57P01' }),
      {} as never,
      res as never,
      () => {},
    );
    expect(status).toBe(503);
    expect(headers['Retry-After']).toBe('2');
    expect(body).toMatchObject({ code: 'database_unavailable' });
    expect((body as { message: string }).message).toMatch(/try again/);
  });
});

describe('retryOnConnectionLoss', () => {
  const lost = () => adapterError({ kind: 'postgres', code: '57P01' });
  function fakeFactory(failures: Record<string, unknown[]>) {
    const calls: string[] = [];
    const adapter = {
      provider: 'postgres',
      async queryRaw(q: unknown) {
        calls.push('queryRaw');
        const next = failures.queryRaw?.shift();
        if (next) throw next;
        return { rows: [q] };
      },
      async executeRaw(_q?: unknown) {
        calls.push('executeRaw');
        const next = failures.executeRaw?.shift();
        if (next) throw next;
        return 1;
      },
      async startTransaction() {
        calls.push('startTransaction');
        const next = failures.startTransaction?.shift();
        if (next) throw next;
        return { tx: true };
      },
    };
    return { factory: { adapterName: 'pg', connect: async () => adapter }, calls };
  }

  it('runs a statement again, once, when its connection died', async () => {
    const { factory, calls } = fakeFactory({ queryRaw: [lost()], startTransaction: [lost()] });
    const onRetry = jest.fn();
    const adapter = await retryOnConnectionLoss(factory, onRetry).connect();
    await expect(adapter.queryRaw('SELECT 1')).resolves.toEqual({ rows: ['SELECT 1'] });
    await expect(adapter.startTransaction()).resolves.toEqual({ tx: true });
    expect(calls).toEqual(['queryRaw', 'queryRaw', 'startTransaction', 'startTransaction']);
    expect(onRetry).toHaveBeenCalledTimes(2);
    expect(adapter.provider).toBe('postgres');
  });

  it('gives up after one retry, and never retries other errors', async () => {
    const unique = prismaKnown('P2002', { kind: 'UniqueConstraintViolation' });
    const { factory, calls } = fakeFactory({ executeRaw: [lost(), lost()], queryRaw: [unique] });
    const adapter = await retryOnConnectionLoss(factory).connect();
    await expect(adapter.executeRaw('UPDATE')).rejects.toMatchObject({ name: 'DriverAdapterError' });
    await expect(adapter.queryRaw('INSERT')).rejects.toBe(unique);
    expect(calls).toEqual(['executeRaw', 'executeRaw', 'queryRaw']);
  });

  it('leaves the factory otherwise untouched', () => {
    const { factory } = fakeFactory({});
    expect(retryOnConnectionLoss(factory).adapterName).toBe('pg');
    expect(new HttpError(503, 'x')).toBeInstanceOf(Error);
  });
});
