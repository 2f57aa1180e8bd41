import { claimIdempotencyKey, completeIdempotencyKey, type IdempotencyRequest } from '@tyres/service-kit';
import { DB_SCHEMA, TX_OPTIONS, type Db, type Tx } from '../db/client';

/** What a caller is answered: the status and the body (as stored for an Idempotency-Key replay). */
export interface Answer {
  statusCode: number;
  body: unknown;
}

export interface Replied extends Answer {
  /** The stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/** How a use case's result reads to its caller, and the request's Idempotency-Key when it carried one. */
export interface Reply<T> {
  idempotency?: IdempotencyRequest | undefined;
  answer(result: T): Answer;
}

/**
 * Billing's transactions: every use case that writes runs in one, and the outbox relay is woken once it committed
 * (its events go out at once instead of at the next poll).
 */
export class Transactions {
  constructor(
    private readonly db: Db,
    private readonly wake: () => void,
  ) {}

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const result = await this.db.$transaction(work, TX_OPTIONS);
    this.wake();
    return result;
  }

  /**
   * The work and its answer with the Idempotency-Key claimed in the same transaction (service-kit's Postgres store,
   * issue 13): a retry replays the committed answer, a concurrent twin waits for the first and replays it, a key used
   * for another request is a 409, and a first attempt that failed (rolled back) leaves the key free. Nothing here
   * depends on Redis.
   */
  reply<T>(reply: Reply<T>, work: (tx: Tx) => Promise<T>): Promise<Replied> {
    const key = reply.idempotency;
    return this.run(async (tx): Promise<Replied> => {
      if (key) {
        const claim = await claimIdempotencyKey(tx, DB_SCHEMA, key);
        if (!claim.claimed) return { ...claim.replay, replayed: true };
      }
      const answer = reply.answer(await work(tx));
      if (key) await completeIdempotencyKey(tx, DB_SCHEMA, key, answer.statusCode, answer.body);
      return { ...answer, replayed: false };
    });
  }
}
