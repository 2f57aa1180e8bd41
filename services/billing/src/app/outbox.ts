import { randomUUID } from 'node:crypto';
import { createEvent, type AnyContract, type EventInput, type Outbox } from '@tyres/events';
import { currentCorrelationId } from '@tyres/service-kit';
import type { Tx } from '../db/client';

export const SOURCE = 'billing';

/** Writes events into the outbox in the use case's transaction; the relay publishes them after commit. */
export interface EventWriter {
  emit<C extends AnyContract>(
    tx: Tx,
    contract: C,
    data: EventInput<C>,
    causation?: { id: string; correlationId: string },
  ): Promise<void>;
}

export function eventWriter(outbox: Outbox): EventWriter {
  return {
    async emit(tx, contract, data, causation) {
      const meta = causation
        ? { source: SOURCE, correlationId: causation.correlationId, causationId: causation.id }
        : { source: SOURCE, correlationId: currentCorrelationId() ?? randomUUID() };
      await outbox.enqueue(tx, createEvent(contract, data, meta));
    },
  };
}
