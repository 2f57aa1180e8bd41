import { isSerializationFailure, withSerializationRetry } from './prisma-errors';

/** A failure as `pg` raises it (SQLSTATE on the error itself). */
const pgError = (code: string) => Object.assign(new Error(code), { code });
/** A failure as Prisma with @prisma/adapter-pg raises it. */
const adapterError = (originalCode: string) =>
  Object.assign(new Error('adapter'), {
    code: 'P2010',
    meta: { driverAdapterError: { cause: { originalCode } } },
  });

describe('serialization retry', () => {
  it('recognises lost races and deadlocks from Prisma and from pg', () => {
    for (const err of [
      pgError('40001'),
      pgError('40P01'),
      pgError('P2034'),
      adapterError('40001'),
      adapterError('40P01'),
    ])
      expect(isSerializationFailure(err)).toBe(true);
    expect(isSerializationFailure(pgError('23505'))).toBe(false);
    expect(isSerializationFailure(undefined)).toBe(false);
  });

  it('runs a transaction again until it wins, at most `attempts` times; other failures are not retried', async () => {
    let calls = 0;
    const losesTwice = () => (++calls <= 2 ? Promise.reject(pgError('40P01')) : Promise.resolve('done'));
    await expect(withSerializationRetry(losesTwice, 4)).resolves.toBe('done');
    expect(calls).toBe(3);

    calls = 0;
    const alwaysLoses = () => (++calls, Promise.reject(pgError('40001')));
    await expect(withSerializationRetry(alwaysLoses, 4)).rejects.toMatchObject({ code: '40001' });
    expect(calls).toBe(4);

    calls = 0;
    const broken = () => (++calls, Promise.reject(pgError('23505')));
    await expect(withSerializationRetry(broken, 4)).rejects.toMatchObject({ code: '23505' });
    expect(calls).toBe(1);
  });
});
