import { conventionalNames, uniquePrefix } from './rabbit';

describe('uniquePrefix', () => {
  it('is unique, readable and safe for AMQP names and Redis keys', () => {
    const a = uniquePrefix('Outbox Relay!');
    const b = uniquePrefix('Outbox Relay!');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^t-outbox-relay-[0-9a-f]{6}\.$/);
    expect(uniquePrefix()).toMatch(/^t-t-[0-9a-f]{6}\.$/);
  });

  it('conventionalNames follows docs/team-conventions.md', () => {
    expect(conventionalNames('p.', ['jobs'], [100, 100])).toEqual({
      exchanges: ['p.tyres.events', 'p.tyres.dlx'],
      queues: ['p.jobs', 'p.jobs.dlq', 'p.jobs.retry.100ms'],
    });
  });
});
