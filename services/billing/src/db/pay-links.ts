import type { Db, Tx } from './client';
import type { Payment, Prisma } from './generated/client';
import { findInvoice, type InvoiceWithJobAndItems } from './customer-invoices';

/** Pay-link and invoice-payment queries (issue 18, item 4). What they mean is src/app/invoice-pay.ts's. */

export async function insertPayLink(db: Db | Tx, tokenHash: string, invoiceId: string): Promise<void> {
  await db.invoicePayLink.create({ data: { tokenHash, customerInvoiceId: invoiceId } });
}

/** The invoice a pay link's token hash opens (undefined for an unknown link or a deleted invoice). */
export async function invoiceOfPayLink(
  db: Db | Tx,
  tokenHash: string,
): Promise<InvoiceWithJobAndItems | undefined> {
  const link = await db.invoicePayLink.findUnique({ where: { tokenHash } });
  return link ? findInvoice(db, link.customerInvoiceId) : undefined;
}

/** The invoice's payment of this amount (one PaymentIntent per invoice and amount). */
export async function findInvoicePayment(
  db: Db | Tx,
  invoiceId: string,
  totalAmount: string,
): Promise<Payment | undefined> {
  return (
    (await db.payment.findUnique({
      where: { customerInvoiceId_totalAmount: { customerInvoiceId: invoiceId, totalAmount } },
    })) ?? undefined
  );
}

export function insertInvoicePayment(db: Db, data: Prisma.PaymentUncheckedCreateInput): Promise<Payment> {
  return db.payment.create({ data });
}
