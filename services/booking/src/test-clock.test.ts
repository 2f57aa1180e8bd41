import { headerTestClock, parseOffset, TEST_CLOCK_HEADER } from './test-clock';

describe('the end-to-end test clock (TEST_CLOCK=header)', () => {
  it('reads whole milliseconds within a year; anything else is ignored', () => {
    expect(parseOffset('108000000')).toBe(108_000_000);
    expect(parseOffset('-3600000')).toBe(-3_600_000);
    expect(parseOffset(undefined)).toBeUndefined();
    expect(parseOffset('1.5')).toBeUndefined();
    expect(parseOffset('soon')).toBeUndefined();
    expect(parseOffset(String(400 * 86_400_000))).toBeUndefined();
    expect(parseOffset(['1', '2'])).toBeUndefined();
  });

  it("moves 'now' for the rest of a request that asks, and only for it", async () => {
    const t = headerTestClock(() => 1_000_000);
    expect(t.clock().getTime()).toBe(1_000_000);
    const seen: number[] = [];
    const req = { headers: { [TEST_CLOCK_HEADER]: '5000' } } as never;
    await new Promise<void>((resolve) =>
      t.middleware(req, {} as never, () => {
        // Later in the same request (after an await) it still holds.
        void Promise.resolve().then(() => {
          seen.push(t.clock().getTime());
          resolve();
        });
      }),
    );
    expect(seen).toEqual([1_005_000]);
    expect(t.clock().getTime()).toBe(1_000_000);
    t.middleware({ headers: {} } as never, {} as never, () => seen.push(t.clock().getTime()));
    expect(seen).toEqual([1_005_000, 1_000_000]);
  });
});
