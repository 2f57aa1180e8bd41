import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { poolOf, type Db } from './client';
import type { Delivery, DeliveryAttempt, DeliveryChannel, DeliveryStatus } from './generated/client';

export type { Delivery, DeliveryAttempt, DeliveryChannel, DeliveryStatus };

export interface NewDelivery {
  key: string;
  channel: DeliveryChannel;
  purpose: string;
  recipient: string;
  subject?: string | null;
  body: string;
  html?: string | null;
  replyTo?: string | null;
  /** Extra email headers (List-Unsubscribe on marketing messages). */
  headers?: Record<string, string> | null;
  jobId?: string | null;
  /** The staff member who asked for the message; told how its delivery ended. */
  requestedBy?: string | null;
  maxAttempts: number;
  sourceEventId?: string | null;
  correlationId?: string | null;
  requestedAt: Date;
  /** Held back until then (quiet hours): shown in the log as the next attempt. */
  nextAttemptAt?: Date | null;
}

/** lastError of a message withdrawn before it was sent (withdrawOpen): claimAttempt never takes it. */
export const WITHDRAWN = 'withdrawn:';

export interface ListFilter {
  channel?: DeliveryChannel;
  status?: DeliveryStatus;
  jobId?: string;
  /** Rows created strictly before this instant (keyset pagination on createdAt, then id). */
  before?: { createdAt: Date; id: string };
  limit: number;
}

/**
 * The delivery log. One row per message (unique `key` = the BullMQ job id), written before the job is queued;
 * workers update it per attempt, and every attempt is kept in delivery_attempts.
 */
export class DeliveryRepository {
  private readonly pool: Pick<pg.Pool, 'query'>;

  /** `pool`: the pg pool under `db` (createDb's) unless given. */
  constructor(
    private readonly db: Db,
    pool?: Pick<pg.Pool, 'query'>,
  ) {
    this.pool = pool ?? poolOf(db);
  }

  /** Inserts the row unless one with the same key exists; returns the row and whether this call created it. */
  async createIfAbsent(input: NewDelivery): Promise<{ delivery: Delivery; created: boolean }> {
    // One statement when the row is new (the usual case): the insert returns it, as the erasure trigger left it; a
    // duplicate returns nothing (ON CONFLICT DO NOTHING) and the existing row is read.
    const inserted = await this.pool.query<DeliveryRow>(
      `INSERT INTO "notify"."deliveries" ("id", "key", "channel", "purpose", "recipient", "subject", "body", "html",
         "reply_to", "headers", "job_id", "requested_by", "max_attempts", "source_event_id", "correlation_id",
         "requested_at", "next_attempt_at", "updated_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17, $18)
       ON CONFLICT ("key") DO NOTHING
       RETURNING *`,
      [
        randomUUID(),
        input.key,
        input.channel,
        input.purpose,
        input.recipient,
        input.subject ?? null,
        input.body,
        input.html ?? null,
        input.replyTo ?? null,
        input.headers ? JSON.stringify(input.headers) : null,
        input.jobId ?? null,
        input.requestedBy ?? null,
        input.maxAttempts,
        input.sourceEventId ?? null,
        input.correlationId ?? null,
        input.requestedAt,
        input.nextAttemptAt ?? null,
        new Date(),
      ],
    );
    if (inserted.rows[0]) return { delivery: fromRow(inserted.rows[0]), created: true };
    const delivery = await this.getByKey(input.key);
    if (!delivery) throw new Error(`Delivery ${input.key} neither inserted nor found`);
    return { delivery, created: false };
  }

  async get(id: string): Promise<Delivery | null> {
    const { rows } = await this.pool.query<DeliveryRow>(
      'SELECT * FROM "notify"."deliveries" WHERE "id" = $1',
      [id],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async getByKey(key: string): Promise<Delivery | null> {
    const { rows } = await this.pool.query<DeliveryRow>(
      'SELECT * FROM "notify"."deliveries" WHERE "key" = $1',
      [key],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /**
   * Messages of `purpose` to `recipient` not sent yet (queued, held for the morning, retrying) are given up with
   * `reason`: an unsubscribe stops the marketing messages already waiting. Returns their keys (= BullMQ job ids).
   */
  async withdrawOpen(recipient: string, purpose: string, reason: string): Promise<string[]> {
    const lastError = `${WITHDRAWN} ${reason}`;
    const rows = await this.db.delivery.updateManyAndReturn({
      where: {
        recipient: { equals: recipient, mode: 'insensitive' },
        purpose,
        status: { in: ['queued', 'retrying'] },
      },
      data: { status: 'failed', lastError, failedAt: new Date(), nextAttemptAt: null },
      select: { key: true },
    });
    return rows.map((r) => r.key);
  }

  /**
   * A worker takes the message for one attempt: atomically sets it `sending` and counts the attempt, unless it is
   * already sent, or another attempt holds it (`sending`, updated less than `leaseMs` ago: e.g. a job BullMQ
   * thought stalled and handed to a second replica while the first is still talking to the provider), or it was
   * withdrawn. Returns the row as taken (`attempts` is the attempt number: the row's own counter, which survives
   * manual retries), or null when not taken. One statement: the worker needs no read before it.
   */
  async claim(id: string, transport: string, leaseMs: number): Promise<Delivery | null> {
    const now = new Date();
    const { rows } = await this.pool.query<DeliveryRow>(
      `UPDATE "notify"."deliveries"
          SET "status" = 'sending', "transport" = $2, "attempts" = "attempts" + 1, "next_attempt_at" = NULL,
              "updated_at" = $3
        WHERE "id" = $1
          AND ("status" IN ('queued', 'retrying', 'failed') OR ("status" = 'sending' AND "updated_at" < $4))
          AND ("last_error" IS NULL OR "last_error" NOT LIKE $5)
        RETURNING *`,
      [id, transport, now, new Date(now.getTime() - leaseMs), `${WITHDRAWN}%`],
    );
    const row = rows[0];
    // The erasure trigger withdraws a message of an erased customer on any write: then it was not taken.
    return row && row.status === 'sending' ? fromRow(row) : null;
  }

  /** claim(), returning only the attempt number; `normalizedTo` (E.164) recorded with it. */
  async claimAttempt(
    id: string,
    transport: string,
    leaseMs: number,
    normalizedTo?: string,
  ): Promise<number | null> {
    const taken = await this.claim(id, transport, leaseMs);
    if (taken && normalizedTo) await this.setNormalizedTo(id, normalizedTo);
    return taken?.attempts ?? null;
  }

  /** The E.164 number a message was sent to (SMS). */
  async setNormalizedTo(id: string, normalizedTo: string): Promise<void> {
    await this.pool.query('UPDATE "notify"."deliveries" SET "normalized_to" = $2 WHERE "id" = $1', [
      id,
      normalizedTo,
    ]);
  }

  /**
   * Each outcome is one statement: the row's update and its attempt log entry together (a data-modifying CTE is
   * atomic like the transaction it replaces). `normalizedTo`: the E.164 number the attempt used (SMS).
   */
  async markSent(
    id: string,
    attempt: number,
    sent: {
      transport: string;
      providerMessageId: string | null;
      rawMessage?: string | null;
      durationMs: number;
      at: Date;
      normalizedTo?: string;
    },
  ): Promise<void> {
    await this.outcome(
      id,
      attempt,
      `"status" = 'sent', "transport" = $9, "provider_message_id" = $10, "raw_message" = $11, "sent_at" = $12,
       "last_error" = NULL, "next_attempt_at" = NULL`,
      { outcome: 'sent', error: null, transport: sent.transport, durationMs: sent.durationMs },
      sent.normalizedTo,
      [sent.transport, sent.providerMessageId, sent.rawMessage ?? null, sent.at],
    );
  }

  async markRetrying(
    id: string,
    attempt: number,
    failure: {
      error: string;
      transport: string;
      durationMs: number;
      nextAttemptAt: Date;
      normalizedTo?: string;
    },
  ) {
    await this.outcome(
      id,
      attempt,
      `"status" = 'retrying', "last_error" = $9, "next_attempt_at" = $10`,
      {
        outcome: 'retry',
        error: failure.error,
        transport: failure.transport,
        durationMs: failure.durationMs,
      },
      failure.normalizedTo,
      [failure.error, failure.nextAttemptAt],
    );
  }

  async markFailed(
    id: string,
    attempt: number,
    failure: { error: string; transport: string; durationMs: number; at: Date; normalizedTo?: string },
  ) {
    await this.outcome(
      id,
      attempt,
      `"status" = 'failed', "last_error" = $9, "failed_at" = $10, "next_attempt_at" = NULL`,
      {
        outcome: 'failed',
        error: failure.error,
        transport: failure.transport,
        durationMs: failure.durationMs,
      },
      failure.normalizedTo,
      [failure.error, failure.at],
    );
  }

  /** `set` uses $9… for `extra`; $1–$8 are the row id, the attempt entry, updated_at and the duration. */
  private async outcome(
    id: string,
    attempt: number,
    set: string,
    log: { outcome: string; error: string | null; transport: string; durationMs: number },
    normalizedTo: string | undefined,
    extra: unknown[],
  ): Promise<void> {
    const params: unknown[] = [
      id,
      randomUUID(),
      attempt,
      log.outcome,
      log.error,
      log.transport,
      new Date(),
      log.durationMs,
      ...extra,
    ];
    let normalized = '';
    if (normalizedTo !== undefined) {
      params.push(normalizedTo);
      normalized = `, "normalized_to" = $${params.length}`;
    }
    await this.pool.query(
      `WITH d AS (
         UPDATE "notify"."deliveries" SET ${set}, "updated_at" = $7${normalized} WHERE "id" = $1 RETURNING "id"
       )
       INSERT INTO "notify"."delivery_attempts" ("id", "delivery_id", "attempt", "outcome", "error", "transport",
         "duration_ms")
       SELECT $2::uuid, d."id", $3::int, $4::text, $5::text, $6::text, $8::int FROM d
       ON CONFLICT ("delivery_id", "attempt") DO UPDATE
         SET "outcome" = EXCLUDED."outcome", "error" = EXCLUDED."error", "transport" = EXCLUDED."transport",
             "duration_ms" = EXCLUDED."duration_ms"`,
      params,
    );
  }

  list(filter: ListFilter): Promise<Delivery[]> {
    return this.db.delivery.findMany({
      where: {
        ...(filter.channel ? { channel: filter.channel } : {}),
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.jobId ? { jobId: filter.jobId } : {}),
        ...(filter.before
          ? {
              OR: [
                { createdAt: { lt: filter.before.createdAt } },
                { createdAt: filter.before.createdAt, id: { lt: filter.before.id } },
              ],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filter.limit,
    });
  }

  withAttempts(id: string): Promise<(Delivery & { attemptLog: DeliveryAttempt[] }) | null> {
    return this.db.delivery.findUnique({
      where: { id },
      include: { attemptLog: { orderBy: { attempt: 'asc' } } },
    });
  }
}

/** A deliveries row as pg returns it (timestamps as Date, jsonb parsed). */
interface DeliveryRow {
  id: string;
  key: string;
  channel: DeliveryChannel;
  purpose: string;
  recipient: string;
  normalized_to: string | null;
  subject: string | null;
  body: string;
  html: string | null;
  reply_to: string | null;
  job_id: string | null;
  requested_by: string | null;
  status: DeliveryStatus;
  transport: string | null;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  next_attempt_at: Date | null;
  provider_message_id: string | null;
  raw_message: string | null;
  headers: Delivery['headers'];
  source_event_id: string | null;
  correlation_id: string | null;
  requested_at: Date;
  created_at: Date;
  updated_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
}

const fromRow = (r: DeliveryRow): Delivery => ({
  id: r.id,
  key: r.key,
  channel: r.channel,
  purpose: r.purpose,
  recipient: r.recipient,
  normalizedTo: r.normalized_to,
  subject: r.subject,
  body: r.body,
  html: r.html,
  replyTo: r.reply_to,
  jobId: r.job_id,
  requestedBy: r.requested_by,
  status: r.status,
  transport: r.transport,
  attempts: r.attempts,
  maxAttempts: r.max_attempts,
  lastError: r.last_error,
  nextAttemptAt: r.next_attempt_at,
  providerMessageId: r.provider_message_id,
  rawMessage: r.raw_message,
  headers: r.headers,
  sourceEventId: r.source_event_id,
  correlationId: r.correlation_id,
  requestedAt: r.requested_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  sentAt: r.sent_at,
  failedAt: r.failed_at,
});
