import { createHash } from 'node:crypto';
import type { Db } from './client';

/** A job's way to its review request. */
export interface ReviewProgress {
  jobId: string;
  jobNumber: string | null;
  customerName: string | null;
  customerEmail: string | null;
  completedAt: Date | null;
  paidAt: Date | null;
}

interface ProgressRow {
  job_id: string;
  job_number: string | null;
  customer_name: string | null;
  customer_email: string | null;
  completed_at: Date | null;
  paid_at: Date | null;
}

const fromRow = (r: ProgressRow): ReviewProgress => ({
  jobId: r.job_id,
  jobNumber: r.job_number,
  customerName: r.customer_name,
  customerEmail: r.customer_email,
  completedAt: r.completed_at,
  paidAt: r.paid_at,
});

export interface MarketingContact {
  email: string;
  token: string;
  unsubscribedAt: Date | null;
}

/**
 * notify.review_progress and notify.marketing_contacts (queries only). Like the confirmation's halves, each fact is
 * an upsert returning the row after the write, so whichever of "completed" and "paid" commits second sees both.
 */
export class ReviewRepository {
  constructor(private readonly db: Db) {}

  async completed(input: {
    jobId: string;
    jobNumber: string;
    customerName: string;
    customerEmail: string;
    at: Date;
  }): Promise<ReviewProgress> {
    const rows = await this.db.$queryRaw<ProgressRow[]>`
      INSERT INTO "notify"."review_progress" AS r ("job_id", "job_number", "customer_name", "customer_email", "completed_at")
      VALUES (${input.jobId}::uuid, ${input.jobNumber}, ${input.customerName}, ${input.customerEmail}, ${input.at})
      ON CONFLICT ("job_id") DO UPDATE SET
        "job_number" = EXCLUDED."job_number",
        "customer_name" = EXCLUDED."customer_name",
        "customer_email" = EXCLUDED."customer_email",
        "completed_at" = COALESCE(r."completed_at", EXCLUDED."completed_at"),
        "updated_at" = now()
      RETURNING "job_id", "job_number", "customer_name", "customer_email", "completed_at", "paid_at"`;
    return fromRow(rows[0]!);
  }

  async paid(jobId: string, at: Date): Promise<ReviewProgress> {
    const rows = await this.db.$queryRaw<ProgressRow[]>`
      INSERT INTO "notify"."review_progress" AS r ("job_id", "paid_at") VALUES (${jobId}::uuid, ${at})
      ON CONFLICT ("job_id") DO UPDATE SET
        "paid_at" = COALESCE(r."paid_at", EXCLUDED."paid_at"),
        "updated_at" = now()
      RETURNING "job_id", "job_number", "customer_name", "customer_email", "completed_at", "paid_at"`;
    return fromRow(rows[0]!);
  }

  /**
   * The contact's row, created with `newToken` when the address has none yet (the existing token is kept). A new
   * row starts opted out when the address had unsubscribed before its owner was erased (the kept `optOutKey` row).
   */
  async contact(email: string, newToken: string): Promise<MarketingContact> {
    const address = email.toLowerCase();
    const existing = await this.db.marketingContact.findUnique({ where: { email: address } });
    if (existing) return existing;
    const optOut = await this.db.marketingContact.findUnique({ where: { email: optOutKey(address) } });
    await this.db.marketingContact.createMany({
      data: [{ email: address, token: newToken, unsubscribedAt: optOut?.unsubscribedAt ?? null }],
      skipDuplicates: true,
    });
    return this.db.marketingContact.findUniqueOrThrow({ where: { email: address } });
  }

  byToken(token: string): Promise<MarketingContact | null> {
    return this.db.marketingContact.findUnique({ where: { token } });
  }

  /** Opts the contact out (the first opt-out's time is kept); null for an unknown token. */
  async unsubscribe(token: string, at: Date): Promise<MarketingContact | null> {
    await this.db.marketingContact.updateMany({
      where: { token, unsubscribedAt: null },
      data: { unsubscribedAt: at },
    });
    return this.byToken(token);
  }
}

/** What an erased customer's opt-out is kept under: a one-way hash of the lower-cased address (db/erasure.ts). */
export function optOutKey(email: string): string {
  return `optout:${createHash('sha256').update(email.toLowerCase(), 'utf8').digest('hex')}`;
}
