import { resolveRetryPolicy, serviceTopology, exchangeNames, assertServiceTopology } from './topology';

describe('retry policy', () => {
  it('defaults to 5 attempts with 1 s, 5 s, 25 s, 125 s between them', () => {
    expect(resolveRetryPolicy()).toEqual({ maxAttempts: 5, delaysMs: [1000, 5000, 25000, 125000] });
  });

  it('caps delays and honours explicit delays (the last one repeats)', () => {
    expect(
      resolveRetryPolicy({ maxAttempts: 4, initialDelayMs: 100, multiplier: 10, maxDelayMs: 5000 }).delaysMs,
    ).toEqual([100, 1000, 5000]);
    expect(resolveRetryPolicy({ maxAttempts: 5, delaysMs: [50, 200] }).delaysMs).toEqual([50, 200, 200, 200]);
    expect(resolveRetryPolicy({ maxAttempts: 1 }).delaysMs).toEqual([]);
  });

  it('refuses nonsense', () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow();
    expect(() => resolveRetryPolicy({ delaysMs: [0] })).toThrow();
  });
});

describe('topology names', () => {
  it('follows docs/team-conventions.md', () => {
    const t = serviceTopology('jobs', 'test-1.', resolveRetryPolicy({ delaysMs: [100, 100, 400] }));
    expect(t.exchange).toBe('test-1.tyres.events');
    expect(t.deadLetterExchange).toBe('test-1.tyres.dlx');
    expect(t.queue).toBe('test-1.jobs');
    expect(t.deadLetterQueue).toBe('test-1.jobs.dlq');
    expect(t.retryQueues).toEqual([
      { delayMs: 100, name: 'test-1.jobs.retry.100ms' },
      { delayMs: 400, name: 'test-1.jobs.retry.400ms' },
    ]);
    expect(t.queues).toEqual([
      'test-1.jobs',
      'test-1.jobs.dlq',
      'test-1.jobs.retry.100ms',
      'test-1.jobs.retry.400ms',
    ]);
    expect(exchangeNames()).toEqual({ exchange: 'tyres.events', deadLetterExchange: 'tyres.dlx' });
    expect(() => serviceTopology('Jobs Service')).toThrow();
  });

  it('declares queues with dead-lettering and binds each routing key', async () => {
    const calls: unknown[][] = [];
    const ch = {
      assertExchange: async (...a: unknown[]) => void calls.push(['exchange', ...a]),
      assertQueue: async (...a: unknown[]) => void calls.push(['queue', ...a]),
      bindQueue: async (...a: unknown[]) => void calls.push(['bind', ...a]),
    };
    const t = serviceTopology('notify', '', resolveRetryPolicy({ delaysMs: [1000] }));
    await assertServiceTopology(ch as never, t, ['booking.created.v1'], { queueType: 'quorum' });
    expect(calls).toContainEqual(['exchange', 'tyres.events', 'topic', { durable: true }]);
    expect(calls).toContainEqual(['exchange', 'tyres.dlx', 'direct', { durable: true }]);
    expect(calls).toContainEqual([
      'queue',
      'notify',
      {
        durable: true,
        arguments: {
          'x-queue-type': 'quorum',
          'x-delivery-limit': 20,
          'x-dead-letter-exchange': 'tyres.dlx',
          'x-dead-letter-routing-key': 'notify',
        },
      },
    ]);
    expect(calls).toContainEqual([
      'queue',
      'notify.retry.1000ms',
      {
        durable: true,
        arguments: {
          'x-queue-type': 'classic',
          'x-message-ttl': 1000,
          'x-dead-letter-exchange': '',
          'x-dead-letter-routing-key': 'notify',
        },
      },
    ]);
    expect(calls).toContainEqual(['bind', 'notify.dlq', 'tyres.dlx', 'notify']);
    expect(calls).toContainEqual(['bind', 'notify', 'tyres.events', 'booking.created.v1']);
  });
});
