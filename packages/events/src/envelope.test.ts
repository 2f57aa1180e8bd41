import { z } from 'zod';
import { causedBy, createEvent, defineContract, envelopeSchema } from './envelope';
import { UserCreated } from './contracts';

const user = {
  userId: '6f1c8c3e-2a51-4a7b-9d43-0d6f0a1b2c3d',
  username: 'sam',
  email: null,
  role: 'technician' as const,
  isActive: true,
  createdAt: '2025-01-02T03:04:05.000Z',
};

describe('envelope', () => {
  it('createEvent builds a valid envelope with the contract type and version', () => {
    const event = createEvent(UserCreated, user, { source: 'gateway', correlationId: 'req-1' });
    expect(event).toMatchObject({
      type: 'user.created.v1',
      version: 1,
      source: 'gateway',
      correlationId: 'req-1',
    });
    expect(event.causationId).toBeUndefined();
    expect('causationId' in event).toBe(false);
    expect(envelopeSchema.safeParse(event).success).toBe(true);
    expect(event.data).toEqual(user);
    expect(Date.parse(event.occurredAt)).not.toBeNaN();
  });

  it('createEvent refuses data that does not match the contract', () => {
    expect(() =>
      createEvent(
        UserCreated,
        { ...user, role: 'owner' as never },
        { source: 'gateway', correlationId: 'r' },
      ),
    ).toThrow(z.ZodError);
    expect(() =>
      createEvent(UserCreated, { ...user, userId: 'nope' }, { source: 'gateway', correlationId: 'r' }),
    ).toThrow(z.ZodError);
  });

  it('causedBy carries the correlation id and sets the causation id', () => {
    const parent = createEvent(UserCreated, user, { source: 'gateway', correlationId: 'req-9' });
    const child = createEvent(UserCreated, user, causedBy(parent, 'jobs'));
    expect(child.correlationId).toBe('req-9');
    expect(child.causationId).toBe(parent.id);
    expect(child.source).toBe('jobs');
  });

  it('rejects envelopes with bad ids, types, versions or timestamps', () => {
    const good = createEvent(UserCreated, user, { source: 'gateway', correlationId: 'r' });
    expect(envelopeSchema.safeParse({ ...good, id: 'x' }).success).toBe(false);
    expect(envelopeSchema.safeParse({ ...good, type: 'UserCreated' }).success).toBe(false);
    expect(envelopeSchema.safeParse({ ...good, version: 2 }).success).toBe(false);
    expect(envelopeSchema.safeParse({ ...good, version: 1.5 }).success).toBe(false);
    expect(envelopeSchema.safeParse({ ...good, occurredAt: 'yesterday' }).success).toBe(false);
    expect(envelopeSchema.safeParse({ ...good, correlationId: '' }).success).toBe(false);
    expect(envelopeSchema.safeParse({ ...good, source: undefined }).success).toBe(false);
  });

  it('defineContract checks that the type ends with the version', () => {
    expect(() => defineContract({ type: 'a.b.v2', name: 'B', version: 1, schema: z.object({}) })).toThrow(
      /version/,
    );
    expect(() => defineContract({ type: 'AB', name: 'B', version: 1, schema: z.object({}) })).toThrow(
      /Invalid/,
    );
    expect(defineContract({ type: 'a.b.v3', name: 'B', version: 3, schema: z.object({}) }).type).toBe(
      'a.b.v3',
    );
  });
});
