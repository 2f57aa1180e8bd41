import type { LineItemView } from '../domain/job-view';
import type { LineItemInput, LineItemTotals } from '../domain/line-items';
import type { Db, Executor, Tx } from './client';

/** A line item as stored: what was entered and the totals the use case computed (src/domain/line-items.ts). */
export type LineItemRecord = LineItemInput & LineItemTotals;

const LINE_ITEM_COLUMNS = `"id", "job_id" AS "jobId", "type", "category", "description", "quantity",
  "unit_cost"::text AS "unitCost", "total_cost"::text AS "totalCost",
  "unit_price"::text AS "unitPrice", "total_price"::text AS "totalPrice",
  "profit_margin"::text AS "profitMargin",
  to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/** Job line items (spec entity job_line_items), money as 2-decimal text. */
export class LineItemsRepository {
  constructor(private readonly db: Db) {}

  /** The job's line items, oldest first. */
  async list(jobId: string, db: Executor = this.db): Promise<LineItemView[]> {
    return db.$queryRawUnsafe<LineItemView[]>(
      `SELECT ${LINE_ITEM_COLUMNS}
       FROM "jobs"."job_line_items" WHERE "job_id" = $1::uuid ORDER BY "created_at", "id"`,
      jobId,
    );
  }

  /** One line item of the job, or undefined. */
  async find(jobId: string, itemId: string, db: Executor = this.db): Promise<LineItemView | undefined> {
    const rows = await db.$queryRawUnsafe<LineItemView[]>(
      `SELECT ${LINE_ITEM_COLUMNS}
       FROM "jobs"."job_line_items" WHERE "job_id" = $1::uuid AND "id" = $2::uuid`,
      jobId,
      itemId,
    );
    return rows[0];
  }

  /** Returns the new item's id. */
  async create(tx: Tx, jobId: string, item: LineItemRecord): Promise<string> {
    const created = await tx.jobLineItem.create({ data: { jobId, ...item }, select: { id: true } });
    return created.id;
  }

  async update(tx: Tx, itemId: string, item: LineItemRecord): Promise<void> {
    await tx.jobLineItem.update({ where: { id: itemId }, data: item });
  }

  /** False when the job has no such item. */
  async delete(tx: Tx, jobId: string, itemId: string): Promise<boolean> {
    const deleted = await tx.jobLineItem.deleteMany({ where: { id: itemId, jobId } });
    return deleted.count > 0;
  }
}
