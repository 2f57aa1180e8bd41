import { randomUUID } from 'node:crypto';
import type { Db } from './client';
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
  constructor(private readonly db: Db) {}

  /** Inserts the row unless one with the same key exists; returns the row and whether this call created it. */
  async createIfAbsent(input: NewDelivery): Promise<{ delivery: Delivery; created: boolean }> {
    // One round trip when the row is new (the usual case): the insert returns it; a duplicate returns nothing
    // (ON CONFLICT DO NOTHING) and the existing row is read.
    const inserted = await this.db.delivery.createManyAndReturn({
      data: [
        {
          id: randomUUID(),
          key: input.key,
          channel: input.channel,
          purpose: input.purpose,
          recipient: input.recipient,
          subject: input.subject ?? null,
          body: input.body,
          html: input.html ?? null,
          replyTo: input.replyTo ?? null,
          ...(input.headers ? { headers: input.headers } : {}),
          jobId: input.jobId ?? null,
          requestedBy: input.requestedBy ?? null,
          maxAttempts: input.maxAttempts,
          sourceEventId: input.sourceEventId ?? null,
          correlationId: input.correlationId ?? null,
          requestedAt: input.requestedAt,
          nextAttemptAt: input.nextAttemptAt ?? null,
        },
      ],
      skipDuplicates: true,
    });
    if (inserted[0]) return { delivery: inserted[0], created: true };
    const delivery = await this.db.delivery.findUniqueOrThrow({ where: { key: input.key } });
    return { delivery, created: false };
  }

  get(id: string): Promise<Delivery | null> {
    return this.db.delivery.findUnique({ where: { id } });
  }

  getByKey(key: string): Promise<Delivery | null> {
    return this.db.delivery.findUnique({ where: { key } });
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
   * thought stalled and handed to a second replica while the first is still talking to the provider). Returns the
   * attempt number (the row's own counter, which survives manual retries), or null when not taken.
   */
  async claimAttempt(
    id: string,
    transport: string,
    leaseMs: number,
    normalizedTo?: string,
  ): Promise<number | null> {
    const rows = await this.db.delivery.updateManyAndReturn({
      where: {
        id,
        AND: [
          {
            OR: [
              { status: { in: ['queued', 'retrying', 'failed'] } },
              { status: 'sending', updatedAt: { lt: new Date(Date.now() - leaseMs) } },
            ],
          },
          // A message withdrawn (its recipient unsubscribed) is never sent, whatever job is left for it.
          { OR: [{ lastError: null }, { NOT: { lastError: { startsWith: WITHDRAWN } } }] },
        ],
      },
      data: {
        status: 'sending',
        transport,
        attempts: { increment: 1 },
        nextAttemptAt: null,
        ...(normalizedTo ? { normalizedTo } : {}),
      },
      select: { attempts: true },
    });
    return rows[0]?.attempts ?? null;
  }

  async markSent(
    id: string,
    attempt: number,
    sent: {
      transport: string;
      providerMessageId: string | null;
      rawMessage?: string | null;
      durationMs: number;
      at: Date;
    },
  ): Promise<void> {
    await this.db.$transaction([
      this.db.delivery.update({
        where: { id },
        data: {
          status: 'sent',
          transport: sent.transport,
          providerMessageId: sent.providerMessageId,
          rawMessage: sent.rawMessage ?? null,
          sentAt: sent.at,
          lastError: null,
          nextAttemptAt: null,
        },
      }),
      this.attemptRow(id, attempt, 'sent', null, sent.transport, sent.durationMs),
    ]);
  }

  async markRetrying(
    id: string,
    attempt: number,
    failure: { error: string; transport: string; durationMs: number; nextAttemptAt: Date },
  ) {
    await this.db.$transaction([
      this.db.delivery.update({
        where: { id },
        data: { status: 'retrying', lastError: failure.error, nextAttemptAt: failure.nextAttemptAt },
      }),
      this.attemptRow(id, attempt, 'retry', failure.error, failure.transport, failure.durationMs),
    ]);
  }

  async markFailed(
    id: string,
    attempt: number,
    failure: { error: string; transport: string; durationMs: number; at: Date },
  ) {
    await this.db.$transaction([
      this.db.delivery.update({
        where: { id },
        data: { status: 'failed', lastError: failure.error, failedAt: failure.at, nextAttemptAt: null },
      }),
      this.attemptRow(id, attempt, 'failed', failure.error, failure.transport, failure.durationMs),
    ]);
  }

  private attemptRow(
    deliveryId: string,
    attempt: number,
    outcome: string,
    error: string | null,
    transport: string,
    durationMs: number,
  ) {
    return this.db.deliveryAttempt.upsert({
      where: { deliveryId_attempt: { deliveryId, attempt } },
      create: { id: randomUUID(), deliveryId, attempt, outcome, error, transport, durationMs },
      update: { outcome, error, transport, durationMs },
    });
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
