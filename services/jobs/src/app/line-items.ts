import { badRequest, notFound } from '@tyres/service-kit';
import type { Db } from '../db/client';
import type { JobsRepository } from '../db/jobs-repository';
import type { LineItemRecord, LineItemsRepository } from '../db/line-items-repository';
import { technicianScope } from '../domain/access';
import type { LineItemView } from '../domain/job-view';
import { fitsDecimal10_2, lineItemTotals, type LineItemInput } from '../domain/line-items';
import { JOB_NOT_FOUND, LINE_ITEM_NOT_FOUND, LINE_TOTAL_TOO_LARGE } from '../domain/messages';
import { lockJobFor, type Actor } from './actor';

/**
 * Job line items (spec entity job_line_items): staff read the items of the jobs they see; admins change them. Every
 * change locks the job row first, so it serialises with the job's other changes.
 */
export class LineItemUseCases {
  constructor(private readonly deps: { db: Db; jobs: JobsRepository; lineItems: LineItemsRepository }) {}

  async list(actor: Actor, jobId: string): Promise<LineItemView[]> {
    const job = await this.deps.jobs.findVisible(jobId, technicianScope(actor.identity));
    if (!job) throw notFound(JOB_NOT_FOUND);
    return this.deps.lineItems.list(jobId);
  }

  async add(actor: Actor, jobId: string, input: LineItemInput): Promise<LineItemView> {
    const record = withTotals(input);
    const itemId = await this.deps.db.$transaction(async (tx) => {
      await lockJobFor(this.deps.jobs, tx, jobId, actor, true);
      return this.deps.lineItems.create(tx, jobId, record);
    });
    return this.read(jobId, itemId);
  }

  /** Fields left out keep their stored values; the totals are computed again from the result. */
  async update(
    actor: Actor,
    jobId: string,
    itemId: string,
    patch: Partial<LineItemInput>,
  ): Promise<LineItemView> {
    await this.deps.db.$transaction(async (tx) => {
      await lockJobFor(this.deps.jobs, tx, jobId, actor, true);
      const current = await this.deps.lineItems.find(jobId, itemId, tx);
      if (!current) throw notFound(LINE_ITEM_NOT_FOUND);
      await this.deps.lineItems.update(
        tx,
        itemId,
        withTotals({
          type: patch.type ?? current.type,
          category: patch.category ?? current.category,
          description: patch.description ?? current.description,
          quantity: patch.quantity ?? current.quantity,
          unitCost: patch.unitCost ?? current.unitCost,
          unitPrice: patch.unitPrice ?? current.unitPrice,
        }),
      );
    });
    return this.read(jobId, itemId);
  }

  async remove(actor: Actor, jobId: string, itemId: string): Promise<void> {
    await this.deps.db.$transaction(async (tx) => {
      await lockJobFor(this.deps.jobs, tx, jobId, actor, true);
      if (!(await this.deps.lineItems.delete(tx, jobId, itemId))) throw notFound(LINE_ITEM_NOT_FOUND);
    });
  }

  private async read(jobId: string, itemId: string): Promise<LineItemView> {
    const item = await this.deps.lineItems.find(jobId, itemId);
    if (!item) throw notFound(LINE_ITEM_NOT_FOUND);
    return item;
  }
}

/** The item with its totals; a total beyond Decimal(10,2) is refused (400) before anything is written. */
function withTotals(input: LineItemInput): LineItemRecord {
  const totals = lineItemTotals(input);
  if (!fitsDecimal10_2(totals.totalCost) || !fitsDecimal10_2(totals.totalPrice))
    throw badRequest(LINE_TOTAL_TOO_LARGE, [{ path: 'quantity', message: LINE_TOTAL_TOO_LARGE }]);
  return { ...input, ...totals };
}
