import { createEvent, UserCreatedV1, UserStatusChangedV1, type EventEnvelope } from '@tyres/events';
import { currentCorrelationId } from '@tyres/service-kit';
import { randomUUID } from 'node:crypto';
import type { Tx, UserEventSink } from '../db/users';

export type OutboxWrite = (tx: Tx, event: EventEnvelope) => Promise<unknown>;

/** UserCreated / UserStatusChanged go through the outbox in the same transaction as the user row. */
export function userEvents(write: OutboxWrite): UserEventSink {
  const meta = () => ({ source: 'gateway', correlationId: currentCorrelationId() ?? randomUUID() });
  return {
    async userCreated(tx, user) {
      await write(
        tx,
        createEvent(
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
        ),
      );
    },
    async userStatusChanged(tx, user) {
      await write(
        tx,
        createEvent(
          UserStatusChangedV1,
          {
            userId: user.id,
            username: user.username,
            role: user.role,
            isActive: user.isActive,
            changedAt: new Date().toISOString(),
          },
          meta(),
        ),
      );
    },
  };
}
