/**
 * Issue 18 (privacy): CustomerErased, applied once (inbox name `billing.onCustomerErased`: never rename it). The
 * list of what billing consumes stays ./subscriptions.ts.
 */
import { createInbox, type CustomerErasedV1, type EventHandler, type EventOf } from '@tyres/events';
import { applyCustomerErasure } from '../app/erasure';
import { DB_SCHEMA, TX_OPTIONS, type Db, type Tx } from '../db/client';

export interface ErasureHandlers {
  customerErased: EventHandler<EventOf<typeof CustomerErasedV1>>;
}

export function erasureHandlers(deps: { db: Db }): ErasureHandlers {
  const inbox = createInbox<Tx>(deps.db, { schema: DB_SCHEMA, transactionOptions: TX_OPTIONS });
  return {
    customerErased: inbox.handler<EventOf<typeof CustomerErasedV1>>('billing.onCustomerErased', (tx, event) =>
      applyCustomerErasure(tx, event.data),
    ),
  };
}
