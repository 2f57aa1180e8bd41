import type { BillingContext } from '../context';
import { perthDate } from '../domain/dates';
import { invoiceDocument, invoiceFilename } from '../domain/invoice-document';
import { renderPdf } from './pdf-render';

export interface GeneratedPdf {
  invoiceId: string;
  revision: number;
  filename: string;
  sizeBytes: number;
  content: Buffer;
}

/** Builds the invoice's PDF from its current state and stores it; undefined when the invoice is gone. */
export async function generateInvoicePdf(
  ctx: Pick<BillingContext, 'db' | 'pdfs' | 'business' | 'clock'>,
  invoiceId: string,
): Promise<GeneratedPdf | undefined> {
  const invoice = await ctx.db.customerInvoice.findUnique({
    where: { id: invoiceId },
    include: { job: true, items: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] } },
  });
  if (!invoice) return undefined;
  const content = await renderPdf(invoiceDocument(invoice, ctx.business, perthDate(ctx.clock())));
  const filename = invoiceFilename(invoice.invoiceNumber);
  if (!(await ctx.pdfs.save(invoice.id, invoice.revision, filename, content))) return undefined;
  return { invoiceId, revision: invoice.revision, filename, sizeBytes: content.length, content };
}
