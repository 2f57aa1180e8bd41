import {
  createInbox,
  pgExecutor,
  type BatchEventHandler,
  type EventHandler,
  type SqlExecutor,
} from '@tyres/events';
import { recordEvent, recordEvents } from '../app/event-store';
import { DB_SCHEMA, poolOf, type Db } from '../db/client';
import type { ConsumedEvent } from '../domain/aggregates';

/** Inbox key of the one effect every consumed event has: stored + its aggregate re-projected. Never rename. */
export const STORE_HANDLER = 'reporting.store';

export interface ReportingHandlers {
  /** Every consumed event: stored and folded into the projections (src/app/event-store.ts). */
  store: EventHandler<ConsumedEvent>;
  /**
   * The live consumer's path: a batch of events stored and folded in one transaction with their inbox rows (the
   * same effect as `store` on each, in order). Duplicates (handled before, or twice in the batch) are skipped.
   */
  storeBatch: BatchEventHandler<ConsumedEvent>;
}

/**
 * Each event is stored in `reporting.events` and folded into the projections in one transaction with its inbox
 * row (the day summaries follow through the day refresher, woken by `afterCommit`); a redelivery is acknowledged
 * and skipped. Messages that fail their contract are dead-lettered by the bus before reaching this code.
 */
export function reportingHandlers(deps: {
  db: Db;
  /** After each commit, with how many events it folded (the day refresher is woken, or told of a backlog). */
  afterCommit?: (events: number) => void;
}): ReportingHandlers {
  // Handler transactions run on the pg driver (the pool under the Prisma client): every statement here is raw SQL,
  // and going through Prisma's raw-query path cost more CPU than the statements themselves (catch-up was bound by
  // this process, with Postgres sessions idle in ClientRead).
  const db = pgExecutor(poolOf(deps.db));
  const inbox = createInbox<SqlExecutor>(db, { schema: DB_SCHEMA });
  const record = inbox.handler<ConsumedEvent>(STORE_HANDLER, async (tx, event) => {
    await recordEvent(tx, event);
  });
  const afterCommit = deps.afterCommit ?? (() => undefined);
  return {
    store: async (event, ctx) => {
      const outcome = await record(event, ctx);
      // After the commit: the day refresher picks up the days the event marked dirty at once.
      afterCommit(1);
      return outcome;
    },
    storeBatch: async (items) => {
      const outcomes = await db.$transaction(async (tx) => {
        const fresh = await inbox.claim(
          tx,
          items.map((i) => i.event.id),
          STORE_HANDLER,
        );
        const fold: ConsumedEvent[] = [];
        const result = items.map(({ event }): 'duplicate' | undefined => {
          // The first copy of a fresh id is applied; every other copy is a duplicate.
          if (!fresh.delete(event.id)) return 'duplicate';
          fold.push(event);
          return undefined;
        });
        await recordEvents(tx, fold);
        return result;
      });
      afterCommit(items.length);
      items.forEach(({ ctx }, i) => {
        if (outcomes[i] === 'duplicate')
          ctx.logger.info({ handler: STORE_HANDLER }, 'event already handled; skipped (inbox)');
      });
      return outcomes;
    },
  };
}
