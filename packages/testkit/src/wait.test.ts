import { waitFor, waitForExpect } from './wait';

describe('waitFor', () => {
  it('resolves with the first truthy value', async () => {
    let n = 0;
    await expect(waitFor(() => (++n >= 3 ? { n } : undefined), { intervalMs: 1 })).resolves.toEqual({ n: 3 });
  });

  it('treats a throw as "not yet" and reports the last failure on timeout', async () => {
    await expect(
      waitFor(
        () => {
          throw new Error('still broken');
        },
        { timeoutMs: 50, intervalMs: 5, message: 'row never appeared' },
      ),
    ).rejects.toThrow(/row never appeared: timed out after 50 ms; last failure: still broken/);
    await expect(waitFor(() => 0, { timeoutMs: 30, intervalMs: 5 })).rejects.toThrow(/last value: 0/);
  });

  it('waitForExpect retries assertions until they pass', async () => {
    let n = 0;
    await waitForExpect(() => expect(++n).toBe(4), { intervalMs: 1 });
    expect(n).toBe(4);
    await expect(waitForExpect(() => expect(1).toBe(2), { timeoutMs: 30 })).rejects.toThrow(/timed out/);
  });
});
