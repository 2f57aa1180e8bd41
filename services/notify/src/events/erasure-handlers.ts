/**
 * Issue 18 (privacy): CustomerErased, applied once (inbox name `notify.onCustomerErased`: never rename it). The list
 * of what notify consumes stays ./subscriptions.ts.
 */
import {
  createInbox,
  type CustomerErasedV1,
  type EventHandler,
  type EventOf,
  type TransactionRunner,
} from '@tyres/events';
import type { CustomerErasure } from '../app/erasure';
import { DB_SCHEMA, type Db } from '../db/client';
import type { Prisma } from '../db/generated/client';

type Tx = Prisma.TransactionClient;

export interface ErasureHandlers {
  customerErased: EventHandler<EventOf<typeof CustomerErasedV1>>;
}

export function erasureHandlers(deps: { db: Db; erasure: CustomerErasure }): ErasureHandlers {
  const inbox = createInbox<Tx>(deps.db as unknown as TransactionRunner<Tx>, {
    schema: DB_SCHEMA,
    transactionOptions: { timeout: 15_000 },
  });
  const once = inbox.handler<EventOf<typeof CustomerErasedV1>>('notify.onCustomerErased', (tx, event) =>
    deps.erasure.erase(tx, event.data),
  );
  return {
    customerErased: async (event, ctx) => {
      const outcome = await once(event, ctx);
      await deps.erasure.removeReminders(event.data.jobIds);
      return outcome;
    },
  };
}
