/**
 * Loading a remote again after a failure (a network blip, a deploy replacing the files) before the shell gives up
 * and shows its error page with a Retry button. The delays grow (0.5 s, 1 s, 2 s by default, at most 4 s), with
 * jitter so that every open tab does not ask again at the same moment after a deploy.

 */
export interface RetryOptions {
  /** How many times a failed load is tried again (the first try not counted). */
  retries: number;
  /** Delay before the first retry; each further one doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** 0-1; the delay is scaled by 0.5 + random / 2 (tests pass () => 1 for exact delays). */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Told about each failure that will be retried (the shell logs it). */
  onRetry?: (error: unknown, retry: number, delayMs: number) => void;
}

export const REMOTE_LOAD_RETRY: RetryOptions = { retries: 3, baseDelayMs: 500, maxDelayMs: 4000 };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The delay before retry number `retry` (1-based). */
export function backoffDelay(retry: number, options: RetryOptions): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  const random = options.random ?? Math.random;
  return Math.round(exponential * (0.5 + random() / 2));
}

/** `load()`, tried again with backoff while it fails; the last failure is what the caller gets. */
export async function withRetry<T>(
  load: () => Promise<T>,
  options: RetryOptions = REMOTE_LOAD_RETRY,
): Promise<T> {
  const sleep = options.sleep ?? wait;
  for (let retry = 1; ; retry++) {
    try {
      return await load();
    } catch (error) {
      if (retry > options.retries) throw error;
      const delay = backoffDelay(retry, options);
      options.onRetry?.(error, retry, delay);
      await sleep(delay);
    }
  }
}
