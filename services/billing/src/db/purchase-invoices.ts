import type { Db, Tx } from './client';
import type { Prisma, PurchaseInvoice } from './generated/client';

/** Purchase invoice queries; the GST split, access and events are src/app/purchase-invoices.ts's. */

export function purchaseInvoicesOfJob(db: Db, jobId: string): Promise<PurchaseInvoice[]> {
  return db.purchaseInvoice.findMany({
    where: { jobId },
    orderBy: [{ invoiceDate: 'desc' }, { createdAt: 'desc' }],
  });
}

export function insertPurchaseInvoice(
  tx: Tx,
  data: Prisma.PurchaseInvoiceUncheckedCreateInput,
): Promise<PurchaseInvoice> {
  return tx.purchaseInvoice.create({ data });
}

/** Locks the row for the rest of the transaction. */
export async function lockPurchaseInvoice(tx: Tx, id: string): Promise<PurchaseInvoice | undefined> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "billing"."purchase_invoices" WHERE "id" = ${id}::uuid FOR UPDATE`;
  if (rows.length === 0) return undefined;
  return (await tx.purchaseInvoice.findUnique({ where: { id } })) ?? undefined;
}

export function updatePurchaseInvoice(
  tx: Tx,
  id: string,
  data: Prisma.PurchaseInvoiceUpdateInput,
): Promise<PurchaseInvoice> {
  return tx.purchaseInvoice.update({ where: { id }, data });
}

export async function deletePurchaseInvoice(tx: Tx, id: string): Promise<void> {
  await tx.purchaseInvoice.delete({ where: { id } });
}
