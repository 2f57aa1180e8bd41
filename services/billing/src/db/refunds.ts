import type { Db, Tx } from './client';
import type { Prisma, Refund } from './generated/client';

/** Refund queries (refunds). What a cancellation or a provider event does is src/app/refunds.ts's. */

export async function insertRefundOnce(
  tx: Tx,
  data: Prisma.RefundUncheckedCreateInput,
): Promise<Refund | undefined> {
  // One refund per cancellation and per job: a second cancellation event for the same job records nothing.
  const inserted = await tx.refund.createMany({ data: [data], skipDuplicates: true });
  return inserted.count === 1
    ? ((await tx.refund.findUnique({ where: { id: data.id as string } })) ?? undefined)
    : undefined;
}

export async function findRefund(db: Db | Tx, id: string): Promise<Refund | undefined> {
  return (await db.refund.findUnique({ where: { id } })) ?? undefined;
}

/** Locks the refund for the rest of the transaction. */
export async function lockRefund(tx: Tx, id: string): Promise<Refund | undefined> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "billing"."refunds" WHERE "id" = ${id}::uuid FOR UPDATE`;
  return rows[0] ? findRefund(tx, id) : undefined;
}

/** The refund a provider event names: by the provider's refund id, else by the id billing sent in its metadata. */
export async function lockRefundOfProvider(
  tx: Tx,
  providerRefundId: string,
  refundId: string | undefined,
): Promise<Refund | undefined> {
  const uuid = refundId && /^[0-9a-f-]{36}$/i.test(refundId) ? refundId : null;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "billing"."refunds"
    WHERE "provider_refund_id" = ${providerRefundId} OR "id" = ${uuid}::uuid
    ORDER BY ("provider_refund_id" = ${providerRefundId}) DESC NULLS LAST LIMIT 1 FOR UPDATE`;
  const id = rows[0]?.id;
  return id ? findRefund(tx, id) : undefined;
}

export function updateRefund(db: Db | Tx, id: string, data: Prisma.RefundUpdateInput): Promise<Refund> {
  return db.refund.update({ where: { id }, data });
}

/** Newest first, optionally of one status, with the number of matches. */
export async function listRefunds(
  db: Db,
  filters: { status?: string; limit: number; offset: number },
): Promise<{ rows: Refund[]; total: number }> {
  const where = filters.status ? { status: filters.status } : {};
  const [rows, total] = await Promise.all([
    db.refund.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: filters.limit,
      skip: filters.offset,
    }),
    db.refund.count({ where }),
  ]);
  return { rows, total };
}

/** Refunds recorded but not yet handed to the provider (their job was lost, e.g. Redis down at the time). */
export function requestedRefundIds(db: Db, olderThan: Date): Promise<{ id: string }[]> {
  return db.refund.findMany({
    where: { status: 'requested', updatedAt: { lt: olderThan } },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
    take: 100,
  });
}
