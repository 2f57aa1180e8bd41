/**
 * Issue 18 (privacy): CustomerErased, applied once (inbox name `reporting.onCustomerErased`: never rename it), one
 * event at a time beside the batch consumer. The list of what reporting consumes stays ./subscriptions.ts.
 */
import {
  createInbox,
  pgExecutor,
  type CustomerErasedV1,
  type EventHandler,
  type EventOf,
  type SqlExecutor,
} from '@tyres/events';
import { applyCustomerErasure } from '../app/erasure';
import { DB_SCHEMA, poolOf, type Db } from '../db/client';

export interface ErasureHandlers {
  customerErased: EventHandler<EventOf<typeof CustomerErasedV1>>;
}

export function erasureHandlers(deps: { db: Db; afterCommit?: () => void }): ErasureHandlers {
  const inbox = createInbox<SqlExecutor>(pgExecutor(poolOf(deps.db)), { schema: DB_SCHEMA });
  const handler = inbox.handler<EventOf<typeof CustomerErasedV1>>('reporting.onCustomerErased', (tx, event) =>
    applyCustomerErasure(tx, event.data),
  );
  return {
    customerErased: async (event, ctx) => {
      const outcome = await handler(event, ctx);
      deps.afterCommit?.();
      return outcome;
    },
  };
}
