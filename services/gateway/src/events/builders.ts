import { createEvent, UserCreatedV1, UserStatusChangedV1, type EventEnvelope } from '@tyres/events';
import { currentCorrelationId } from '@tyres/service-kit';
import { randomUUID } from 'node:crypto';
import type { PublicUser } from '../domain/users';

/**
 * The events the gateway publishes, built from the user as it is after the change. The use cases
 * (src/app/staff-accounts.ts) write them through the outbox in the same transaction as the user row.
 */
const meta = () => ({ source: 'gateway', correlationId: currentCorrelationId() ?? randomUUID() });

export function userCreated(user: PublicUser): EventEnvelope {
  return createEvent(
    UserCreatedV1,
    {
      userId: user.id,
      username: user.username,
      email: user.email,
      role: user.role,
      isActive: user.isActive,
      createdAt: user.createdAt,
    },
    meta(),
  );
}

export function userStatusChanged(user: PublicUser): EventEnvelope {
  return createEvent(
    UserStatusChangedV1,
    {
      userId: user.id,
      username: user.username,
      role: user.role,
      isActive: user.isActive,
      changedAt: new Date().toISOString(),
    },
    meta(),
  );
}
