import { backoffDelay, redactUrl } from './connection';

describe('reconnect backoff', () => {
  it('grows exponentially, stays within ±jitter and never exceeds the cap', () => {
    for (let i = 0; i < 50; i++) {
      const first = backoffDelay(1, { initialDelayMs: 100, jitter: 0.2 });
      expect(first).toBeGreaterThanOrEqual(80);
      expect(first).toBeLessThanOrEqual(120);
      const third = backoffDelay(3, { initialDelayMs: 100, multiplier: 2, jitter: 0.2 });
      expect(third).toBeGreaterThanOrEqual(320);
      expect(third).toBeLessThanOrEqual(480);
      expect(backoffDelay(40, { initialDelayMs: 100, maxDelayMs: 1000 })).toBeLessThanOrEqual(1000);
    }
    expect(backoffDelay(2, { initialDelayMs: 100, jitter: 0 })).toBe(200);
  });
});

describe('redactUrl', () => {
  it('hides the password', () => {
    expect(redactUrl('amqp://guest:secret@host:5672/vh')).toBe('amqp://guest:***@host:5672/vh');
    expect(redactUrl('nonsense')).toBe('(invalid url)');
  });
});
