import { backoffDelay, REMOTE_LOAD_RETRY, withRetry } from './retry';

const exact = { ...REMOTE_LOAD_RETRY, random: () => 1 };

function failing(times: number, error = new Error('Failed to fetch')) {
  let calls = 0;
  const load = jest.fn(async () => {
    calls += 1;
    if (calls <= times) throw error;
    return 'the app';
  });
  return load;
}

describe('loading a remote again with backoff', () => {
  test('a load that fails twice is tried again after 0.5 s and 1 s, then succeeds', async () => {
    const sleeps: number[] = [];
    const load = failing(2);
    await expect(withRetry(load, { ...exact, sleep: async (ms) => void sleeps.push(ms) })).resolves.toBe(
      'the app',
    );
    expect(load).toHaveBeenCalledTimes(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  test('after 3 retries the last failure is the answer', async () => {
    const sleeps: number[] = [];
    const onRetry = jest.fn();
    const load = failing(10, new Error('still down'));
    await expect(
      withRetry(load, { ...exact, sleep: async (ms) => void sleeps.push(ms), onRetry }),
    ).rejects.toThrow('still down');
    expect(load).toHaveBeenCalledTimes(4);
    expect(sleeps).toEqual([500, 1000, 2000]);
    expect(onRetry).toHaveBeenCalledTimes(3);
  });

  test('a first success waits for nothing', async () => {
    const sleep = jest.fn(async () => undefined);
    await expect(withRetry(failing(0), { ...exact, sleep })).resolves.toBe('the app');
    expect(sleep).not.toHaveBeenCalled();
  });

  test('delays double up to the cap, with jitter between half and all of it', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, exact))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect(backoffDelay(2, { ...exact, random: () => 0 })).toBe(500);
    expect(backoffDelay(2, { ...exact, random: () => 0.5 })).toBe(750);
  });
});
