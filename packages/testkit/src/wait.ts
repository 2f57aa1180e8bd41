export interface WaitForOptions {
  /** Give up after this long (default 5000 ms). */
  timeoutMs?: number;
  /** Poll interval (default 50 ms). */
  intervalMs?: number;
  /** Prefix for the timeout error. */
  message?: string;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

async function poll<T>(
  attempt: () => Promise<{ done: true; value: T } | { done: false; value?: unknown }>,
  options: WaitForOptions,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const intervalMs = options.intervalMs ?? 50;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  let lastValue: unknown;
  for (;;) {
    try {
      const result = await attempt();
      if (result.done) return result.value;
      lastValue = result.value;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
  const prefix = options.message ? `${options.message}: ` : '';
  if (lastError instanceof Error) {
    lastError.message = `${prefix}timed out after ${timeoutMs} ms; last failure: ${lastError.message}`;
    throw lastError;
  }
  throw new Error(`${prefix}timed out after ${timeoutMs} ms (last value: ${JSON.stringify(lastValue)})`);
}

/**
 * Polls `predicate` until it returns something truthy, and resolves with it. Throwing counts as "not yet";
 * on timeout the last error (or value) is reported.
 *
 *   const row = await waitFor(() => findRow(id), { timeoutMs: 10_000 });
 */
export function waitFor<T>(
  predicate: () => T | Promise<T>,
  options: WaitForOptions = {},
): Promise<Truthy<T>> {
  return poll(async () => {
    const value = await predicate();
    return value ? { done: true, value: value as Truthy<T> } : { done: false, value };
  }, options);
}

/**
 * Retries a block of assertions until it stops throwing.
 *
 *   await waitForExpect(async () => expect(await admin.messageCount(dlq)).toBe(1));
 */
export function waitForExpect(assertion: () => unknown, options: WaitForOptions = {}): Promise<void> {
  return poll(async () => {
    await assertion();
    return { done: true, value: undefined };
  }, options);
}
